import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDiskStorage } from '../../../server/storage/disk-storage.ts';
import { TooLargeError, type Storage } from '../../../server/storage/storage.ts';

describe('disk storage of bytes already held in memory', () => {
  let root: string;
  let storage: Storage;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'lumenqc-disk-'));
    storage = createDiskStorage(root);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('writes a small object hashed in place and a large one hashed on the hashing thread', async () => {
    for (const size of [11, 5 * 1024 * 1024 + 3]) {
      const bytes = Buffer.alloc(size);
      for (let i = 0; i < size; i += 4096) bytes[i] = i % 251;
      const put = await storage.put(`originals/held-${size}.dcm`, bytes);
      expect(put).toEqual({ size, sha256: createHash('sha256').update(bytes).digest('hex') });
      expect((await readFile(path.join(root, 'originals', `held-${size}.dcm`))).equals(bytes)).toBe(true);
    }
  });

  it('refuses bytes over the limit and leaves no file, temporary or final', async () => {
    await expect(storage.put('originals/big.dcm', Buffer.alloc(2000), { limit: 1000 })).rejects.toBeInstanceOf(
      TooLargeError,
    );
    expect(await storage.stat('originals/big.dcm')).toBeUndefined();
    expect(await readdir(path.join(root, '.tmp')).catch(() => [])).toEqual([]);
  });

  it('writes held bytes in place, never over an object that already has the key', async () => {
    await storage.put('originals/slice.dcm', Buffer.from('first'));
    await expect(storage.put('originals/slice.dcm', Buffer.from('second'))).rejects.toMatchObject({ code: 'EEXIST' });
    expect(await readFile(path.join(root, 'originals', 'slice.dcm'), 'utf8')).toBe('first');
    expect(await readdir(path.join(root, '.tmp')).catch(() => [])).toEqual([]);
  });

  it('makes the folder again when it was removed from outside', async () => {
    await storage.put('originals/a.dcm', Buffer.from('a'));
    await rm(path.join(root, 'originals'), { recursive: true });
    await storage.put('originals/b.dcm', Buffer.from('b'));
    expect(await readFile(path.join(root, 'originals', 'b.dcm'), 'utf8')).toBe('b');
  });
});

describe('disk storage of a streamed body', () => {
  let root: string;
  let storage: Storage;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'lumenqc-disk-'));
    storage = createDiskStorage(root);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(root, { recursive: true, force: true });
  });
  const openDescriptors = () => readdir('/proc/self/fd').then((names) => names.length);

  it('syncs the file before answering, then moves it under its key', async () => {
    const syncs = vi.spyOn(fs, 'fsync');
    const bytes = randomBytes(3 * 1024 * 1024 + 777);
    const pieces = Array.from({ length: 50 }, (_, i) => bytes.subarray(i * 65_536, (i + 1) * 65_536));
    const put = await storage.put('originals/volume.nii', Readable.from(pieces));
    expect(syncs).toHaveBeenCalled();
    expect(put).toEqual({ size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
    expect((await readFile(path.join(root, 'originals', 'volume.nii'))).equals(bytes)).toBe(true);
    expect(await readdir(path.join(root, '.tmp'))).toEqual([]);
  });

  it('leaves no temporary file and no open descriptor when the body fails halfway', async () => {
    await storage.put('originals/warm.nii', Readable.from([Buffer.from('x')]));
    const before = await openDescriptors();
    async function* failing() {
      yield randomBytes(2 * 1024 * 1024);
      throw new Error('client went away');
    }
    await expect(storage.put('originals/cut.nii', Readable.from(failing()))).rejects.toThrow('client went away');
    expect(await storage.stat('originals/cut.nii')).toBeUndefined();
    expect(await readdir(path.join(root, '.tmp'))).toEqual([]);
    expect(await openDescriptors()).toBe(before);
  });
});
