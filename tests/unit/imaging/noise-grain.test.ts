import { describe, expect, it } from 'vitest';
import { gaussianBlur, rng } from '../../../bench/qc-corpus/image-ops.ts';
import { noiseGrain } from '../../../server/imaging/metrics/noise-grain.ts';

const side = 192;
const all = new Uint8Array(side * side).fill(1);

/** White Gaussian noise of SD `sd`, blurred by a Gaussian of sigma `grain` px (none at 0). */
function noise(grain: number, sd = 10, seed = 1): Float32Array {
  const r = rng(seed);
  const white = Float32Array.from({ length: side * side }, () => sd * r.normal());
  return grain > 0 ? gaussianBlur(white, side, side, grain) : white;
}

describe('noiseGrain: the Gaussian sigma of the noise’s grain', () => {
  it('reads white noise as 0 and blurred noise as the blur’s sigma', () => {
    expect(noiseGrain(noise(0), side, side, all)).toBeLessThan(0.2);
    for (const grain of [1, 2, 3]) {
      const read = noiseGrain(noise(grain, 50), side, side, all);
      expect(read).toBeGreaterThan(grain * 0.9);
      expect(read).toBeLessThan(grain * 1.1);
    }
  });

  it('does not depend on the noise’s level, and ignores smooth structure under it', () => {
    const ramp = Float32Array.from({ length: side * side }, (_, i) => 1000 + 3 * (i % side) + 2 * Math.floor(i / side));
    const a = noiseGrain(noise(1.5, 5), side, side, all);
    const b = noiseGrain(noise(1.5, 500), side, side, all);
    const c = noiseGrain(
      noise(1.5, 5).map((v, i) => v + ramp[i]!),
      side,
      side,
      all,
    );
    expect(b).toBeCloseTo(a, 1);
    expect(c).toBeCloseTo(a, 1);
  });

  it('does not read the rounding of values to whole numbers as white noise', () => {
    // Noise of grain 1 px stored as whole numbers: the rounding (SD 0.29) is white, and read as part of the
    // noise it would make the grain look finer.
    const smooth = noise(1, 40).map((v) => v + 100);
    const stored = smooth.map((v) => Math.round(v));
    expect(noiseGrain(stored, side, side, all)!).toBeCloseTo(noiseGrain(smooth, side, side, all)!, 1);
  });

  it('cannot tell the grain of an image smoothed until its finest noise is under the stored step', () => {
    expect(
      noiseGrain(
        noise(3, 20).map((v) => Math.round(v + 100)),
        side,
        side,
        all,
      ),
    ).toBeUndefined();
  });

  it('is undefined for a flat image, an empty mask and an image too small to measure', () => {
    expect(noiseGrain(new Float32Array(side * side).fill(7), side, side, all)).toBeUndefined();
    expect(noiseGrain(noise(1), side, side, new Uint8Array(side * side))).toBeUndefined();
    expect(noiseGrain(new Float32Array([1, 2, 3, 4]), 2, 2, new Uint8Array(4).fill(1))).toBeUndefined();
  });
});
