import { zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { DecompressionLimitError } from '../../server/imaging/bounded-inflate.ts';
import { expandArchives } from '../../server/modules/uploads/series.ts';
import { seriesZip } from '../fixtures/dicom-series.ts';
import { zipOfRealSlices, zipUnderRatio } from '../fixtures/ingest-attacks.ts';
import { STALL_LIMIT_MS, watchEventLoop } from './helpers/event-loop-watch.ts';

const MB = 1024 * 1024;
const UPLOAD_LIMIT = 2 * 1024 * MB;

/** Expands one archive as a series upload does, watching the event loop meanwhile; gives the outcome. */
async function expandWatched(bytes: Uint8Array) {
  const watched = await watchEventLoop(() =>
    expandArchives([{ name: 'upload.zip', bytes }], UPLOAD_LIMIT, 10_000).then(
      (files) => ({ files, error: undefined }),
      (error: unknown) => ({ files: [], error: error as Error }),
    ),
  );
  return { ...watched.result, stallMs: watched.longestStallMs, rssGrowth: watched.rssGrowthBytes };
}

describe('opening the archives of a series upload', () => {
  // The imaging pool's thread starts once per process: started here, so what is watched is each archive's cost.
  beforeAll(() => expandArchives([{ name: 'empty.zip', bytes: zipSync({}) }], UPLOAD_LIMIT, 1));

  it('refuses a 12.5 MB zip of real slices that would be stored as 900 MB, off the event loop', async () => {
    const attack = zipOfRealSlices(12.5e6);
    const { error, stallMs, rssGrowth } = await expandWatched(attack.bytes);
    console.info(`zip of real slices: stall ${Math.round(stallMs)} ms, RSS +${Math.round(rssGrowth / MB)} MB`);
    expect(error).toBeInstanceOf(DecompressionLimitError);
    expect(error?.message).toMatch(/^This upload expands to more than 120 MB, over 10 times the 12 MB sent/);
    expect(stallMs).toBeLessThan(STALL_LIMIT_MS);
    expect(rssGrowth).toBeLessThan(256 * MB);
  });

  it('refuses a 12.5 MB zip whose entries stay under the 100-fold ratio, off the event loop', async () => {
    const { error, stallMs, rssGrowth } = await expandWatched(zipUnderRatio(12.5e6).bytes);
    console.info(`zip under the ratio: stall ${Math.round(stallMs)} ms, RSS +${Math.round(rssGrowth / MB)} MB`);
    expect(error).toBeInstanceOf(DecompressionLimitError);
    expect(stallMs).toBeLessThan(STALL_LIMIT_MS);
    expect(rssGrowth).toBeLessThan(256 * MB);
  });

  it('bounds three of them sent at once', async () => {
    const attacks = [1, 2, 3].map(() => zipUnderRatio(12.5e6).bytes);
    const watched = await watchEventLoop(() =>
      Promise.allSettled(attacks.map((bytes) => expandArchives([{ name: 'a.zip', bytes }], UPLOAD_LIMIT, 10_000))),
    );
    expect(watched.result.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(watched.longestStallMs).toBeLessThan(STALL_LIMIT_MS);
  });

  it('takes a small zip of padded slices whole: under 64 MB the ratio is not held against it', async () => {
    const attack = zipOfRealSlices(0.8e6);
    const { files, error } = await expandWatched(attack.bytes);
    expect(error).toBeUndefined();
    const expanded = files.reduce((sum, file) => sum + file.bytes.length, 0);
    expect(expanded).toBeGreaterThan(10 * attack.bytes.length);
    expect(expanded).toBeLessThan(64 * MB);
  });

  it('refuses a 1.2 MB zip of padded slices expanding to 86 MB: more than ten-fold past 64 MB', async () => {
    const { error } = await expandWatched(zipOfRealSlices(1.2e6).bytes);
    expect(error?.message).toMatch(/^This upload expands to more than 64 MB, over 10 times the 2 MB sent/);
  });

  it('opens a series zip on the pool as sent: every slice, byte for byte, the README skipped by name only', async () => {
    const zip = seriesZip({ slices: 12 }, { slices: 5, seriesInstanceUid: '1.2.3.4.5' });
    const files = await expandArchives([{ name: 'export.ZIP', bytes: zip }], UPLOAD_LIMIT, 100);
    expect(files.map((file) => file.name).filter((name) => name.endsWith('.dcm'))).toHaveLength(17);
    expect(files.find((file) => file.name === 'README.txt')?.bytes.length).toBe(19);
  });

  it('counts files sent beside an archive against the file limit', async () => {
    const zip = seriesZip({ slices: 6 });
    const others = [1, 2, 3].map((i) => ({ name: `x${i}.dcm`, bytes: new Uint8Array(4) }));
    await expect(expandArchives([...others, { name: 'a.zip', bytes: zip }], UPLOAD_LIMIT, 8)).rejects.toThrow(
      /This archive holds more than 4 files/,
    );
  });
});
