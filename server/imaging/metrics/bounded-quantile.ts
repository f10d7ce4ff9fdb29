import { selectInPlace } from './image-stats.ts';

/** Parts each unit of the range is cut into on the second level: multiples of 1/256 fall one value to a part. */
const PARTS = 256;

/** The bucket holding rank `k` of the tally's buckets and how many values lie in the buckets before it. */
function bucketOf(counts: Int32Array, k: number): [number, number] {
  let b = 0,
    before = 0;
  while (before + counts[b]! <= k) before += counts[b++]!;
  return [b, before];
}

/** The first bucket after `b` that holds a value, or -1. */
function nextFilled(counts: Int32Array, b: number): number {
  for (let c = b + 1; c < counts.length; c++) if (counts[c]! > 0) return c;
  return -1;
}

/**
 * quantileInPlace(values, p) to the bit (the values at ranks ⌊(n-1)·p/100⌋ and the next, interpolated the same
 * way; 0 for none), for values known to lie at or above `low`: most of them within `units` whole units of it.
 * Two passes of counting in place of a selection: the first counts the values per unit (those beyond the
 * units in one bucket of their own), the second counts the unit holding the rank in 256 parts. Where every
 * value of the unit is a multiple of 1/256 (as a whole-number image's sigma-1 smoothing is), a part holds one
 * value and gives it at once; otherwise the part's values are gathered and selected among (few: one 256th of
 * a unit). Undefined for a value below `low` (or not a number) or a rank
 * beyond the units, for a selection to do. `values` is not reordered.
 */
export function boundedQuantile(values: Float32Array, p: number, low: number, units: number): number | undefined {
  const n = values.length;
  if (n === 0) return 0;
  const at = Math.min(n - 1, Math.max(0, (p / 100) * (n - 1)));
  const lo = Math.floor(at);
  const both = at !== lo;
  const top = low + units;
  // Whole units from `low`: v - low is exact in double precision for single-precision v and a whole `low`,
  // and truncation is the floor for what is not negative, so the buckets follow the values' order.
  const units1 = new Int32Array(units + 1);
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (!(v >= low)) return undefined;
    units1[v < top ? (v - low) | 0 : units]!++;
  }
  const [unit, before] = bucketOf(units1, lo);
  if (unit === units) return undefined;
  // The rank after lo lies in the same unit or in the next that holds a value (whose least value it is).
  const later = both && before + units1[unit]! <= lo + 1 ? nextFilled(units1, unit) : -1;
  if (later === units) return undefined;
  // Per part of the unit: its count. Each value is also checked for being a multiple of 1/256: if all are,
  // a part holds one value only, from + part / 256 exactly, and no value need be looked at again.
  const parts = new Int32Array(PARTS);
  let laterLeast = Infinity,
    fractions = false;
  const from = low + unit;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (v >= from && v < from + 1) {
      const x = (v - from) * PARTS;
      const part = x | 0;
      parts[part]!++;
      if (part !== x) fractions = true;
    } else if (later >= 0 && v >= low + later && v < low + later + 1 && v < laterLeast) laterLeast = v;
  }
  const [part, beforePart] = bucketOf(parts, lo - before);
  const rank = lo - before - beforePart;
  const count = parts[part]!;
  let first: number,
    second = NaN;
  if (!fractions) {
    first = from + part / PARTS;
    if (rank + 1 < count) second = first;
  } else {
    // The part's values, gathered and selected among.
    const gathered = new Float32Array(count);
    for (let i = 0, g = 0; i < n; i++) {
      const v = values[i]!;
      if (v >= from && v < from + 1 && (((v - from) * PARTS) | 0) === part) gathered[g++] = v;
    }
    first = selectInPlace(gathered, rank);
    if (both && rank + 1 < count) {
      // Selection left every value after the rank at least as large: the next is the least of them.
      second = Infinity;
      for (let g = rank + 1; g < count; g++) if (gathered[g]! < second) second = gathered[g]!;
    }
  }
  if (both && Number.isNaN(second)) {
    const nextPart = nextFilled(parts, part);
    if (nextPart >= 0) {
      // The least value of the next part that holds one.
      second = Infinity;
      if (!fractions) second = from + nextPart / PARTS;
      else
        for (let i = 0; i < n; i++) {
          const v = values[i]!;
          if (v >= from && v < from + 1 && (((v - from) * PARTS) | 0) === nextPart && v < second) second = v;
        }
    } else second = laterLeast;
  }
  if (!both) return first;
  return first + (second - first) * (at - lo);
}
