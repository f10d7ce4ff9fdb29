import { moments, momentsOfSums, skewness } from './histogram.ts';
import { immerkaer, orderStatistics } from './image-stats.ts';
import { integerCounts, type IntegerCounts } from './integer-median.ts';
import { scratchFloat32 } from './scratch.ts';

/** How the noise level was estimated. */
export type NoiseModel = 'gaussian' | 'rayleigh' | 'laplacian';

/** Rayleigh (MR magnitude) background: mean/sd is 1.913 and skewness 0.631 in theory. */
function looksRayleigh(mean: number, sd: number, skewness: number, magnitude: boolean): boolean {
  if (sd <= 0) return false;
  const ratio = mean / sd;
  return magnitude ? ratio > 1.5 && ratio < 2.4 : ratio > 1.7 && ratio < 2.15 && skewness > 0.35 && skewness < 0.95;
}

/**
 * Noise sigma from the background voxels (`background[i] === select`, 1 unless told: the object's grown mask
 * with 0 saves building the background's own). MR magnitude backgrounds follow a Rayleigh law, whose
 * maximum-likelihood sigma is sqrt(mean(x²)/2); others are Gaussian around an offset, and a
 * median-absolute-deviation estimate keeps stray structures (labels, ghosts) from inflating it.
 */
export function backgroundNoise(
  values: Float32Array,
  background: Uint8Array,
  magnitude: boolean,
  select: 0 | 1 = 1,
): { sigma: number; model: NoiseModel; mean: number } {
  const m = moments(values, background, select);
  // The skewness (one more pass) decides only when mean/sd already looks Rayleigh.
  if (!magnitude && m.sd > 0 && m.mean / m.sd > 1.7 && m.mean / m.sd < 2.15)
    m.skewness = skewness(values, background, select, m);
  if (looksRayleigh(m.mean, m.sd, m.skewness, magnitude))
    return { sigma: Math.sqrt(m.meanSquare / 2), model: 'rayleigh', mean: m.mean };
  // A regular subsample of at most 400 000 voxels keeps the two selections cheap on large volumes.
  const step = Math.max(1, Math.floor(m.n / 400_000));
  // Kept between calls: every element is written before the selections read it.
  const picked = scratchFloat32('background-picked', Math.ceil(m.n / step));
  for (let i = 0, seen = 0, k = 0; i < values.length; i++)
    if (background[i] === select && seen++ % step === 0) picked[k++] = values[i]!;
  return gaussianNoise(picked, m);
}

/**
 * backgroundNoise of the background's values gathered in scan order (`background`, left as it is) whose
 * moments (without skewness) are `m`, as a caller's pass over the voxels found them: the same sums in the
 * same order, so the same result to the bit, without passes of its own over the whole image. `counted`, when
 * the caller counted the values (whole numbers) as it gathered them, saves counting them again.
 */
export function backgroundNoiseOf(
  background: Float32Array,
  m: ReturnType<typeof momentsOfSums>,
  magnitude: boolean,
  counted?: IntegerCounts,
): { sigma: number; model: NoiseModel; mean: number } {
  let skew = 0;
  if (!magnitude && m.sd > 0 && m.mean / m.sd > 1.7 && m.mean / m.sd < 2.15) {
    // As histogram.ts's skewness adds it (t·t·t, in scan order).
    let cubes = 0;
    for (let i = 0; i < background.length; i++) {
      const t = (background[i]! - m.mean) / m.sd;
      cubes += t * t * t;
    }
    skew = m.n ? cubes / m.n : 0;
  }
  if (looksRayleigh(m.mean, m.sd, skew, magnitude))
    return { sigma: Math.sqrt(m.meanSquare / 2), model: 'rayleigh', mean: m.mean };
  const step = Math.max(1, Math.floor(m.n / 400_000));
  // Every value is picked then: the median and MAD of their counts are those the selections would find.
  if (step === 1 && counted) {
    const { mad } = integerMedianAndMad(background.length, counted);
    return { sigma: mad > 0 ? mad * 1.4826 : m.sd, model: 'gaussian', mean: m.mean };
  }
  const picked = scratchFloat32('background-picked', Math.ceil(m.n / step));
  for (let k = 0, i = 0; k < picked.length; k++, i += step) picked[k] = background[i]!;
  return gaussianNoise(picked, m);
}

/** The Gaussian estimate from `picked` (overwritten): 1.4826 MAD about the median, or the SD without spread. */
function gaussianNoise(picked: Float32Array, m: { sd: number; mean: number }) {
  const counts = integerCounts(picked);
  const counted = counts && integerMedianAndMad(picked.length, counts);
  if (counted)
    return { sigma: counted.mad > 0 ? counted.mad * 1.4826 : m.sd, model: 'gaussian' as const, mean: m.mean };
  const median = picked.length ? orderStatistics(picked, picked.length >> 1, false)[0] : 0;
  for (let i = 0; i < picked.length; i++) picked[i] = Math.abs(picked[i]! - median);
  const mad = picked.length ? orderStatistics(picked, picked.length >> 1, false)[0] : 0;
  return { sigma: mad > 0 ? mad * 1.4826 : m.sd, model: 'gaussian' as const, mean: m.mean };
}

/**
 * The value of rank n >> 1 of `n` whole values and of their distances from it, as the two selections give
 * them, from the values' counts (integerCounts): the distances' counts follow from those, and a walk over each
 * finds the rank.
 */
function integerMedianAndMad(n: number, { min, counts }: IntegerCounts): { median: number; mad: number } {
  const rank = n >> 1;
  let at = 0;
  for (let seen = counts[0]!; seen <= rank; seen += counts[++at]!);
  const median = min + at;
  // Distances from the median: the counts of median - d and median + d (once for d = 0).
  const distances = new Int32Array(Math.max(at, counts.length - 1 - at) + 1);
  for (let b = 0; b < counts.length; b++) distances[Math.abs(b - at)]! += counts[b]!;
  let d = 0;
  for (let seen = distances[0]!; seen <= rank; seen += distances[++d]!);
  return { median, mad: d };
}

/**
 * Immerkær's fast noise estimate from the whole image (one slice at a time), for images without
 * enough background: sigma = sqrt(pi/2) / (6 (W-2)(H-2)) * sum |I * N|.
 */
export function laplacianNoise(values: Float32Array, width: number, height: number): number {
  const slices = values.length / (width * height);
  let sum = 0,
    count = 0;
  for (let z = 0; z < slices; z++) {
    const o = z * width * height;
    for (let y = 1; y < height - 1; y++) {
      for (let x = 1; x < width - 1; x++) {
        const i = o + y * width + x;
        const v = immerkaer(values, i, width);
        sum += Math.abs(v);
        count++;
      }
    }
  }
  return count ? (Math.sqrt(Math.PI / 2) * sum) / (6 * count) : 0;
}
