import { robustNoise } from './image-stats.ts';
import { smoothedOnce } from './sharpness.ts';

/**
 * ∫₀^½ sin⁴(πf) · cos^(2·smoothing)(πf) · exp(−4π²s²f²) df by the midpoint rule: the response, squared and
 * summed over frequency along one axis, of Immerkær's [1 −2 1] operator to white noise that has a Gaussian
 * grain of sigma `s` and has been smoothed `smoothing` times by [1 2 1]/4 (the sigma-1 smoothing is twice).
 */
function response(s: number, smoothing: number): number {
  const steps = 128;
  let sum = 0;
  for (let k = 0; k < steps; k++) {
    const f = (k + 0.5) / (2 * steps);
    const c = Math.cos(Math.PI * f) ** 2;
    sum += Math.sin(Math.PI * f) ** 4 * c ** smoothing * Math.exp(-4 * Math.PI ** 2 * s * s * f * f);
  }
  return sum;
}

/**
 * How the noise estimate of the sigma-1 smoothed image compares with the raw image's, for noise of grain
 * `s`: Immerkær's operator and the smoothing are separable, so the ratio of the two estimates (root mean
 * squares, as the median of a Gaussian's magnitude is proportional to it) is the one-axis ratio of the squared
 * responses. It rises from about 0.02 for white noise towards 1 for a grain far wider than the smoothing.
 */
function ratioOfGrain(s: number): number {
  return response(s, 4) / response(s, 0);
}

/**
 * The grain of the image's noise: the Gaussian sigma, in voxels of the grid, of the blur that white noise
 * would need to give the noise this image has, from how much Immerkær's noise estimate (the median response,
 * so edges do not count) falls when the image is smoothed at sigma 1. White noise falls far, noise that is
 * already smooth little. Read over the voxels of `mask`, capped at 10. Undefined when the image holds no
 * noise to read beyond the rounding of its values to their stored step (a flat image, an empty mask, or one
 * smoothed until its finest noise is under a step): the grain of such an image cannot be told.
 */
export function noiseGrain(values: Float32Array, width: number, height: number, mask: Uint8Array): number | undefined {
  const step = quantisationStep(values, width, mask);
  // Rounding to the stored step adds white noise of variance step² / 12 to both estimates (the smoothing
  // keeps ratioOfGrain(0) of it): it is taken out, so that it is not read as a fine grain.
  const rounding = (step * step) / 12;
  const raw2 = robustNoise(values, width, height, mask) ** 2 - rounding;
  // At least as much noise as rounding, else what is left of it is too uncertain to read.
  if (!(raw2 > Math.max(rounding, 0))) return undefined;
  const white = ratioOfGrain(0);
  const smooth2 = robustNoise(smoothedOnce(values, width, height), width, height, mask) ** 2 - white * white * rounding;
  const ratio = Math.sqrt(Math.max(0, smooth2) / raw2);
  if (!(ratio > white)) return 0;
  if (!(ratio < ratioOfGrain(10))) return 10;
  let lo = 0,
    hi = 10;
  for (let k = 0; k < 30; k++) {
    const mid = (lo + hi) / 2;
    if (ratioOfGrain(mid) < ratio) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * The step the values are stored in: the smallest non-zero difference between neighbours along x within
 * `mask` (1 for counts, the rescale slope for scaled integers); 0 for values that are not on a step (floats).
 */
function quantisationStep(values: Float32Array, width: number, mask: Uint8Array): number {
  let step = Infinity;
  let steps = 0;
  for (let i = 1; i < values.length; i++) {
    if (!mask[i] || !mask[i - 1] || i % width === 0) continue;
    const d = Math.abs(values[i]! - values[i - 1]!);
    if (d > 0 && d < step) step = d;
  }
  if (!Number.isFinite(step)) return 0;
  // Values on a step differ by whole multiples of it; floats do not.
  for (let i = 1; i < values.length && steps < 1000; i++) {
    if (!mask[i] || !mask[i - 1] || i % width === 0) continue;
    const k = Math.abs(values[i]! - values[i - 1]!) / step;
    if (Math.abs(k - Math.round(k)) > 1e-3) return 0;
    steps++;
  }
  return step;
}
