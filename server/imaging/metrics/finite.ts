/** An image the engine cannot measure (no finite value, nothing in it); the message is safe to show. */
export class UnmeasurableImageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnmeasurableImageError';
  }
}

/**
 * The values with NaN replaced by the smallest finite value (NaN marks "no data" in float images, which
 * is background) and ±Infinity by the largest/smallest finite one; the input itself when all are finite.
 * Throws UnmeasurableImageError when no value is finite.
 */
export function finiteValues(values: Float32Array): Float32Array {
  return finiteWithRange(values).values;
}

/**
 * finiteValues with the smallest and largest value of the result, which the scan for non-finite values
 * finds anyway: the whole-image histogram then needs no pass of its own to find its range.
 */
export function finiteWithRange(values: Float32Array): { values: Float32Array; min: number; max: number } {
  let min = Infinity,
    max = -Infinity,
    bad = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v - v !== 0) {
      bad++;
      continue;
    }
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (values.length === 0 || min > max)
    throw new UnmeasurableImageError('This image holds no finite pixel value, so its quality cannot be measured.');
  if (bad === 0) return { values, min, max };
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    out[i] = v - v === 0 ? v : v === Infinity ? max : v === -Infinity ? min : min;
  }
  return { values: out, min, max };
}

/** `value` when it is a finite number, else `fallback`: every metric the engine reports is finite. */
export function finiteOr(value: number, fallback = 0): number {
  return Number.isFinite(value) ? value : fallback;
}

/** `value` clamped to [low, high], NaN mapped to `low`. */
export function clamp(value: number, low: number, high: number): number {
  return value >= low ? (value <= high ? value : high) : low;
}
