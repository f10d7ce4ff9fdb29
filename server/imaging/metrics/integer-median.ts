import { quantileInPlace } from './image-stats.ts';

/** Fewest values for which counting beats selecting. */
const COUNTED_FROM = 1024;

/**
 * quantileInPlace(a, 50), to the bit, by counting where every value is a non-negative integer no larger than
 * four times their number: the high-pass responses of an image of integers (most stored MR data) are such
 * integers, and one counting pass and a walk over the counts replace a selection's several passes. Other
 * arrays are selected among as quantileInPlace does; `a` may be reordered then.
 */
export function medianInPlace(a: Float64Array): number {
  const n = a.length;
  if (n < COUNTED_FROM) return quantileInPlace(a, 50);
  let max = 0;
  for (let i = 0; i < n; i++) {
    const v = a[i]!;
    if (!(v >= 0 && Math.floor(v) === v)) return quantileInPlace(a, 50);
    if (v > max) max = v;
  }
  if (max > 4 * n) return quantileInPlace(a, 50);
  const counts = new Int32Array(max + 1);
  for (let i = 0; i < n; i++) counts[a[i]!]!++;
  // The rank quantileInPlace interpolates at, and the values at it and the next rank.
  const at = (50 / 100) * (n - 1);
  const lo = Math.floor(at);
  let v = 0,
    before = 0;
  while (before + counts[v]! <= lo) before += counts[v++]!;
  const low = v;
  if (at === lo) return low;
  let high = low;
  if (before + counts[v]! <= lo + 1) {
    v++;
    while (counts[v] === 0) v++;
    high = v;
  }
  return low + (high - low) * (at - lo);
}
