// Burned-in text in compressed pixel data: files compressed by dcmtk (dcmcrle, dcmcjpeg), found by OCR on upload,
// decoded, blanked and stored uncompressed; the output is read back by dcmtk, dicom3tools and pydicom.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWords } from '../../server/imaging/dicom/ocr-engine.ts';
import { uploadStorageKey } from '../../server/modules/uploads/uploads.repository.ts';
import { makeDicomImage } from '../fixtures/dicom-fixtures.ts';
import { dciodvfyErrors, dcmdumpValue, readWithPydicom, sampleAt } from '../fixtures/pydicom-pixels.ts';
import { imageWithText } from '../fixtures/text-image.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { uploadFile } from './uploads-fixtures.ts';

const WIDTH = 256;
const HEIGHT = 128;
const EXPLICIT_LE = '1.2.840.10008.1.2.1';

let t: TestApp;
let user: TestUser;
let dir: string;
beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t);
  dir = mkdtempSync(path.join(tmpdir(), 'lumenqc-compressed-'));
});
afterAll(() => t.close());

/** A two-frame ultrasound image with text in every frame, marked YES, written natively then compressed by dcmtk. */
async function compressed(
  tool: string,
  args: string[],
  channels: 1 | 3,
): Promise<{ file: string; pixels: Uint8Array }> {
  const frame = await imageWithText(WIDTH, HEIGHT, channels);
  const pixels = new Uint8Array(frame.length * 2);
  pixels.set(frame);
  pixels.set(frame, frame.length);
  const native = path.join(dir, `native-${channels}.dcm`);
  const dicom = await makeDicomImage({
    width: WIDTH,
    height: HEIGHT,
    frames: 2,
    bitsAllocated: 8,
    samplesPerPixel: channels,
    samples: pixels,
    modality: 'US',
    // Ultrasound Multi-frame Image Storage, whose IOD allows RGB and YBR.
    sopClassUid: '1.2.840.10008.5.1.4.1.1.3.1',
    burnedInAnnotation: 'YES',
  });
  writeFileSync(native, dicom);
  const file = path.join(dir, `${tool}${args.join('')}-${channels}.dcm`);
  execFileSync(tool, [...args, native, file]);
  return { file, pixels };
}

async function uploadStored(file: string): Promise<{ stored: string; report: Record<string, unknown> }> {
  const res = await uploadFile(t, user, path.basename(file), readFileSync(file));
  expect(res.statusCode, res.body).toBe(201);
  const name = res.json<{ stored_filename: string }>().stored_filename;
  const stored = path.join(dir, `stored-${path.basename(file)}`);
  writeFileSync(stored, readFileSync(path.join(t.dataDir, 'uploads', uploadStorageKey(name))));
  const report = await t.app.inject({
    method: 'GET',
    url: `/api/v1/uploads/${name}/deidentification`,
    headers: user.auth,
  });
  return { stored, report: report.json() };
}

describe('burned-in text in compressed pixel data', () => {
  const cases = [
    { tool: 'dcmcrle', args: [], channels: 1, syntax: '1.2.840.10008.1.2.5', lossless: true },
    { tool: 'dcmcjpeg', args: ['+e1'], channels: 1, syntax: '1.2.840.10008.1.2.4.70', lossless: true },
    { tool: 'dcmcrle', args: [], channels: 3, syntax: '1.2.840.10008.1.2.5', lossless: true },
    // Baseline JPEG of colour: dcmtk stores it as YBR_FULL_422, which the codec hands back as RGB.
    { tool: 'dcmcjpeg', args: ['+eb'], channels: 3, syntax: '1.2.840.10008.1.2.4.50', lossless: false },
  ] as const;
  for (const c of cases) {
    it(`${c.tool} ${c.args.join(' ')} (${c.channels === 1 ? 'grey' : 'colour'}): decoded, blanked in every frame, stored uncompressed`, async () => {
      const { file, pixels } = await compressed(c.tool, [...c.args], c.channels);
      expect(dcmdumpValue(file, '0002,0010')).toBe(c.syntax);
      const { stored, report } = await uploadStored(file);
      expect(report.burned_in_text).toBe('blanked');
      expect(report.burned_in_annotation).toBe('NO');
      const regions = report.burned_in_regions as { x: number; y: number; width: number; height: number }[];
      expect(regions.length).toBeGreaterThanOrEqual(2);

      // dcmtk reads the transfer syntax and the rewritten pixel attributes.
      expect(dcmdumpValue(stored, '0002,0010')).toBe(EXPLICIT_LE);
      expect(dcmdumpValue(stored, '0028,0301')).toBe('NO');
      // dicom3tools finds no error the dcmtk-compressed input did not have.
      const before = dciodvfyErrors(file);
      expect([...dciodvfyErrors(stored)].filter((error) => !before.has(error))).toEqual([]);

      // pydicom reads the pixels: every region is black in both frames, the disc is what it was.
      const out = readWithPydicom(stored);
      expect(out).toMatchObject({ transferSyntax: EXPLICIT_LE, frames: 2, rows: HEIGHT, columns: WIDTH });
      expect(out.photometric).toBe(c.channels === 3 ? 'RGB' : 'MONOCHROME2');
      if (c.channels === 3) expect(out.planar).toBe(0);
      for (const frame of [0, 1])
        for (const r of regions)
          for (let y = r.y; y < r.y + r.height; y++)
            for (let x = r.x; x < r.x + r.width; x++) expect(sampleAt(out, frame, x, y)).toBe(0);
      const disc = ((80 * WIDTH + 150) * c.channels) as number;
      const tolerance = c.lossless ? 0 : 6;
      for (const frame of [0, 1])
        expect(Math.abs(sampleAt(out, frame, 150, 80) - pixels[disc]!)).toBeLessThanOrEqual(tolerance);
      // No word can be read any more.
      const grey = new Uint8Array(WIDTH * HEIGHT);
      for (let i = 0; i < grey.length; i++) grey[i] = out.pixels[i * c.channels]!;
      expect((await readWords(grey, WIDTH, HEIGHT)).map((w) => w.text).join(' ')).not.toMatch(/DOE|JOHN|7788/);
    }, 60_000);
  }
});
