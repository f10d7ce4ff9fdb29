import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quantile } from '../../../server/imaging/metrics/image-stats.ts';

/** The percentile as sorting gives it: the reference the selection must match exactly. */
function sorted(values: number[], p: number): number {
  if (!values.length) return 0;
  const s = Float64Array.from(values).sort();
  const at = Math.min(s.length - 1, Math.max(0, (p / 100) * (s.length - 1)));
  const lo = Math.floor(at);
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
});
