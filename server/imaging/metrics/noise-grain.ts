import { robustNoise } from './image-stats.ts';
import { smoothedOnce } from './sharpness.ts';

/** Midpoint-rule steps of ratioOfGrain's integrals over frequency. */
const STEPS = 128;
/**
 * The parts of ratioOfGrain's integrands that do not depend on the grain, per frequency step f: sin⁴(πf)
 * times cos⁸(πf) (smoothed) or times 1 (raw). The bisection of noiseGrain evaluates the integrals some thirty
 * times over; the same products, worked out once.
 */
const FREQUENCY = new Float64Array(STEPS);
const SMOOTHED_WEIGHT = new Float64Array(STEPS);
const RAW_WEIGHT = new Float64Array(STEPS);
for (let k = 0; k < STEPS; k++) {
  const f = (k + 0.5) / (2 * STEPS);
  const c = Math.cos(Math.PI * f) ** 2;
  FREQUENCY[k] = f;
  SMOOTHED_WEIGHT[k] = Math.sin(Math.PI * f) ** 4 * c ** 4;
  RAW_WEIGHT[k] = Math.sin(Math.PI * f) ** 4 * c ** 0;
}

/**
 * How the noise estimate of the sigma-1 smoothed image compares with the raw image's, for noise of grain
 * `s`: Immerkær's operator and the smoothing are separable, so the ratio of the two estimates (root mean
 * squares, as the median of a Gaussian's magnitude is proportional to it) is the one-axis ratio of the squared
 * responses: ∫₀^½ sin⁴(πf) · cos⁸(πf) · exp(−4π²s²f²) df over the same without cos⁸, by the midpoint rule,
 * where sin⁴ is Immerkær's [1 −2 1] squared, cos⁸ the sigma-1 smoothing's ([1 2 1]/4 twice) squared and the
 * exponential a Gaussian grain's. Both sums share each step's exponential. The ratio rises from about 0.02
 * for white noise towards 1 for a grain far wider than the smoothing.
 */
function ratioOfGrain(s: number): number {
  let smoothed = 0,
    raw = 0;
  for (let k = 0; k < STEPS; k++) {
    const f = FREQUENCY[k]!;
    const gauss = Math.exp(-4 * Math.PI ** 2 * s * s * f * f);
    smoothed += SMOOTHED_WEIGHT[k]! * gauss;
    raw += RAW_WEIGHT[k]! * gauss;
  }
  return smoothed / raw;
}

/** ratioOfGrain at the ends of the range read: white noise (0) and the cap (10). */
const WHITE_RATIO = ratioOfGrain(0);
const CAPPED_RATIO = ratioOfGrain(10);

/**
 * The grain of the image's noise: the Gaussian sigma, in voxels of the grid, of the blur that white noise
 * would need to give the noise this image has, from how much Immerkær's noise estimate (the median response,
 * so edges do not count) falls when the image is smoothed at sigma 1. White noise falls far, noise that is
 * already smooth little. Read over the voxels of `mask`, capped at 10. Undefined when the image holds no
 * noise to read beyond the rounding of its values to their stored step (a flat image, an empty mask, or one
 * smoothed until its finest noise is under a step): the grain of such an image cannot be told.
 * `smallestStep`, when the caller's own pass over the mask found it, is the smallest non-zero difference
 * between neighbours along x within the mask (Infinity for none).
 */
export function noiseGrain(
  values: Float32Array,
  width: number,
  height: number,
  mask: Uint8Array,
  smallestStep?: number,
): number | undefined {
  const step = quantisationStep(values, width, mask, smallestStep ?? smallestDifference(values, width, mask));
  // Rounding to the stored step adds white noise of variance step² / 12 to both estimates (the smoothing
  // keeps ratioOfGrain(0) of it): it is taken out, so that it is not read as a fine grain.
  const rounding = (step * step) / 12;
  const raw2 = robustNoise(values, width, height, mask) ** 2 - rounding;
  // At least as much noise as rounding, else what is left of it is too uncertain to read.
  if (!(raw2 > Math.max(rounding, 0))) return undefined;
  const white = WHITE_RATIO;
  const smooth2 = robustNoise(smoothedOnce(values, width, height), width, height, mask) ** 2 - white * white * rounding;
  const ratio = Math.sqrt(Math.max(0, smooth2) / raw2);
  if (!(ratio > white)) return 0;
  if (!(ratio < CAPPED_RATIO)) return 10;
  let lo = 0,
    hi = 10;
  for (let k = 0; k < 30; k++) {
    const mid = (lo + hi) / 2;
    if (ratioOfGrain(mid) < ratio) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** The smallest non-zero difference between neighbours along x within `mask` (Infinity for none). */
function smallestDifference(values: Float32Array, width: number, mask: Uint8Array): number {
  let step = Infinity;
  // Row by row: neighbours within a row, found without a remainder per voxel.
  for (let row = 0; row < values.length; row += width)
    for (let i = row + 1, end = Math.min(values.length, row + width); i < end; i++) {
      if (!mask[i] || !mask[i - 1]) continue;
      const d = Math.abs(values[i]! - values[i - 1]!);
      if (d > 0 && d < step) step = d;
    }
  return step;
}

/**
 * The step the values are stored in: the smallest non-zero difference between neighbours along x within
 * `mask` (`step`; 1 for counts, the rescale slope for scaled integers), when the differences are whole
 * multiples of it; 0 for values that are not on a step (floats).
 */
function quantisationStep(values: Float32Array, width: number, mask: Uint8Array, step: number): number {
  if (!Number.isFinite(step)) return 0;
  let steps = 0;
  // Values on a step differ by whole multiples of it; floats do not.
  for (let row = 0; row < values.length && steps < 1000; row += width)
    for (let i = row + 1, end = Math.min(values.length, row + width); i < end && steps < 1000; i++) {
      if (!mask[i] || !mask[i - 1]) continue;
      const k = Math.abs(values[i]! - values[i - 1]!) / step;
      if (Math.abs(k - Math.round(k)) > 1e-3) return 0;
      steps++;
    }
  return step;
}
