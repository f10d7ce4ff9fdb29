// De-identification fails closed: where the OCR engine cannot run, an image that may carry burned-in text is
// stored as not de-identified, and its report says why. The engine is made to fail for real: its model folder
// (OCR_MODEL_DIR, read when an imaging thread starts its engine) is an empty one.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDicomImage } from '../fixtures/dicom-fixtures.ts';
import { imageWithText } from '../fixtures/text-image.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { multipartBody, uploadFile } from './uploads-fixtures.ts';

// Before any imaging thread exists: threads take the environment as it is when they start.
process.env.OCR_MODEL_DIR = mkdtempSync(path.join(tmpdir(), 'no-ocr-model-'));

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t);
});
afterAll(() => t.close());

const get = async (url: string) => (await t.app.inject({ method: 'GET', url, headers: user.auth })).json();
const listed = async (storedFilename: string) =>
  (await get('/api/v1/uploads')).find((i: { stored_filename: string }) => i.stored_filename === storedFilename);

/** An ultrasound frame with a name and an ID burned in, not marked either way (as most scanners send them). */
const ultrasound = async () =>
  Buffer.from(
    await makeDicomImage({ width: 256, height: 128, bitsAllocated: 8, samples: await imageWithText(), modality: 'US' }),
  );

describe('burned-in text without a working OCR engine', () => {
  it('stores an ultrasound as not de-identified and says why', async () => {
    const res = await uploadFile(t, user, 'us.dcm', await ultrasound());
    expect(res.statusCode).toBe(201);
    const item = res.json<{ stored_filename: string }>();
    const report = await get(`/api/v1/uploads/${item.stored_filename}/deidentification`);
    expect(report.burned_in_text).toBe('not-checkable');
    expect(report.burned_in_reason).toBe('burned-in text could not be checked: the OCR engine could not start');
    // No path of the server's reaches the client.
    expect(JSON.stringify(report)).not.toContain(process.env.OCR_MODEL_DIR);
    expect((await get(`/api/v1/uploads/${item.stored_filename}/metadata`)).deidentified).toBe(false);
    expect((await listed(item.stored_filename)).identifiable).toBe(true);
  }, 60_000);

  it('stores a series with such a slice as not de-identified', async () => {
    const body = multipartBody([
      { field: 'file', filename: 'a.dcm', content: await ultrasound() },
      { field: 'file', filename: 'b.dcm', content: await ultrasound() },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/uploads/series',
      headers: { ...user.auth, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(201);
    const [item] = res.json<{ stored_filename: string }[]>();
    expect((await listed(item!.stored_filename)).identifiable).toBe(true);
  }, 60_000);

  it('still takes an MR image, which carries no burned-in text, as de-identified', async () => {
    const res = await uploadFile(t, user, 'mr.dcm', Buffer.from(await makeDicomImage()));
    const item = res.json<{ stored_filename: string }>();
    expect((await get(`/api/v1/uploads/${item.stored_filename}/deidentification`)).burned_in_text).toBe('not-checked');
    expect((await listed(item.stored_filename)).identifiable).toBeUndefined();
  });
});
