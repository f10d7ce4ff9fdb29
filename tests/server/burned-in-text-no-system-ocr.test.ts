// Burned-in text is read in process: with no OCR program on PATH (as on a fresh production machine), an
// ultrasound's burned-in name and ID are still found and blanked.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDicom, stringValue } from '../../server/imaging/dicom/dicom-dataset.ts';
import { readWords } from '../../server/imaging/dicom/ocr-engine.ts';
import { uploadStorageKey } from '../../server/modules/uploads/uploads.repository.ts';
import { makeDicomImage } from '../fixtures/dicom-fixtures.ts';
import { imageWithText } from '../fixtures/text-image.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { uploadFile } from './uploads-fixtures.ts';

// Before any imaging thread exists: only Node's own folder stays on PATH, so no `tesseract` can be found.
process.env.PATH = path.dirname(process.execPath);

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t);
});
afterAll(() => t.close());

const get = async (url: string) => (await t.app.inject({ method: 'GET', url, headers: user.auth })).json();

describe('burned-in text with no OCR program installed', () => {
  it('finds and blanks the name and ID burned into an unmarked ultrasound', async () => {
    const pixels = await imageWithText();
    const file = await makeDicomImage({ width: 256, height: 128, bitsAllocated: 8, samples: pixels, modality: 'US' });
    const res = await uploadFile(t, user, 'us.dcm', Buffer.from(file));
    expect(res.statusCode).toBe(201);
    const item = res.json<{ stored_filename: string }>();
    const report = await get(`/api/v1/uploads/${item.stored_filename}/deidentification`);
    expect(report.burned_in_text).toBe('blanked');
    expect(report.burned_in_reason).toBeNull();
    expect(report.burned_in_regions.length).toBeGreaterThanOrEqual(2);

    const stored = readFileSync(path.join(t.dataDir, 'uploads', uploadStorageKey(item.stored_filename)));
    const dataSet = parseDicom(stored);
    const codes = dataSet.elements.x00120064!.items!.map((i) => stringValue(i.dataSet!, 'x00080100'));
    expect(codes).toEqual(['113100', '113101']);
    const pixelData = dataSet.elements.x7fe00010!;
    const out = new Uint8Array(stored.buffer, stored.byteOffset + pixelData.dataOffset, pixelData.length);
    expect((await readWords(out, 256, 128)).map((w) => w.text).join(' ')).not.toMatch(/DOE|JOHN|7788/);
    expect((await get(`/api/v1/uploads/${item.stored_filename}/metadata`)).deidentified).toBe(true);
  }, 60_000);
});
