import { unzipSync } from 'fflate';
import { eq } from 'drizzle-orm';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDicom, stringValue } from '../../server/imaging/dicom/dicom-dataset.ts';
import { uploads } from '../../server/modules/uploads/uploads.table.ts';
import { seriesFiles, seriesZip } from '../fixtures/dicom-series.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { multipartBody, pngBytes, type Part } from './uploads-fixtures.ts';

describe('POST /uploads/series', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    user = await createSignedInUser(t);
  });
  afterAll(async () => t.close());

  const send = (parts: Part[], query = '') => {
    const body = multipartBody(parts);
    return t.app.inject({
      method: 'POST',
      url: `/api/v1/uploads/series${query}`,
      headers: { ...user.auth, ...body.headers },
      payload: body.payload,
    });
  };
  const download = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: user.auth });
    expect(res.statusCode).toBe(200);
    return unzipSync(new Uint8Array(res.rawPayload));
  };
  const zOf = (bytes: Uint8Array) => Number(stringValue(parseDicom(bytes), 'x00200032', 2));

  it('groups a 20-slice series sent as one zip into one listed item with its slice count', async () => {
    const res = await send([
      { field: 'file', filename: 'head-ct.zip', content: Buffer.from(seriesZip({ slices: 20 })) },
    ]);
    expect(res.statusCode).toBe(201);
    const [item, ...others] = res.json();
    expect(others).toHaveLength(0);
    // Named from its de-identified values, never the archive's name (which is often the patient's).
    expect(item).toMatchObject({ original_name_guess: 'CT_20-slices.zip', extension: '.zip', slice_count: 20 });
    const list = (await t.app.inject({ method: 'GET', url: '/api/v1/uploads', headers: user.auth })).json();
    expect(list.find((i: { stored_filename: string }) => i.stored_filename === item.stored_filename)).toMatchObject({
      slice_count: 20,
    });

    const slices = Object.entries(await download(item.url));
    expect(slices.map(([name]) => name)).toEqual(
      Array.from({ length: 20 }, (_, i) => `slice-${String(i + 1).padStart(4, '0')}.dcm`),
    );
    // In slice order along the stack, whatever order the archive held them in.
    expect(slices.map(([, bytes]) => zOf(bytes))).toEqual(Array.from({ length: 20 }, (_, i) => i * 2.5));
  });

  it('de-identifies every slice and keeps one remapped Series Instance UID for the item', async () => {
    const res = await send([{ field: 'file', filename: 'named.zip', content: Buffer.from(seriesZip({ slices: 4 })) }]);
    const item = res.json()[0];
    const slices = Object.values(await download(item.url)).map((bytes) => parseDicom(bytes));
    const uids = new Set(slices.map((s) => stringValue(s, 'x0020000e')));
    expect(uids.size).toBe(1);
    expect([...uids][0]).not.toBe('1.2.826.0.1.3680043.8.498.2');
    for (const s of slices) expect(stringValue(s, 'x00100010') ?? '').not.toContain('DOE');
    const [row] = await t.app.db.select().from(uploads).where(eq(uploads.storedFilename, item.stored_filename));
    expect(row).toMatchObject({ seriesInstanceUid: [...uids][0], sliceCount: 4, format: 'dcm', deidentified: true });
  });

  it('makes one item per series when an archive holds two, and groups loose slices sent as many files', async () => {
    const two = await send([
      {
        field: 'file',
        filename: 'study.zip',
        content: Buffer.from(seriesZip({ slices: 6 }, { slices: 3, seriesInstanceUid: '1.2.826.0.1.3680043.8.498.3' })),
      },
    ]);
    expect(two.statusCode).toBe(201);
    expect(
      two
        .json()
        .map((i: { slice_count: number }) => i.slice_count)
        .sort(),
    ).toEqual([3, 6]);

    const loose = await send(
      seriesFiles({ slices: 5 }).map((f) => ({ field: 'files', filename: f.name, content: Buffer.from(f.bytes) })),
    );
    expect(loose.statusCode).toBe(201);
    expect(loose.json()).toHaveLength(1);
    expect(loose.json()[0].slice_count).toBe(5);
  });

  it('makes five unrelated DICOM files chosen together five items, each named as if uploaded alone', async () => {
    const folder = '/usr/lib/python3/dist-packages/pydicom/data/test_files';
    const names = ['CT_small.dcm', 'MR_small.dcm', 'SC_rgb_rle.dcm', 'rtplan.dcm', 'image_dfl.dcm'];
    const files = names.map((name) => ({ name, content: readFileSync(path.join(folder, name)) }));
    const res = await send(files.map((f) => ({ field: 'file', filename: f.name, content: f.content })));
    expect(res.statusCode).toBe(201);
    const items = res.json() as { original_name_guess: string; extension: string }[];
    expect(items).toHaveLength(5);
    for (const item of items) {
      expect(item.extension).toBe('.dcm');
      expect(item).not.toHaveProperty('slice_count');
    }
    // The same names each file gets when uploaded on its own.
    const alone = [];
    for (const f of files) {
      const body = multipartBody([{ field: 'file', filename: f.name, content: f.content }]);
      const one = await t.app.inject({
        method: 'POST',
        url: '/api/v1/uploads',
        headers: { ...user.auth, ...body.headers },
        payload: body.payload,
      });
      expect(one.statusCode).toBe(201);
      alone.push(one.json().original_name_guess);
    }
    expect(items.map((i) => i.original_name_guess).sort()).toEqual([...alone].sort());
    // Names that repeat nothing identifying are kept; the deflated file, whose values are not read for a name, is
    // named from its modality and a short hash of its remapped SOP Instance UID.
    expect(alone.map((name) => name.replace(/_[0-9a-f]{8}\.dcm$/, '_<hash>.dcm')).sort()).toEqual([
      'CT_small.dcm',
      'MR_small.dcm',
      'OT_<hash>.dcm',
      'SC_rgb_rle.dcm',
      'rtplan.dcm',
    ]);
  });

  it('names each series from its modality and description, and keeps a lone file beside it apart', async () => {
    const described = seriesFiles({
      slices: 3,
      seriesInstanceUid: '1.2.826.0.1.3680043.8.498.7',
      seriesDescription: 'Head 5mm',
    });
    const lone = readFileSync('/usr/lib/python3/dist-packages/pydicom/data/test_files/CT_small.dcm');
    const res = await send(
      [
        ...described.map((f) => ({ field: 'file', filename: f.name, content: Buffer.from(f.bytes) })),
        { field: 'file', filename: 'CT_small.dcm', content: lone },
      ],
      '?deidentify=false',
    );
    expect(res.statusCode).toBe(201);
    const names = res.json().map((i: { original_name_guess: string }) => i.original_name_guess);
    // Kept as sent: the description stays, and the lone file keeps its own name.
    expect(names.sort()).toEqual(['CT_Head-5mm_3-slices.zip', 'CT_small.dcm']);
    // An uploader's own archive of one series, kept as sent, keeps its name.
    const own = await send(
      [{ field: 'file', filename: 'head-ct.zip', content: Buffer.from(seriesZip({ slices: 3 })) }],
      '?deidentify=false',
    );
    expect(own.json()[0].original_name_guess).toBe('head-ct.zip');
  });

  it('gives a series item previews through the stack and metadata like any volume', async () => {
    const item = (
      await send([{ field: 'file', filename: 'ct.zip', content: Buffer.from(seriesZip({ slices: 12 })) }])
    ).json()[0];
    const preview = await t.app.inject({ method: 'GET', url: `${item.url}/preview.png?slice=11`, headers: user.auth });
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['x-slice-count']).toBe('12');
    expect(preview.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    const metadata = await t.app.inject({ method: 'GET', url: `${item.url}/metadata`, headers: user.auth });
    expect(metadata.statusCode).toBe(200);
    expect(metadata.json()).toMatchObject({ format: 'dcm', dimensions: [32, 32, 12], slices: 12 });
  });

  it('fails the quality check of a series that lost slices on the way, and passes it whole', async () => {
    const qc = async (files: { name: string; bytes: Uint8Array }[]) => {
      const res = await send(files.map((f) => ({ field: 'files', filename: f.name, content: Buffer.from(f.bytes) })));
      expect(res.statusCode).toBe(201);
      const url = res.json()[0].url;
      const image_url = { url };
      const checked = await t.app.inject({
        method: 'POST',
        url: '/api/v1/llm/generate-messages',
        headers: user.auth,
        payload: { model: 'builtin', messages: [{ role: 'user', content: [{ type: 'image_url', image_url }] }] },
      });
      expect(checked.statusCode).toBe(200);
      return checked.json().qc as { verdict: string; issues: string[] };
    };
    const whole = seriesFiles({ slices: 12, size: 64, seriesInstanceUid: '1.2.826.0.1.3680043.8.498.21' });
    expect((await qc(whole)).issues.join(' ')).not.toContain('Missing slices');
    // Two slices of the middle lost: IMG0006.dcm and IMG0007.dcm (the files are named by their place in the stack).
    const lost = seriesFiles({ slices: 12, size: 64, seriesInstanceUid: '1.2.826.0.1.3680043.8.498.22' }).filter(
      (f) => f.name !== 'IMG0006.dcm' && f.name !== 'IMG0007.dcm',
    );
    const result = await qc(lost);
    expect(result.verdict).toBe('fail');
    expect(result.issues).toContain('Missing slices (2 missing from the series, by its slice positions)');
  });

  it('refuses an upload without any DICOM image with 415', async () => {
    const res = await send([{ field: 'file', filename: 'photo.png', content: await pngBytes() }]);
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ detail: 'No DICOM images were found in this upload' });
  });

  it('refuses a broken zip with 415 and asks for a sign-in without a token', async () => {
    const res = await send([{ field: 'file', filename: 'broken.zip', content: Buffer.from('PK\x03\x04 not really') }]);
    expect(res.statusCode).toBe(415);
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/v1/uploads/series' });
    expect(anonymous.statusCode).toBe(401);
  });
});
