import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phantomDicom, phantomNifti } from '../fixtures/upload-images.ts';
import { writeNrrd } from '../fixtures/nifti-writer.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { uploadFile } from './uploads-fixtures.ts';

let t: TestApp;
let user: TestUser;
let dicomName: string;
let niftiName: string;

beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t);
  dicomName = (await uploadFile(t, user, 'head.dcm', await phantomDicom())).json().stored_filename;
  niftiName = (await uploadFile(t, user, 'brain.nii.gz', phantomNifti())).json().stored_filename;
});
afterAll(() => t.close());

const get = (url: string, who = user) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: who.auth });

describe('GET /uploads/{name}/preview.png', () => {
  it('renders a DICOM as a PNG with square pixels (0.75 × 0.5 mm here)', async () => {
    const res = await get(`/uploads/${dicomName}/preview.png`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 128, 85]);
  });

  it('renders the middle slice of a volume by default, any slice and axis on request, with square pixels', async () => {
    const middle = await get(`/uploads/${niftiName}/preview.png`);
    expect(middle.headers['x-slice']).toBe('6');
    expect(middle.headers['x-slice-count']).toBe('12');
    const first = await get(`/uploads/${niftiName}/preview.png?slice=0`);
    expect(first.statusCode).toBe(200);
    expect(Buffer.compare(first.rawPayload, middle.rawPayload)).not.toBe(0);
    const coronal = await get(`/uploads/${niftiName}/preview.png?axis=coronal&slice=20`);
    const meta = await sharp(coronal.rawPayload).metadata();
    // 48 columns of 1 mm by 12 slices of 2.5 mm: 30 rows once pixels are made square.
    expect([meta.width, meta.height]).toEqual([48, 30]);
  });

  it('keeps previews at most 512 px wide', async () => {
    const wide = writeNrrd({
      sizes: [1200, 60],
      values: Array.from({ length: 72000 }, (_, i) => i % 1200),
      type: 'ushort',
      encoding: 'gzip',
    });
    const name = (await uploadFile(t, user, 'wide.nrrd', Buffer.from(wide))).json().stored_filename;
    const meta = await sharp((await get(`/uploads/${name}/preview.png`)).rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([512, 26]);
  });

  it('serves the same bytes from its cache on the next request', async () => {
    const a = await get(`/uploads/${niftiName}/preview.png?slice=3`);
    const b = await get(`/uploads/${niftiName}/preview.png?slice=3`);
    expect(Buffer.compare(a.rawPayload, b.rawPayload)).toBe(0);
  });

  it('refuses a slice out of range with 400 and a clear detail', async () => {
    const res = await get(`/uploads/${niftiName}/preview.png?slice=12`);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe('Slice 12 is out of range: this image has 12 axial slices (0–11)');
  });

  it("answers 404 for someone else's image and 401 without a token", async () => {
    const other = await createSignedInUser(t);
    expect((await get(`/uploads/${dicomName}/preview.png`, other)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/uploads/${dicomName}/preview.png` })).statusCode).toBe(
      401,
    );
  });

  it('answers 415 naming the problem for a file that cannot be decoded', async () => {
    const bad = Buffer.concat([
      Buffer.from('NRRD0004\ntype: uint8\ndimension: 1\nsizes: 4\nencoding: bzip2\n\n'),
      Buffer.alloc(300),
    ]);
    const name = (await uploadFile(t, user, 'bad.nrrd', bad)).json().stored_filename;
    const res = await get(`/uploads/${name}/preview.png`);
    expect(res.statusCode).toBe(415);
    expect(res.json().detail).toBe('NRRD encoding "bzip2" is not supported (raw and gzip are).');
  });
});

describe('GET /uploads/{name}/metadata', () => {
  it('describes a DICOM: format, modality, dimensions, spacing, bit depth, photometric, orientation', async () => {
    const res = await get(`/uploads/${dicomName}/metadata`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      format: 'dcm',
      modality: 'MR',
      dimensions: [128, 128, 1],
      spacing: [0.75, 0.5, 2.5],
      bit_depth: 12,
      photometric_interpretation: 'MONOCHROME2',
      slices: 1,
      window: { center: 600, width: 1200 },
    });
    expect(res.json().orientation).toMatch(/^axial/);
  });

  it('describes a NIfTI volume with its slices, spacing and orientation, its free-text description cleared on arrival', async () => {
    const res = await get(`/uploads/${niftiName}/metadata`);
    expect(res.json()).toMatchObject({
      format: 'nii',
      dimensions: [48, 40, 12],
      slices: 12,
      spacing: [1, 1, 2.5],
      deidentified: false,
    });
    expect(res.json().series_description || null).toBeNull();
  });
});

describe('deleting an image', () => {
  it('forgets its cached previews too', async () => {
    const name = (await uploadFile(t, user, 'gone.nii.gz', phantomNifti())).json().stored_filename;
    await get(`/uploads/${name}/preview.png`);
    await get(`/uploads/${name}/preview.png?axis=sagittal&slice=5`);
    const cache = t.app.previewCache;
    expect(cache.get(name, 'sagittal', 5)).toBeDefined();
    const res = await t.app.inject({ method: 'DELETE', url: `/api/v1/uploads/${name}`, headers: user.auth });
    expect(res.statusCode).toBe(204);
    expect(cache.get(name, 'sagittal', 5)).toBeUndefined();
    expect(cache.sliceCount(name, 'axial')).toBeUndefined();
    expect((await get(`/uploads/${name}/preview.png`)).statusCode).toBe(404);
  });
});
