import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quotaExceededMessage } from '../../contract/usage.ts';
import { WORKSPACE_HEADER } from '../../contract/workspaces.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { dicomBytes, multipartBody, uploadFile } from './uploads-fixtures.ts';

/** A BMP stored byte for byte as sent (nothing to strip): `size` bytes, its content made distinct by `seed`. */
function bmp(size: number, seed = 0): Buffer {
  const bytes = Buffer.alloc(size, seed % 251);
  bytes.write('BM', 0, 'latin1');
  return bytes;
}

const QUOTA = 32_500;

describe('the storage quota of a workspace', () => {
  let t: TestApp;
  let user: TestUser;
  let workspaceId: string;
  beforeAll(async () => {
    t = await createTestApp({ WORKSPACE_QUOTA_BYTES: String(QUOTA), UPLOAD_RATE_PER_MINUTE: '1000' });
    user = await createSignedInUser(t);
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/workspaces', headers: user.auth });
    workspaceId = list.json<{ id: string; personal: boolean }[]>().find((w) => w.personal)!.id;
  });
  afterAll(async () => t.close());

  const usage = async () => {
    const res = await t.app.inject({ url: `/api/v1/workspaces/${workspaceId}/usage`, headers: user.auth });
    expect(res.statusCode).toBe(200);
    return res.json<{ used_bytes: number; quota_bytes: number; left_bytes: number }>();
  };
  const storedFiles = async () => readdir(path.join(t.dataDir, 'uploads', 'originals')).catch(() => [] as string[]);
  const removeAll = async () => {
    const list = await t.app.inject({ url: '/api/v1/uploads', headers: user.auth });
    for (const item of list.json<{ stored_filename: string }[]>()) {
      await t.app.inject({ method: 'DELETE', url: `/api/v1/uploads/${item.stored_filename}`, headers: user.auth });
    }
  };

  it('takes uploads up to exactly the quota and refuses one byte over with 413 saying what is left', async () => {
    expect(await usage()).toEqual({ used_bytes: 0, quota_bytes: QUOTA, left_bytes: QUOTA });
    expect((await uploadFile(t, user, 'a.bmp', bmp(20_000, 1))).statusCode).toBe(201);
    const over = await uploadFile(t, user, 'b.bmp', bmp(QUOTA - 20_000 + 1, 2));
    expect(over.statusCode).toBe(413);
    expect(over.json()).toEqual({ detail: quotaExceededMessage(QUOTA - 20_000, QUOTA) });
    expect(over.json().detail).toContain('12500 bytes');
    const filesBefore = (await storedFiles()).length;
    expect(filesBefore).toBe(1);
    const exact = await uploadFile(t, user, 'c.bmp', bmp(QUOTA - 20_000, 3));
    expect(exact.statusCode).toBe(201);
    expect(await usage()).toEqual({ used_bytes: QUOTA, quota_bytes: QUOTA, left_bytes: 0 });
    const full = await uploadFile(t, user, 'd.bmp', bmp(2, 4));
    expect(full.statusCode).toBe(413);
    expect(full.json().detail).toBe(quotaExceededMessage(0, QUOTA));
    // Nothing refused is left in storage.
    expect((await storedFiles()).length).toBe(2);
  });

  it('frees the bytes of a deleted image', async () => {
    const list = await t.app.inject({ url: '/api/v1/uploads', headers: user.auth });
    const first = list.json<{ stored_filename: string; size_bytes: number }[]>().find((i) => i.size_bytes === 20_000)!;
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/uploads/${first.stored_filename}`,
      headers: user.auth,
    });
    expect(gone.statusCode).toBe(204);
    expect((await usage()).left_bytes).toBe(20_000);
    expect((await uploadFile(t, user, 'e.bmp', bmp(20_000, 5))).statusCode).toBe(201);
    await removeAll();
    expect((await usage()).used_bytes).toBe(0);
  });

  it('refuses from Content-Length alone, before reading the body, an upload that cannot fit', async () => {
    const body = multipartBody([{ field: 'file', filename: 'small.bmp', content: bmp(1000, 6) }]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/uploads',
      // The body is small and would fit: only the declared length can refuse it.
      headers: { ...user.auth, ...body.headers, 'content-length': String(50 * 1024 * 1024) },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().detail).toBe(quotaExceededMessage(QUOTA, QUOTA));
    expect(await storedFiles()).toEqual([]);
  });

  it('never accepts more than the quota from 64 concurrent uploads at its edge', async () => {
    await t.app.inject({ method: 'GET', url: '/api/v1/uploads', headers: user.auth });
    const answers = await Promise.all(
      Array.from({ length: 64 }, (_, i) => uploadFile(t, user, `race-${i}.bmp`, bmp(1000, i))),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c !== 201 && c !== 413)).toEqual([]);
    // 32 files of 1000 bytes fit in 32,500; the 33rd would pass it.
    expect(codes.filter((c) => c === 201)).toHaveLength(32);
    const now = await usage();
    expect(now.used_bytes).toBe(32_000);
    expect(now.used_bytes).toBeLessThanOrEqual(QUOTA);
    expect((await storedFiles()).length).toBe(32);
    await removeAll();
  });

  it('holds a series upload to the quota too, all its items or none', async () => {
    await t.app.workspaces.setStorageQuota(workspaceId, 100);
    const body = multipartBody([
      { field: 'file', filename: 'one.dcm', content: dicomBytes() },
      { field: 'file', filename: 'two.dcm', content: dicomBytes() },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/uploads/series',
      headers: { ...user.auth, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(413);
    expect(await usage()).toEqual({ used_bytes: 0, quota_bytes: 100, left_bytes: 100 });
    await t.app.workspaces.setStorageQuota(workspaceId, null);
  });

  it('answers 404 for the usage of a workspace one is not a member of', async () => {
    const other = await createSignedInUser(t);
    const res = await t.app.inject({
      url: `/api/v1/workspaces/${workspaceId}/usage`,
      headers: { ...other.auth, [WORKSPACE_HEADER]: workspaceId },
    });
    expect(res.statusCode).toBe(404);
  });
});
