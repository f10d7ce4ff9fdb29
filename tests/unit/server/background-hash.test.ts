import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { backgroundSha256 } from '../../../server/storage/background-hash.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Feeds `bytes` in pieces of the given sizes, waiting whenever the hasher asks to. */
async function feed(bytes: Buffer, sizes: number[]) {
  const hash = backgroundSha256();
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const piece = bytes.subarray(at, at + sizes[i % sizes.length]!);
    at += piece.length;
    await hash.update(piece);
  }
  return hash.digest();
}

describe('backgroundSha256', () => {
  it('gives the digest of the bytes however they are cut across its batches', async () => {
    const bytes = randomBytes(9 * 1024 * 1024 + 12_345);
    expect(await feed(bytes, [65_536, 7, 1_500_000, 300_001])).toBe(sha256(bytes));
  });

  it('keeps uploads hashed at the same time apart', async () => {
    const a = randomBytes(5 * 1024 * 1024 + 1);
    const b = randomBytes(3 * 1024 * 1024 - 1);
    const [da, db] = await Promise.all([feed(a, [65_536]), feed(b, [100_000])]);
    expect([da, db]).toEqual([sha256(a), sha256(b)]);
  });

  it('hashes objects of about one batch, inline below it and on the thread from it', async () => {
    for (const size of [1, 128 * 1024, 1024 * 1024 - 1, 1024 * 1024, 1024 * 1024 + 1]) {
      const bytes = randomBytes(size);
      expect(await feed(bytes, [40_000])).toBe(sha256(bytes));
    }
  });

  it('hashes an empty file', async () => {
    expect(await backgroundSha256().digest()).toBe(sha256(Buffer.alloc(0)));
  });
});
