import { describe, expect, it } from 'vitest';
import { blankInteriorSlices } from '../../../server/imaging/metrics/completeness.ts';
import { measureQuality } from '../../../server/imaging/metrics/quality-metrics.ts';
import { assessQuality } from '../../../server/imaging/verdict.ts';
import type { ImageVolume } from '../../../server/imaging/volume.ts';
import { greyVolume } from './phantom-volume.ts';
import { addRicianNoise, cleanPhantom } from '../../fixtures/phantoms.ts';

/** An MR-like volume of noisy phantom slices (NIfTI, as a converter writes one), with `blank` slices all zero. */
function volume(depth: number, blank: number[]): ImageVolume {
  const size = 64;
  const data = new Float32Array(size * size * depth);
  for (let z = 0; z < depth; z++)
    if (!blank.includes(z)) data.set(addRicianNoise(cleanPhantom({ size }), 20, z + 1).values, z * size * size);
  return greyVolume(data, size, size, depth, { format: 'nii' });
}

describe('blank slices inside a volume', () => {
  it('are counted between slices with an image, and padding at the ends is not', () => {
    expect(blankInteriorSlices(volume(8, []))).toBe(0);
    expect(blankInteriorSlices(volume(8, [3]))).toBe(1);
    expect(blankInteriorSlices(volume(8, [0, 1, 3, 4, 7]))).toBe(2);
    expect(blankInteriorSlices(volume(8, [0, 1, 6, 7]))).toBe(0);
    // A slice of NaN is blank as well.
    const nan = volume(5, []);
    nan.data.fill(NaN, 2 * 64 * 64, 3 * 64 * 64);
    expect(blankInteriorSlices(nan)).toBe(1);
  });

  it('fail the check with the reason, and a complete or padded volume does not get it', () => {
    const lost = assessQuality(measureQuality(volume(12, [5, 6])));
    expect(lost.verdict).toBe('fail');
    expect(lost.issues).toContain('Blank slices (2 of the 12 hold no image, between slices that do)');
    expect(lost.fixes.length).toBe(lost.issues.length);
    for (const ok of [volume(12, []), volume(12, [0, 11])])
      expect(assessQuality(measureQuality(ok)).issues.join(' ')).not.toContain('Blank slices');
  });
});
