// Text burned into the pixels: rendered here into a DICOM image, found by OCR on upload, blanked, and said so.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWords } from '../../server/imaging/dicom/ocr-engine.ts';
import { parseDicom, stringValue } from '../../server/imaging/dicom/dicom-dataset.ts';
import { uploadStorageKey } from '../../server/modules/uploads/uploads.repository.ts';
import { makeDicomImage } from '../fixtures/dicom-fixtures.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { multipartBody, uploadFile } from './uploads-fixtures.ts';

const WIDTH = 256;
const HEIGHT = 128;

/** An 8-bit grey image: a dim disc (the anatomy) and a line of white text in the top left corner. */
async function imageWithText(): Promise<Uint8Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
    <rect width="${WIDTH}" height="${HEIGHT}" fill="black"/>
    <circle cx="150" cy="80" r="35" fill="#707070"/>
    <text x="8" y="24" font-family="DejaVu Sans, sans-serif" font-size="16" fill="white">DOE JOHN 778899</text>
  </svg>`;
  const { data } = await sharp(Buffer.from(svg))
    .greyscale()
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return new Uint8Array(data);
}

/** The RLE file with its first frame's segment count broken: parsed fine, its pixels cannot be decoded. */
function damagedRle(file: Uint8Array): Uint8Array {
  const out = file.slice();
  // An RLE header: the segment count (a little-endian uint32), then the first segment's offset, 64.
  const at = Buffer.from(out).indexOf(Buffer.from([0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00]));
  expect(at).toBeGreaterThan(0);
  out[at - 1] = 9;
  return out;
}

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t);
});
afterAll(() => t.close());

const reportOf = async (storedFilename: string) =>
  (
    await t.app.inject({
      method: 'GET',
      url: `/api/v1/uploads/${storedFilename}/deidentification`,
      headers: user.auth,
    })
  ).json();
const listed = async (storedFilename: string) =>
  (await t.app.inject({ method: 'GET', url: '/api/v1/uploads', headers: user.auth }))
    .json()
    .find((i: { stored_filename: string }) => i.stored_filename === storedFilename);

describe('burned-in text', () => {
  it('is found by OCR in an image marked YES, blanked, and reported; Burned In Annotation becomes NO', async () => {
    const pixels = await imageWithText();
    // The rendered text is readable before upload: the check below could fail.
    expect((await readWords(pixels, WIDTH, HEIGHT)).map((w) => w.text)).toEqual(
      expect.arrayContaining(['JOHN', '778899']),
    );
    const file = await makeDicomImage({
      width: WIDTH,
      height: HEIGHT,
      bitsAllocated: 8,
      samples: pixels,
      modality: 'US',
      burnedInAnnotation: 'YES',
    });
    const res = await uploadFile(t, user, 'DOE_JOHN.dcm', Buffer.from(file));
    expect(res.statusCode).toBe(201);
    const item = res.json<{ stored_filename: string }>();
    const report = await reportOf(item.stored_filename);
    expect(report.burned_in_text).toBe('blanked');
    expect(report.burned_in_annotation).toBe('NO');
    expect(JSON.stringify(report)).not.toMatch(/JOHN|778899/);
    expect(report.burned_in_regions.length).toBeGreaterThanOrEqual(2);
    for (const region of report.burned_in_regions) {
      expect(region.y).toBeLessThan(40);
      expect(region.x + region.width).toBeLessThan(200);
    }

    const stored = readFileSync(path.join(t.dataDir, 'uploads', uploadStorageKey(item.stored_filename)));
    const dataSet = parseDicom(stored);
    expect(stringValue(dataSet, 'x00280301')).toBe('NO');
    const codes = dataSet.elements.x00120064!.items!.map((i) => stringValue(i.dataSet!, 'x00080100'));
    expect(codes).toEqual(['113100', '113101']);
    const pixelData = dataSet.elements.x7fe00010!;
    const out = new Uint8Array(stored.buffer, stored.byteOffset + pixelData.dataOffset, pixelData.length);
    for (const r of report.burned_in_regions)
      for (let y = r.y; y < r.y + r.height; y++)
        for (let x = r.x; x < r.x + r.width; x++) expect(out[y * WIDTH + x]).toBe(0);
    // The disc (the image itself) is untouched, and no word can be read any more.
    expect(out[80 * WIDTH + 150]).toBe(pixels[80 * WIDTH + 150]);
    expect((await readWords(out, WIDTH, HEIGHT)).map((w) => w.text).join(' ')).not.toMatch(/DOE|JOHN|7788/);
    expect((await listed(item.stored_filename)).identifiable).toBeUndefined();
  }, 60_000);

  it('flags an image marked YES whose pixels cannot be decoded here as not de-identified', async () => {
    const file = await makeDicomImage({ syntax: 'rle', modality: 'US', burnedInAnnotation: 'YES' });
    const res = await uploadFile(t, user, 'scan.dcm', Buffer.from(damagedRle(file)));
    expect(res.statusCode).toBe(201);
    const item = res.json<{ stored_filename: string }>();
    const report = await reportOf(item.stored_filename);
    expect(report.burned_in_text).toBe('not-cleanable');
    expect(report.burned_in_annotation).toBe('YES');
    expect((await listed(item.stored_filename)).identifiable).toBe(true);
    const metadata = await t.app.inject({
      method: 'GET',
      url: `/api/v1/uploads/${item.stored_filename}/metadata`,
      headers: user.auth,
    });
    expect(metadata.json().deidentified).toBe(false);
  });

  it('flags an unmarked ultrasound whose pixels cannot be decoded here as not de-identified, and says why', async () => {
    const file = await makeDicomImage({ syntax: 'rle', modality: 'US' });
    const res = await uploadFile(t, user, 'scan.dcm', Buffer.from(damagedRle(file)));
    expect(res.statusCode).toBe(201);
    const item = res.json<{ stored_filename: string }>();
    const report = await reportOf(item.stored_filename);
    expect(report.burned_in_text).toBe('not-checkable');
    expect(report.burned_in_reason).toBe(
      'burned-in text could not be checked: its pixel data could not be decoded here',
    );
    expect((await listed(item.stored_filename)).identifiable).toBe(true);
  });

  it('flags a compressed image marked YES in which no text is found: the mark stays, so does the flag', async () => {
    const file = await makeDicomImage({ syntax: 'rle', modality: 'US', burnedInAnnotation: 'YES' });
    const res = await uploadFile(t, user, 'scan.dcm', Buffer.from(file));
    const report = await reportOf(res.json().stored_filename);
    expect(report.burned_in_text).toBe('none-found');
    expect(report.burned_in_annotation).toBe('YES');
    expect((await listed(res.json().stored_filename)).identifiable).toBe(true);
  });

  it('flags a series with such a slice as not de-identified too', async () => {
    const slice = async () =>
      damagedRle(await makeDicomImage({ syntax: 'rle', modality: 'US', burnedInAnnotation: 'YES' }));
    const body = multipartBody([
      { field: 'file', filename: 'a.dcm', content: Buffer.from(await slice()) },
      { field: 'file', filename: 'b.dcm', content: Buffer.from(await slice()) },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/uploads/series',
      headers: { ...user.auth, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(201);
    const [item] = res.json<{ stored_filename: string; slice_count: number }[]>();
    expect(item!.slice_count).toBe(2);
    expect((await listed(item!.stored_filename)).identifiable).toBe(true);
  });

  it('leaves an MR image without the mark alone', async () => {
    const res = await uploadFile(t, user, 'mr.dcm', Buffer.from(await makeDicomImage()));
    const report = await reportOf(res.json().stored_filename);
    expect(report.burned_in_text).toBe('not-checked');
    expect((await listed(res.json().stored_filename)).identifiable).toBeUndefined();
  });
});
