import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { copyBytes, joinBytes } from '../../../server/storage/byte-runs.ts';

let dir: string;
beforeEach(async () => {
  vi.resetModules();
  dir = await mkdtemp(path.join(tmpdir(), 'lumenqc-direct-'));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

// Loaded afresh for each test: the module remembers a file system that refused direct I/O.
const load = () => import('../../../server/storage/direct-file.ts');

/** `bytes` cut into runs of the given lengths, the last taking the rest. */
function cut(bytes: Buffer, lengths: number[]): Uint8Array[] {
  const runs: Uint8Array[] = [];
  let at = 0;
  for (const length of lengths) runs.push(bytes.subarray(at, (at += length)));
  return [...runs, bytes.subarray(at)];
}

const directOpens = (open: { mock: { calls: unknown[][] } }) =>
  open.mock.calls.filter(([, flags]) => typeof flags === 'number' && (flags & fs.constants.O_DIRECT) !== 0).length;

describe('copyBytes and joinBytes', () => {
  it('copy any stretch of runs laid end to end', () => {
    const bytes = Buffer.from('abcdefghijklmnopqrstuvwxyz');
    const runs = cut(bytes, [3, 0, 10, 1]);
    expect(Buffer.from(joinBytes(runs)).toString()).toBe('abcdefghijklmnopqrstuvwxyz');
    for (const [from, length] of [
      [0, 26],
      [2, 5],
      [13, 1],
      [14, 12],
      [25, 1],
      [7, 0],
    ] as const) {
      const into = new Uint8Array(length);
      copyBytes(runs, from, into, length);
      expect(Buffer.from(into).toString()).toBe(bytes.subarray(from, from + length).toString());
    }
  });
});

describe('writeNewFileDirectSync', () => {
  it.each([
    ['a DICOM slice, whole blocks and a partial one', 131_072 + 1_300, [132, 4_000, 12]],
    ['whole blocks only', 8 * 4096, [4096, 1]],
    ['less than a block', 700, [10]],
    ['more than the staging buffer, runs crossing its edge', 4 * 1024 * 1024 + 5_000, [4 * 1024 * 1024 - 3, 9]],
  ])('writes %s, byte for byte', async (_label, size, lengths) => {
    const { writeNewFileDirectSync } = await load();
    const open = vi.spyOn(fs, 'openSync');
    const bytes = randomBytes(size);
    const file = path.join(dir, 'slice.dcm');
    writeNewFileDirectSync(file, cut(bytes, lengths));
    expect((await readFile(file)).equals(bytes)).toBe(true);
    // Direct I/O is tried whenever there is a whole block to write.
    expect(directOpens(open)).toBe(size >= 4096 ? 1 : 0);
  });

  it('makes a missing folder and refuses to overwrite a file', async () => {
    const { writeNewFileDirectSync } = await load();
    const file = path.join(dir, 'ab', 'slice.dcm');
    const first = randomBytes(10_000);
    writeNewFileDirectSync(file, [first]);
    expect(() => writeNewFileDirectSync(file, [randomBytes(10_000)])).toThrow(
      expect.objectContaining({ code: 'EEXIST' }),
    );
    expect((await readFile(file)).equals(first)).toBe(true);
  });

  it('leaves no file behind when the disk fails a write', async () => {
    const { writeNewFileDirectSync } = await load();
    vi.spyOn(fs, 'writeSync').mockImplementation(() => {
      throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    });
    expect(() => writeNewFileDirectSync(path.join(dir, 'slice.dcm'), [randomBytes(20_000)])).toThrow(
      expect.objectContaining({ code: 'ENOSPC' }),
    );
    expect(await readdir(dir)).toEqual([]);
  });

  it('writes through the page cache, then and for every later file, where the file system refuses direct I/O', async () => {
    const { writeNewFileDirectSync } = await load();
    const realOpen = fs.openSync;
    const open = vi.spyOn(fs, 'openSync').mockImplementation(((file: string, flags: number, mode?: number) => {
      if (typeof flags === 'number' && flags & fs.constants.O_DIRECT) {
        // As Linux does: the file is created, then the open fails.
        fs.closeSync(realOpen(file, flags & ~fs.constants.O_DIRECT, mode));
        throw Object.assign(new Error('invalid argument'), { code: 'EINVAL' });
      }
      return realOpen(file, flags, mode);
    }) as typeof fs.openSync);
    const first = randomBytes(50_000);
    const second = randomBytes(50_000);
    writeNewFileDirectSync(path.join(dir, 'one.dcm'), [first]);
    writeNewFileDirectSync(path.join(dir, 'two.dcm'), [second]);
    expect((await readFile(path.join(dir, 'one.dcm'))).equals(first)).toBe(true);
    expect((await readFile(path.join(dir, 'two.dcm'))).equals(second)).toBe(true);
    expect(directOpens(open)).toBe(1);
  });
});
