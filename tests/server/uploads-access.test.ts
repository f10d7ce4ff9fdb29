import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../server/modules/audit/audit.table.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { niftiGzBytes, pngBytes, uploadFile } from './uploads-fixtures.ts';

describe('listing, downloading and deleting uploads', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let png: Buffer;
  let alicePng: string;
  let aliceNifti: string;
  beforeAll(async () => {
    t = await createTestApp();
    alice = await createSignedInUser(t);
    bob = await createSignedInUser(t);
    png = await pngBytes();
    alicePng = (await uploadFile(t, alice, 'first.png', png)).json().stored_filename;
    t.clock.advance(1000);
    aliceNifti = (await uploadFile(t, alice, 'second.nii.gz', niftiGzBytes())).json().stored_filename;
    await uploadFile(t, bob, 'bob.png', png);
  });
  afterAll(async () => t.close());

  const get = (user: TestUser | undefined, url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { ...(user?.auth ?? {}), ...headers } });

  it("lists only the caller's items, newest first, with the fields of SPEC §3 and the card's thumbnail", async () => {
    const res = await get(alice, '/api/v1/uploads');
    expect(res.statusCode).toBe(200);
    const items = res.json();
    expect(items.map((i: { original_name_guess: string }) => i.original_name_guess)).toEqual([
      'second.nii.gz',
      'first.png',
    ]);
    expect(Object.keys(items[0]).sort()).toEqual(
      ['extension', 'modified', 'original_name_guess', 'size_bytes', 'stored_filename', 'url', 'thumbnail_url'].sort(),
    );
    expect(items[0].modified).toBeGreaterThan(items[1].modified - 1);
    expect((await get(bob, '/api/v1/uploads')).json()).toHaveLength(1);
  });

  it('pages the list with limit and cursor, in the same order as the whole list', async () => {
    const whole = (await get(alice, '/api/v1/uploads')).json() as { stored_filename: string }[];
    const first = await get(alice, '/api/v1/uploads?limit=1');
    expect(first.json().map((i: { stored_filename: string }) => i.stored_filename)).toEqual([
      whole[0]!.stored_filename,
    ]);
    const cursor = first.headers['x-next-cursor'] as string;
    expect(cursor).toBe(whole[0]!.stored_filename);
    const second = await get(alice, `/api/v1/uploads?limit=5&cursor=${cursor}`);
    expect(second.json().map((i: { stored_filename: string }) => i.stored_filename)).toEqual([
      whole[1]!.stored_filename,
    ]);
    expect(second.headers['x-next-cursor']).toBeUndefined();
    // Another user's name is no cursor into this list.
    const bobs = (await get(bob, '/api/v1/uploads')).json()[0].stored_filename;
    expect((await get(alice, `/api/v1/uploads?limit=5&cursor=${bobs}`)).json()).toEqual([]);
    expect((await get(alice, '/api/v1/uploads?limit=0')).statusCode).toBe(400);
    expect((await get(alice, '/api/v1/uploads?limit=abc')).statusCode).toBe(400);
  });

  it('answers an unchanged list with 304 for its ETag, and a fresh one after a change', async () => {
    const first = await get(alice, '/api/v1/uploads');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[\w+/=-]+"$/);
    expect(first.headers['content-type']).toContain('application/json');
    const again = await get(alice, '/api/v1/uploads', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    const extra = (await uploadFile(t, alice, 'third.png', png)).json().stored_filename;
    const changed = await get(alice, '/api/v1/uploads', { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toHaveLength(3);
    await t.app.inject({ method: 'DELETE', url: `/api/v1/uploads/${extra}`, headers: alice.auth });
    expect((await get(alice, '/api/v1/uploads')).json()).toHaveLength(2);
  });

  it('compresses the list for a client that accepts it, under one weak ETag', async () => {
    const plain = await get(alice, '/api/v1/uploads', { 'accept-encoding': 'identity' });
    // Enough items that compressing is worth it.
    for (let i = 0; i < 8; i++) await uploadFile(t, alice, `extra-${i}.png`, png);
    const json = (await get(alice, '/api/v1/uploads')).rawPayload;
    expect(json.length).toBeGreaterThan(1024);
    const br = await get(alice, '/api/v1/uploads', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).equals(json)).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(json.length / 2);
    const gz = await get(alice, '/api/v1/uploads', { 'accept-encoding': 'br;q=0, gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).equals(json)).toBe(true);
    // One weak tag stands for the list in every encoding.
    expect(br.headers.etag).toMatch(/^W\/"/);
    expect(gz.headers.etag).toBe(br.headers.etag);
    const brAgain = { 'accept-encoding': 'br', 'if-none-match': br.headers.etag as string };
    expect((await get(alice, '/api/v1/uploads', brAgain)).statusCode).toBe(304);
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const item of (await get(alice, '/api/v1/uploads')).json() as { stored_filename: string }[]) {
      if (item.stored_filename === alicePng || item.stored_filename === aliceNifti) continue;
      await t.app.inject({ method: 'DELETE', url: `/api/v1/uploads/${item.stored_filename}`, headers: alice.auth });
    }
  });

  it('refuses the list without a token with 401', async () => {
    expect((await get(undefined, '/api/v1/uploads')).statusCode).toBe(401);
  });

  it('sends the bytes with type, disposition and nosniff', async () => {
    const res = await get(alice, `/api/v1/uploads/${alicePng}`);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(png)).toBe(true);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toContain('inline; filename="first.png"');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['accept-ranges']).toBe('bytes');
    const nifti = await get(alice, `/api/v1/uploads/${aliceNifti}`);
    expect(nifti.headers['content-type']).toBe('application/gzip');
    expect(nifti.headers['content-disposition']).toContain('attachment; filename="second.nii.gz"');
  });

  it('answers a Range request with 206 and just those bytes, and 416 past the end', async () => {
    const res = await get(alice, `/api/v1/uploads/${alicePng}`, { range: 'bytes=1-3' });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 1-3/${png.length}`);
    expect(res.rawPayload.toString('latin1')).toBe('PNG');
    const suffix = await get(alice, `/api/v1/uploads/${alicePng}`, { range: 'bytes=-4' });
    expect(suffix.rawPayload.equals(png.subarray(png.length - 4))).toBe(true);
    const past = await get(alice, `/api/v1/uploads/${alicePng}`, { range: `bytes=${png.length}-` });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${png.length}`);
  });

  it("answers 404 for another user's file and for an unknown one", async () => {
    expect((await get(bob, `/api/v1/uploads/${alicePng}`)).statusCode).toBe(404);
    expect((await get(alice, '/api/v1/uploads/00000000-0000-0000-0000-000000000000.png')).statusCode).toBe(404);
    expect((await get(alice, '/api/v1/uploads/..%2F..%2Fetc%2Fpasswd')).statusCode).toBe(404);
  });

  it("never lets a user delete another user's file", async () => {
    const res = await t.app.inject({ method: 'DELETE', url: `/api/v1/uploads/${alicePng}`, headers: bob.auth });
    expect(res.statusCode).toBe(404);
    expect((await get(alice, `/api/v1/uploads/${alicePng}`)).statusCode).toBe(200);
  });

  it("deletes the owner's file: gone from the list and from storage", async () => {
    const res = await t.app.inject({ method: 'DELETE', url: `/api/v1/uploads/${aliceNifti}`, headers: alice.auth });
    expect(res.statusCode).toBe(204);
    expect((await get(alice, `/api/v1/uploads/${aliceNifti}`)).statusCode).toBe(404);
    expect((await get(alice, '/api/v1/uploads')).json()).toHaveLength(1);
    const stored = await t.app.storage.stat(`originals/${aliceNifti}`);
    expect(stored).toBeUndefined();
  });

  it('writes downloads and deletions to the audit log', async () => {
    const actions = (await t.app.db.select().from(auditEvents).where(eq(auditEvents.userId, alice.id))).map(
      (e) => e.action,
    );
    expect(actions).toContain('upload.download');
    expect(actions).toContain('upload.delete');
  });
});
