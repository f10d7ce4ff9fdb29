import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quantile, quantileInPlace } from '../../../server/imaging/metrics/image-stats.ts';

/** The percentile as sorting gives it: the reference the selection must match exactly. */
function sorted(values: number[], p: number): number {
  if (!values.length) return 0;
  const s = Float64Array.from(values).sort();
  const at = Math.min(s.length - 1, Math.max(0, (p / 100) * (s.length - 1)));
  const lo = Math.floor(at);
  // At a rank itself the value is taken as it is: the interpolation would multiply an overflowing gap
  // (from -1.8e308 to 1.7e293, Infinity) by 0 and give NaN.
  if (at === lo) return s[lo]!;
  return s[lo]! + (s[Math.min(s.length - 1, lo + 1)]! - s[lo]!) * (at - lo);
}

describe('percentiles by selection instead of sorting', () => {
  it('equal the sorted percentile exactly, for any values (repeats, runs, constants)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: -3, max: 3 })), {
          maxLength: 300,
        }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        (values, p) => {
          // -0 and 0 are the same value to a percentile, though not to toBe.
          expect(quantile(values, p) === sorted(values, p)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
    const run = Array.from({ length: 10_000 }, (_, i) => i);
    expect(quantile(run, 90)).toBe(sorted(run, 90));
    expect(quantile(run.reverse(), 25)).toBe(sorted(run, 25));
  });

  it('equal the sorted percentile exactly on arrays large enough to be bucketed first', () => {
    const value = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.double({ min: -1e-300, max: 1e-300, noNaN: true }),
      fc.integer({ min: -3, max: 3 }),
      fc.integer({ min: -1024, max: 3071 }),
    );
    fc.assert(
      fc.property(
        fc.array(value, { minLength: 2048, maxLength: 6000 }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        (values, p) => {
          expect(quantile(values, p) === sorted(values, p)).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
    // A spike of near-equal values with a few far outliers, as a background's noise with bright labels.
    const spike = Array.from({ length: 50_000 }, (_, i) =>
      i % 997 === 0 ? 1e6 + i : Math.fround(1 + (i % 13) * 1e-6),
    );
    for (const p of [0, 1, 50, 90, 99.9, 100]) expect(quantile(spike, p)).toBe(sorted(spike, p));
    // Every value the selection's sample looks at set apart (the sample scatters its picks by a multiplicative
    // hash): bounds drawn from it miss, and the bucketed fallback must still be exact; near 4.5% both bounds are
    // the one value 0, whose run must be counted once.
    const misleading = Array.from({ length: 65_536 }, (_, i) => 1 + ((i * 7919) % 1000));
    for (let j = 0; j < 1626; j++) misleading[(j * 2654435761) % 65_536] = 0;
    for (const p of [0, 2, 3.7, 4.5, 4.8, 5, 6.25, 50, 99]) expect(quantile(misleading, p)).toBe(sorted(misleading, p));
    // Image rows sampled at a stride that divides their length: a regular sample would see the same columns.
    const rows = Array.from({ length: 61_440 }, (_, i) => (i % 240) * 10 + ((i * 31) % 7));
    for (const p of [1, 50, 99]) expect(quantile(rows, p)).toBe(sorted(rows, p));
  });

  it('equal the sorted percentile exactly on single-precision arrays', () => {
    const value = fc.oneof(
      fc.float({ noNaN: true, noDefaultInfinity: true }),
      fc.float({ min: Math.fround(-1e-30), max: Math.fround(1e-30), noNaN: true }),
      fc.integer({ min: -3, max: 3 }),
      fc.integer({ min: -1024, max: 3071 }),
      fc.constant(-0),
    );
    fc.assert(
      fc.property(
        fc.array(value, { minLength: 2048, maxLength: 6000 }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        (values, p) => {
          const single = Float32Array.from(values);
          expect(quantileInPlace(single.slice(), p) === sorted([...single], p)).toBe(true);
          // Without −0 among them (the bits' own order then holds throughout).
          const positive = single.map((v) => (Object.is(v, -0) ? 0 : v));
          expect(quantileInPlace(positive.slice(), p) === sorted([...positive], p)).toBe(true);
        },
      ),
      { numRuns: 80 },
    );
    // A narrow range of many values, two runs with one far value, and gradients of an image: exact on each.
    const narrow = Float32Array.from({ length: 40_000 }, (_, i) => 1000 + ((i * 7919) % 4096) / 4096);
    const steps = Float32Array.from({ length: 9_000 }, (_, i) => (i < 4_500 ? 1 : i < 8_999 ? 1.5 : 1e9));
    const gradients = Float32Array.from(
      { length: 21_000 },
      (_, i) => Math.abs(Math.sin(i * 12.9898) * 43758.5453) % 500,
    );
    for (const a of [narrow, steps, gradients])
      for (const p of [0, 1, 10, 49.99, 50, 90, 99.99, 100])
        expect(quantileInPlace(a.slice(), p), `p ${p}`).toBe(sorted([...a], p));
  });
});
