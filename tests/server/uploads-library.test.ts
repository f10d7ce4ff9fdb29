import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qcResults } from '../../server/modules/qc/qc.table.ts';
import { thumbnails } from '../../server/modules/previews/thumbnails.table.ts';
import { uploads } from '../../server/modules/uploads/uploads.table.ts';
import { seriesZip } from '../fixtures/dicom-series.ts';
import { phantomDicom } from '../fixtures/upload-images.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { multipartBody, pngBytes, uploadFile } from './uploads-fixtures.ts';

// Files written by scanners and toolkits, shipped with Debian's python3-pydicom.
const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';

interface Item {
  stored_filename: string;
  original_name_guess: string;
  thumbnail_url?: string;
  modality?: string;
  qc_verdict?: string;
  url: string;
}

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  alice = await createSignedInUser(t);
  bob = await createSignedInUser(t);
});
afterAll(() => t.close());

const get = (user: TestUser, url: string) => t.app.inject({ method: 'GET', url, headers: user.auth });
const list = async (user: TestUser, query = ''): Promise<Item[]> => (await get(user, `/api/v1/uploads${query}`)).json();
const listed = async (user: TestUser, name: string) => (await list(user)).find((i) => i.stored_filename === name)!;
const upload = async (name: string, bytes: Buffer | Uint8Array, user = alice): Promise<Item> => {
  t.clock.advance(1000);
  const res = await uploadFile(t, user, name, Buffer.from(bytes));
  expect(res.statusCode).toBe(201);
  return res.json();
};
const pixelsOf = async (image: Buffer, size: number) =>
  (await sharp(image).greyscale().resize(size, size, { fit: 'fill' }).raw().toBuffer()) as Buffer;
const mean = (values: Buffer) => values.reduce((sum, v) => sum + v, 0) / values.length;

describe('My Images cards: thumbnail, modality and latest QC verdict in GET /uploads', () => {
  it("draws a small WebP of a scanner's CT, names its modality, and lists both from then on", async () => {
    const item = await upload('CT_small.dcm', readFileSync(`${PYDICOM}/CT_small.dcm`));
    const before = await listed(alice, item.stored_filename);
    expect(before.thumbnail_url).toBe(`/api/v1/uploads/${item.stored_filename}/thumbnail.webp`);
    expect(before.modality).toBeUndefined();
    expect(before.qc_verdict).toBeUndefined();

    const res = await get(alice, before.thumbnail_url!);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['x-modality']).toBe('CT');
    const info = await sharp(res.rawPayload).metadata();
    expect(info.format).toBe('webp');
    expect(Math.max(info.width!, info.height!)).toBeLessThanOrEqual(192);
    expect(res.rawPayload.length).toBeLessThan(20_000);
    // The same picture as the preview, only smaller.
    const preview = await get(alice, `/api/v1/uploads/${item.stored_filename}/preview.png`);
    const a = await pixelsOf(res.rawPayload, 32);
    const b = await pixelsOf(preview.rawPayload, 32);
    expect(Math.abs(mean(a) - mean(b))).toBeLessThan(8);

    expect((await listed(alice, item.stored_filename)).modality).toBe('CT');
    // Kept with the upload: the second answer is the same bytes, read from the database.
    const [kept] = await t.app.db
      .select()
      .from(thumbnails)
      .where(eq(thumbnails.uploadId, await idOf(item)));
    expect(kept!.image!.equals(res.rawPayload)).toBe(true);
    expect((await get(alice, before.thumbnail_url!)).rawPayload.equals(res.rawPayload)).toBe(true);
  });

  it("draws a DICOM series' middle slice", async () => {
    const body = multipartBody([
      { field: 'file', filename: 'head.zip', content: Buffer.from(seriesZip({ slices: 20 })) },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/uploads/series',
      headers: { ...alice.auth, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(201);
    const series = (res.json() as Item[])[0]!;
    const thumbRes = await get(alice, `/api/v1/uploads/${series.stored_filename}/thumbnail.webp`);
    expect(thumbRes.statusCode, thumbRes.body).toBe(200);
    const thumb = thumbRes.rawPayload;
    const slice = async (n: number) => {
      const res = await get(alice, `/api/v1/uploads/${series.stored_filename}/preview.png?slice=${n}`);
      expect(res.statusCode, res.body).toBe(200);
      return res;
    };
    // The fixture's sphere grows denser slice after slice, so each slice has its own brightness.
    const thumbMean = mean(await pixelsOf(thumb, 32));
    const middle = mean(await pixelsOf((await slice(10)).rawPayload, 32));
    const first = mean(await pixelsOf((await slice(4)).rawPayload, 32));
    const last = mean(await pixelsOf((await slice(16)).rawPayload, 32));
    expect(Math.abs(thumbMean - middle)).toBeLessThan(2);
    expect(Math.abs(thumbMean - first)).toBeGreaterThan(5);
    expect(Math.abs(thumbMean - last)).toBeGreaterThan(5);
  });

  it('answers 204 for a DICOM object without pixels, keeps why, and still lists its modality', async () => {
    const item = await upload('test-SR.dcm', readFileSync(`${PYDICOM}/test-SR.dcm`));
    const res = await get(alice, `/api/v1/uploads/${item.stored_filename}/thumbnail.webp`);
    expect(res.statusCode).toBe(204);
    expect(res.rawPayload.length).toBe(0);
    expect(res.headers['x-modality']).toBe('SR');
    const [kept] = await t.app.db
      .select()
      .from(thumbnails)
      .where(eq(thumbnails.uploadId, await idOf(item)));
    expect(kept).toMatchObject({ image: null, status: 415, reason: expect.stringMatching(/\w/) });
    // The preview still answers the error itself.
    const preview = await get(alice, `/api/v1/uploads/${item.stored_filename}/preview.png`);
    expect(preview.statusCode).toBe(415);
    expect((await get(alice, `/api/v1/uploads/${item.stored_filename}/thumbnail.webp`)).statusCode).toBe(204);
    expect((await listed(alice, item.stored_filename)).modality).toBe('SR');
  });

  it('answers 204 for a damaged file, and the preview says why with 4xx', async () => {
    // A PNG signature and nothing a decoder can read: accepted on its signature, undrawable.
    const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const item = await upload('damaged.png', Buffer.concat([signature, Buffer.alloc(4096, 7)]));
    const res = await get(alice, `/api/v1/uploads/${item.stored_filename}/thumbnail.webp`);
    expect(res.statusCode).toBe(204);
    const preview = await get(alice, `/api/v1/uploads/${item.stored_filename}/preview.png`);
    expect([415, 422]).toContain(preview.statusCode);
    expect(preview.json().detail).toEqual(expect.any(String));
  });

  it('lists the verdict of the latest check, as the QC module stored it', async () => {
    const item = await upload('phantom.dcm', await phantomDicom());
    const check = await t.app.inject({
      method: 'POST',
      url: '/api/v1/llm/generate-messages',
      headers: alice.auth,
      payload: {
        model: 'm',
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: item.url } }] }],
      },
    });
    expect(check.statusCode).toBe(200);
    const verdict = check.json().qc.verdict;
    expect((await listed(alice, item.stored_filename)).qc_verdict).toBe(verdict);

    // Two later results, the newest a Fail: the card shows the newest, not the first nor the worst.
    const uploadId = await idOf(item);
    const row = { uploadId, ownerId: alice.id, model: 'm', promptVersion: 'v', confidence: 50, text: 't' };
    const at = (s: number) => new Date(Date.now() + s * 1000 + 3_600_000);
    await t.app.db.insert(qcResults).values({ ...row, verdict: 'review', createdAt: at(1) });
    await t.app.db.insert(qcResults).values({ ...row, verdict: 'fail', createdAt: at(2) });
    expect((await listed(alice, item.stored_filename)).qc_verdict).toBe('fail');
    await t.app.db.insert(qcResults).values({ ...row, verdict: 'pass', createdAt: at(3) });
    const pages = await list(alice, '?limit=1000');
    expect(pages.find((i) => i.stored_filename === item.stored_filename)!.qc_verdict).toBe('pass');
  });

  it("answers 404 for another workspace's thumbnail, and the thumbnail goes with its upload", async () => {
    const item = await upload('own.png', await pngBytes());
    expect((await get(bob, `/api/v1/uploads/${item.stored_filename}/thumbnail.webp`)).statusCode).toBe(404);
    const mine = await get(alice, `/api/v1/uploads/${item.stored_filename}/thumbnail.webp`);
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['x-modality']).toBeUndefined();
    const uploadId = await idOf(item);
    const del = await t.app.inject({ method: 'DELETE', url: item.url, headers: alice.auth });
    expect(del.statusCode).toBe(204);
    expect(await t.app.db.select().from(thumbnails).where(eq(thumbnails.uploadId, uploadId))).toEqual([]);
    expect((await get(alice, `/api/v1/uploads/${item.stored_filename}/thumbnail.webp`)).statusCode).toBe(404);
  });
});

describe('GET /uploads paged and searched', () => {
  let carol: TestUser;
  const TOTAL = 1_500;
  beforeAll(async () => {
    carol = await createSignedInUser(t);
    // Rows written directly: paging is about the database, and 1,500 uploads through HTTP would only add time.
    const seed = await upload('seed.png', await pngBytes(), carol);
    const [owner] = await t.app.db.select().from(uploads).where(eq(uploads.storedFilename, seed.stored_filename));
    const base = Date.now();
    const rows = Array.from({ length: TOTAL }, (_, i) => ({
      ownerId: carol.id,
      workspaceId: owner!.workspaceId,
      storedFilename: `paged-${randomUUID()}.png`,
      originalName: i % 10 === 0 ? `knee_${i}.png` : `scan ${i}.png`,
      extension: '.png',
      sizeBytes: 100 + i,
      sha256: owner!.sha256,
      contentType: 'image/png',
      format: 'png',
      // Each pair shares its moment, so the order's tie-break is exercised.
      createdAt: new Date(base - Math.floor(i / 2) * 1000),
    }));
    for (let i = 0; i < rows.length; i += 500) await t.app.db.insert(uploads).values(rows.slice(i, i + 500));
  });

  const pageThrough = async (query: string, limit: number) => {
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await get(carol, `/api/v1/uploads?limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode).toBe(200);
      const items: Item[] = res.json();
      expect(items.length).toBeLessThanOrEqual(limit);
      names.push(...items.map((i) => i.stored_filename));
      cursor = res.headers['x-next-cursor'] as string | undefined;
      pages++;
    } while (cursor);
    return { names, pages };
  };

  it('pages through 1,501 items in the order of the whole list, each once', async () => {
    const whole = (await list(carol)).map((i) => i.stored_filename);
    expect(whole).toHaveLength(TOTAL + 1);
    const { names, pages } = await pageThrough('', 200);
    expect(pages).toBe(8);
    expect(names).toEqual(whole);
  });

  it('searches on the server, case-insensitively, and pages the matches', async () => {
    const { names } = await pageThrough('&search=KNEE_', 40);
    expect(names).toHaveLength(TOTAL / 10);
    const whole = await list(carol, '?search=knee_');
    expect(whole.map((i) => i.stored_filename)).toEqual(names);
    expect(whole.every((i) => i.original_name_guess.startsWith('knee_'))).toBe(true);
    // Wildcards are taken as text.
    expect(await list(carol, '?search=%25')).toEqual([]);
    expect(await list(carol, `?search=${'x'.repeat(201)}`)).toMatchObject({ detail: expect.any(String) });
  });
});

async function idOf(item: Item): Promise<string> {
  const [row] = await t.app.db
    .select({ id: uploads.id })
    .from(uploads)
    .where(eq(uploads.storedFilename, item.stored_filename));
  return row!.id;
}
