/** A fixed-bin histogram of real values, enough for percentiles and Otsu without sorting millions of voxels. */
export interface Histogram {
  min: number;
  max: number;
  counts: Uint32Array;
  total: number;
}

/** Bins of every histogram unless told: 4096. */
export const HISTOGRAM_BINS = 4096;
const BINS = HISTOGRAM_BINS;

/**
 * Histogram of `values` (only where `mask` is 1 when a mask is given). Passing `range` (such as the
 * whole image's) skips the pass that finds it, and lets masked histograms share one binning.
 */
export function histogram(values: Float32Array, mask?: Uint8Array, bins = BINS, range?: [number, number]): Histogram {
  const [min, max] = range ?? (mask ? maskedExtent(values, mask) : extent(values));
  const counts = new Uint32Array(bins);
  if (!(max >= min)) return { min: 0, max: 0, counts, total: 0 };
  const scale = binScale(min, max, bins);
  let total = 0;
  if (mask) {
    for (let i = 0; i < values.length; i++) {
      if (!mask[i]) continue;
      counts[((values[i]! - min) * scale + 0.5) | 0]!++;
      total++;
    }
  } else {
    // Even and odd voxels count into two sets of bins, added up at the end: neighbours often share a bin,
    // and one set would make each count wait for the one before it to be stored.
    const odd = countBuffer(bins);
    const n = values.length;
    for (let i = 0; i + 1 < n; i += 2) {
      counts[((values[i]! - min) * scale + 0.5) | 0]!++;
      odd[((values[i + 1]! - min) * scale + 0.5) | 0]!++;
    }
    if (n & 1) counts[((values[n - 1]! - min) * scale + 0.5) | 0]!++;
    addCounts(counts, odd);
    total = n;
  }
  return { min, max, counts, total };
}

let oddCounts = new Uint32Array(0);

/**
 * A zeroed set of `bins` counts for the odd voxels of a two-set count, kept between calls (addCounts leaves
 * it zeroed again).
 */
export function countBuffer(bins: number): Uint32Array {
  if (oddCounts.length < bins) oddCounts = new Uint32Array(bins);
  return oddCounts.subarray(0, bins);
}

/** Adds the counts of `odd` to `counts` and zeroes `odd`, for its next use. */
export function addCounts(counts: Uint32Array, odd: Uint32Array): void {
  for (let b = 0; b < counts.length; b++) {
    counts[b]! += odd[b]!;
    odd[b] = 0;
  }
}

/**
 * Bins per unit value of a histogram of `bins` bins over [min, max]: a value v falls in bin
 * ((v - min) · scale + 0.5) | 0. Exported so a pass that fills several histograms at once bins as histogram does.
 */
export function binScale(min: number, max: number, bins = BINS): number {
  return max > min ? (bins - 1) / (max - min) : 0;
}

// Two loops rather than one testing for a mask at every voxel: the plain one runs about a third faster.
function extent(values: Float32Array): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return [min, max];
}

function maskedExtent(values: Float32Array, mask: Uint8Array): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    if (!mask[i]) continue;
    const v = values[i]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return [min, max];
}

/** The value below which `p` percent of the histogram lies (bin-centre precision). */
export function percentile(h: Histogram, p: number): number {
  if (h.total === 0) return 0;
  const target = (p / 100) * h.total;
  let seen = 0;
  const width = (h.max - h.min) / (h.counts.length - 1 || 1);
  for (let b = 0; b < h.counts.length; b++) {
    seen += h.counts[b]!;
    if (seen >= target) return h.min + b * width;
  }
  return h.max;
}

/** Otsu's threshold: the cut that maximises the between-class variance of the histogram. */
export function otsuThreshold(h: Histogram): number {
  const width = (h.max - h.min) / (h.counts.length - 1 || 1);
  let sumAll = 0;
  for (let b = 0; b < h.counts.length; b++) sumAll += b * h.counts[b]!;
  let weightLow = 0,
    sumLow = 0,
    best = -1,
    cut = 0;
  // An empty bin leaves both classes as they were, so its variance is the bin before's (not larger than the
  // best) or it has an empty class like the bin before: it is skipped, with the same cut.
  for (let b = 0; b < h.counts.length - 1; b++) {
    if (h.counts[b] === 0) continue;
    weightLow += h.counts[b]!;
    sumLow += b * h.counts[b]!;
    const weightHigh = h.total - weightLow;
    if (weightLow === 0 || weightHigh === 0) continue;
    const gap = sumLow / weightLow - (sumAll - sumLow) / weightHigh;
    const between = weightLow * weightHigh * (gap * gap);
    if (between > best) {
      best = between;
      cut = b;
    }
  }
  return h.min + (cut + 0.5) * width;
}

/** Mean, standard deviation, mean of squares and (when asked, one more pass) skewness of the masked values. */
export function moments(values: Float32Array, mask: Uint8Array, select: 0 | 1, withSkewness = false) {
  let n = 0,
    sum = 0,
    sumSq = 0;
  for (let i = 0; i < values.length; i++) {
    if (mask[i] !== select) continue;
    const v = values[i]!;
    n++;
    sum += v;
    sumSq += v * v;
  }
  const m = momentsOfSums(n, sum, sumSq);
  return withSkewness ? { ...m, skewness: skewness(values, mask, select, m) } : m;
}

/** The skewness of the masked values, given their count, mean and standard deviation (0 for none or no spread). */
export function skewness(
  values: Float32Array,
  mask: Uint8Array,
  select: 0 | 1,
  { n, mean, sd }: { n: number; mean: number; sd: number },
): number {
  let cubes = 0;
  // t·t·t rather than t ** 3, which V8 computes by a general power function several times slower; the two
  // may differ in the last bit, far below anything the skewness is compared with.
  if (sd > 0)
    for (let i = 0; i < values.length; i++)
      if (mask[i] === select) {
        const t = (values[i]! - mean) / sd;
        cubes += t * t * t;
      }
  return n ? cubes / n : 0;
}

/**
 * What moments returns (skewness 0) from the count, sum and sum of squares of values added in scan order,
 * for a pass that gathers them together with other sums.
 */
export function momentsOfSums(n: number, sum: number, sumSq: number) {
  const mean = n ? sum / n : 0;
  const variance = n ? Math.max(0, sumSq / n - mean * mean) : 0;
  return { n, mean, sd: Math.sqrt(variance), meanSquare: n ? sumSq / n : 0, skewness: 0 };
}
