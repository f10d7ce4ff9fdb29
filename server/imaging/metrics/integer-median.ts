/** Fewest values for which counting beats selecting. */
const COUNTED_FROM = 1024;

/** How many times each whole number from `min` on occurs among some values. */
export interface IntegerCounts {
  min: number;
  counts: Int32Array;
}

/**
 * The values counted, where every one is an integer and they span at most four times their number (Hounsfield
 * units, stored counts, the high-pass responses of an image of integers: most stored data): one pass finds the
 * span, one counts, and a walk over the counts then finds any rank, where a selection takes several passes.
 * Undefined otherwise (or for fewer than 1,024 values), for a selection to do.
 */
export function integerCounts(values: Float32Array | Float64Array): IntegerCounts | undefined {
  const n = values.length;
  if (n < COUNTED_FROM) return undefined;
  let min = Infinity,
    max = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (Math.floor(v) !== v) return undefined;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  // Written so an infinite span (an infinite value) is refused too.
  if (!(max - min <= 4 * n)) return undefined;
  const counts = new Int32Array(max - min + 1);
  for (let i = 0; i < n; i++) counts[values[i]! - min]!++;
  return { min, counts };
}

/**
 * quantileInPlace(values, 50) to the bit (the values at ranks ⌊(n-1)/2⌋ and the next, interpolated the same
 * way), by counting where integerCounts can; undefined where it cannot.
 */
export function integerMedian(values: Float32Array | Float64Array): number | undefined {
  const counted = integerCounts(values);
  if (!counted) return undefined;
  const { min, counts } = counted;
  const at = (50 / 100) * (values.length - 1);
  const lo = Math.floor(at);
  // The bin holding rank lo, and how many values lie in the bins before it.
  let b = 0,
    before = 0;
  while (before + counts[b]! <= lo) before += counts[b++]!;
  const low = min + b;
  if (at === lo) return low;
  let high = low;
  if (before + counts[b]! <= lo + 1) {
    b++;
    while (counts[b] === 0) b++;
    high = min + b;
  }
  return low + (high - low) * (at - lo);
}
