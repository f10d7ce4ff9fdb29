import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { durableFileWriter } from '../../../server/storage/durable-file.ts';

let dir: string;
beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), 'lumenqc-durable-'))));
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

/** Cuts `bytes` into pieces of the given sizes, in turn. */
function* pieces(bytes: Buffer, sizes: number[]) {
  for (let at = 0, i = 0; at < bytes.length; i++) {
    yield bytes.subarray(at, at + sizes[i % sizes.length]!);
    at += sizes[i % sizes.length]!;
  }
}

const openDescriptors = () => readdir('/proc/self/fd').then((names) => names.length);

describe('durableFileWriter', () => {
  it('writes every byte, flushing in the background as it goes and syncing once at the end', async () => {
    const flushes = vi.spyOn(fs, 'fdatasync');
    const syncs = vi.spyOn(fs, 'fsync');
    const bytes = randomBytes(3 * 1024 * 1024 + 777);
    const file = path.join(dir, 'object');
    await pipeline(Readable.from(pieces(bytes, [65_536, 3, 500_000])), durableFileWriter(file, 256 * 1024));
    expect((await readFile(file)).equals(bytes)).toBe(true);
    expect(flushes).toHaveBeenCalled();
    expect(syncs).toHaveBeenCalledTimes(1);
  });

  it('syncs a small file once and flushes nothing early', async () => {
    const flushes = vi.spyOn(fs, 'fdatasync');
    const syncs = vi.spyOn(fs, 'fsync');
    const file = path.join(dir, 'slice');
    await pipeline(Readable.from([Buffer.from('DICM'), randomBytes(128 * 1024)]), durableFileWriter(file));
    expect((await readFile(file)).length).toBe(128 * 1024 + 4);
    expect(flushes).not.toHaveBeenCalled();
    expect(syncs).toHaveBeenCalledTimes(1);
  });

  it('closes its descriptor when the body fails halfway', async () => {
    const before = await openDescriptors();
    async function* failing() {
      yield randomBytes(2 * 1024 * 1024);
      throw new Error('client went away');
    }
    await expect(pipeline(Readable.from(failing()), durableFileWriter(path.join(dir, 'cut'), 1024))).rejects.toThrow(
      'client went away',
    );
    expect(await openDescriptors()).toBe(before);
  });

  it('reports a file it cannot create', async () => {
    const writer = durableFileWriter(path.join(dir, 'missing-folder', 'object'));
    await expect(pipeline(Readable.from([Buffer.from('x')]), writer)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
