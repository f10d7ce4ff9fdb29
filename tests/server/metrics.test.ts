import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qcResults } from '../../server/modules/qc/qc.table.ts';
import { uploads } from '../../server/modules/uploads/uploads.table.ts';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { niftiGzBytes, pngBytes, uploadFile } from './uploads-fixtures.ts';

describe('GET /dashboard/metrics and /dashboard/activity', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    alice = await createSignedInUser(t);
    bob = await createSignedInUser(t);
  });
  afterAll(async () => t.close());

  const metrics = (user: TestUser) =>
    t.app.inject({ method: 'GET', url: '/api/v1/dashboard/metrics', headers: user.auth });

  it('answers zeros for a new user', async () => {
    const res = await metrics(alice);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ total_images: 0, analyzed_images: 0, storage_bytes: 0 });
  });

  it('counts images, bytes and images with at least one QC result, from the database', async () => {
    const png = await pngBytes();
    const nifti = niftiGzBytes();
    const a = (await uploadFile(t, alice, 'a.png', png)).json().stored_filename;
    // A gzip NIfTI is stored recompressed (its header cleaned): its stored size, not the sent one, counts.
    const storedNifti = (await uploadFile(t, alice, 'b.nii.gz', nifti)).json().size_bytes as number;
    await uploadFile(t, bob, 'c.png', png);
    const [row] = await t.app.db.select().from(uploads).where(eq(uploads.storedFilename, a));
    t.clock.advance(2000);
    for (const verdict of ['review', 'pass']) {
      await t.app.db.insert(qcResults).values({
        uploadId: row!.id,
        ownerId: alice.id,
        model: 'builtin',
        promptVersion: '1',
        verdict,
        confidence: 80,
        text: 'ok',
        createdAt: t.clock.now(),
      });
    }
    expect((await metrics(alice)).json()).toEqual({
      total_images: 2,
      analyzed_images: 1,
      storage_bytes: png.length + storedNifti,
    });
    expect((await metrics(bob)).json()).toEqual({ total_images: 1, analyzed_images: 0, storage_bytes: png.length });
  });

  it('lists the latest uploads and checks, newest first, for the caller only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/dashboard/activity', headers: alice.auth });
    expect(res.statusCode).toBe(200);
    const items = res.json();
    expect(items.map((i: { kind: string }) => i.kind)).toEqual(['qc', 'qc', 'upload', 'upload']);
    expect(items[0]).toMatchObject({ name: 'a.png', kind: 'qc' });
    expect(items.some((i: { name: string }) => i.name === 'c.png')).toBe(false);
  });

  it('refuses an anonymous caller with 401', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/dashboard/metrics' });
    expect(res.statusCode).toBe(401);
  });
});
