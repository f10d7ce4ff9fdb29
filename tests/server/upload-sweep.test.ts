import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepUploads } from '../../server/modules/uploads/upload-sweep.ts';
import { createDiskStorage } from '../../server/storage/disk-storage.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { pngBytes, uploadFile } from './uploads-fixtures.ts';

describe('sweeping what an interrupted write leaves', () => {
  let t: TestApp;
  let alice: TestUser;
  let root: string;
  beforeAll(async () => {
    t = await createTestApp();
    alice = await createSignedInUser(t);
    root = path.join(t.dataDir, 'uploads');
  });
  afterAll(() => t.close());

  it('removes temporary files and files without a row, and keeps every listed upload', async () => {
    const kept = (await uploadFile(t, alice, 'kept.png', await pngBytes())).json().stored_filename as string;
    await mkdir(path.join(root, '.tmp'), { recursive: true });
    await writeFile(path.join(root, '.tmp', 'half-written'), 'partial');
    await writeFile(path.join(root, 'originals', 'no-row-0000.png'), 'orphan');
    const hourAgo = new Date(Date.now() - 3_600_000);
    // A fresh leftover may belong to a write under way: only older ones go.
    await writeFile(path.join(root, 'originals', 'fresh-0000.png'), 'maybe in flight');
    for (const file of ['.tmp/half-written', 'originals/no-row-0000.png']) {
      await utimes(path.join(root, file), hourAgo, hourAgo);
    }
    const counts = await sweepUploads(t.app.db, t.app.storage, new Date(Date.now() - 60_000));
    expect(counts).toEqual({ unfinished: 1, orphans: 1 });
    expect(await readdir(path.join(root, '.tmp'))).toEqual([]);
    expect((await readdir(path.join(root, 'originals'))).sort()).toEqual(['fresh-0000.png', kept].sort());
    const listed = (await t.app.inject({ url: '/api/v1/uploads', headers: alice.auth })).json();
    expect(listed.map((i: { stored_filename: string }) => i.stored_filename)).toEqual([kept]);
    expect((await t.app.inject({ url: `/api/v1/uploads/${kept}`, headers: alice.auth })).statusCode).toBe(200);
  });

  it('sweeps every leftover, however fresh, when the server starts on local disk', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'lumenqc-sweep-'));
    await mkdir(path.join(folder, '.tmp'), { recursive: true });
    await mkdir(path.join(folder, 'originals'), { recursive: true });
    await writeFile(path.join(folder, '.tmp', 'killed-mid-upload'), 'partial');
    await writeFile(path.join(folder, 'originals', 'killed-before-row.png'), 'orphan');
    const restarted = await createTestApp({}, { storage: createDiskStorage(folder) });
    try {
      expect(await readdir(path.join(folder, '.tmp'))).toEqual([]);
      expect(await readdir(path.join(folder, 'originals'))).toEqual([]);
    } finally {
      await restarted.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
