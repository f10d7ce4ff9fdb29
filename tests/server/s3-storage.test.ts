import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAll } from '../../server/storage/disk-storage.ts';
import { createS3Storage } from '../../server/storage/s3-storage.ts';
import { TooLargeError, type Storage } from '../../server/storage/storage.ts';
import { createTestApp } from './helpers/test-app.ts';
import { createSignedInUser } from './helpers/users.ts';
import { pngBytes, uploadFile } from './uploads-fixtures.ts';

// S3 itself cannot run here: s3rver is a real HTTP server on loopback speaking the S3 protocol.
describe('S3-compatible storage (STORAGE_URL=s3://…)', () => {
  let server: S3rver;
  let folder: string;
  let storage: Storage;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'imageqc-s3-'));
    server = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: folder,
      configureBuckets: [{ name: 'qc-bucket', configs: [] }],
    });
    const { port } = await server.run();
    storage = createS3Storage('s3://qc-bucket/images', {
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      AWS_REGION: 'eu-west-3',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
    });
  });
  afterAll(async () => {
    await server.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('puts, stats, reads a range of and deletes an object under the prefix', async () => {
    await storage.check();
    const put = await storage.put('uploads/scan.png', Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    expect(put).toEqual({ size: 11, sha256: 'b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9' });
    expect((await storage.stat('uploads/scan.png'))?.size).toBe(11);
    expect((await readAll(await storage.get('uploads/scan.png', { start: 6, end: 10 }))).toString()).toBe('world');
    await storage.delete('uploads/scan.png');
    expect(await storage.stat('uploads/scan.png')).toBeUndefined();
  });

  it('puts bytes already held in memory, and refuses them over the limit', async () => {
    const put = await storage.put('uploads/held.dcm', Buffer.from('hello world'));
    expect(put).toEqual({ size: 11, sha256: 'b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9' });
    expect((await readAll(await storage.get('uploads/held.dcm'))).toString()).toBe('hello world');
    await expect(storage.put('uploads/held-big.dcm', Buffer.alloc(1200), { limit: 1000 })).rejects.toBeInstanceOf(
      TooLargeError,
    );
    expect(await storage.stat('uploads/held-big.dcm')).toBeUndefined();
  });

  it('refuses an object over the limit and leaves nothing behind', async () => {
    const body = Readable.from([Buffer.alloc(600), Buffer.alloc(600)]);
    await expect(storage.put('uploads/big.png', body, { limit: 1000 })).rejects.toBeInstanceOf(TooLargeError);
    expect(await storage.stat('uploads/big.png')).toBeUndefined();
  });

  it('serves the whole upload path of the app: upload, list, download', async () => {
    const t = await createTestApp({}, { storage });
    try {
      const user = await createSignedInUser(t);
      const png = await pngBytes();
      const created = await uploadFile(t, user, 'chest.png', png);
      expect(created.statusCode).toBe(201);
      const [item] = (await t.app.inject({ url: '/api/v1/uploads', headers: user.auth })).json();
      const download = await t.app.inject({ url: item.url, headers: user.auth });
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.equals(png)).toBe(true);
    } finally {
      await t.close();
    }
  });
});
