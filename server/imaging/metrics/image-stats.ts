import { dilate } from './mask.ts';
import { smoothInPlane } from './sharpness.ts';

/** Statistics on slices of a measurement grid (x fastest, then y, then slices), shared by the modality metrics. */

/** Per-block mean, standard deviation and share of masked voxels over square blocks of every slice. */
export interface BlockStats {
  mean: Float64Array;
  sd: Float64Array;
  /** Share of the block's voxels inside the mask (1 without a mask). */
  inside: Float64Array;
  count: number;
}

/** Mean, SD and mask share of every whole `size`×`size` block of every slice. */
export function blockStats(
  values: Float32Array,
  width: number,
  height: number,
  size = 8,
  mask?: Uint8Array,
): BlockStats {
  const slices = Math.floor(values.length / Math.max(1, width * height));
  const bx = Math.floor(width / size),
    by = Math.floor(height / size);
  const count = bx * by * slices;
  const mean = new Float64Array(count),
    sd = new Float64Array(count),
    inside = new Float64Array(count);
  let k = 0;
  for (let z = 0; z < slices; z++) {
    const o = z * width * height;
    for (let j = 0; j < by; j++) {
      for (let i = 0; i < bx; i++, k++) {
        let sum = 0,
          sumSq = 0,
          masked = 0;
        for (let y = j * size; y < (j + 1) * size; y++) {
          const row = o + y * width;
          for (let x = i * size; x < (i + 1) * size; x++) {
            const v = values[row + x]!;
            sum += v;
            sumSq += v * v;
            if (!mask || mask[row + x]) masked++;
          }
        }
        const n = size * size;
        mean[k] = sum / n;
        sd[k] = Math.sqrt(Math.max(0, sumSq / n - (sum / n) ** 2) * (n / (n - 1)));
        inside[k] = masked / n;
      }
    }
  }
  return { mean, sd, inside, count };
}

/** The `p`-th percentile (0–100) of plain numbers, by sorting a copy; 0 for none. */
export function quantile(values: ArrayLike<number>, p: number): number {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  const at = Math.min(sorted.length - 1, Math.max(0, (p / 100) * (sorted.length - 1)));
  const lo = Math.floor(at);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/** The entries of `values` where `keep` says so. */
export function pick(values: ArrayLike<number>, keep: (i: number) => boolean): number[] {
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) if (keep(i)) out.push(values[i]!);
  return out;
}

/**
 * Crété-Roffet's no-reference blur effect (2007), 0 sharp to 1 blurred: how much of the differences between
 * neighbours survive a 9-pixel box blur. A sharp image loses much of them, an already blurred one little.
 * Judged along x and y over the voxels of `mask` (all without one); the blurrier direction is returned, so
 * motion blur along one axis shows. An image without any difference between neighbours counts as 1.
 */
export function blurEffect(values: Float32Array, width: number, height: number, mask?: Uint8Array): number {
  const slices = Math.floor(values.length / Math.max(1, width * height));
  let worst = 0;
  for (const axis of [0, 1]) {
    const [length, lines, step, lineStep] = axis === 0 ? [width, height, 1, width] : [height, width, width, 1];
    let sumF = 0,
      sumV = 0;
    const line = new Float64Array(length);
    const blurred = new Float64Array(length);
    for (let z = 0; z < slices; z++) {
      const o = z * width * height;
      for (let l = 0; l < lines; l++) {
        const start = o + l * lineStep;
        for (let t = 0; t < length; t++) line[t] = values[start + t * step]!;
        // A 9-tap box blur by a running sum, edges clamped.
        let s = 0;
        for (let d = -4; d <= 4; d++) s += line[Math.min(length - 1, Math.max(0, d))]!;
        blurred[0] = s / 9;
        for (let t = 1; t < length; t++) {
          s += line[Math.min(length - 1, t + 4)]! - line[Math.max(0, t - 5)]!;
          blurred[t] = s / 9;
        }
        for (let t = 1; t < length; t++) {
          if (mask && !mask[start + t * step]) continue;
          const dF = Math.abs(line[t]! - line[t - 1]!);
          const dB = Math.abs(blurred[t]! - blurred[t - 1]!);
          sumF += dF;
          sumV += Math.max(0, dF - dB);
        }
      }
    }
    worst = Math.max(worst, sumF > 0 ? (sumF - sumV) / sumF : 1);
  }
  return worst;
}

/**
 * Share of voxels (of `mask`, or all) piled up exactly at the largest value, when at least two are: a flat
 * top of the histogram is saturation even below the stored type's maximum. The smallest value is counted
 * too when `low` is asked.
 */
export function pileUp(values: Float32Array, mask?: Uint8Array, low = false): number {
  let max = -Infinity,
    min = Infinity,
    n = 0;
  for (let i = 0; i < values.length; i++) {
    if (mask && !mask[i]) continue;
    const v = values[i]!;
    if (v > max) max = v;
    if (v < min) min = v;
    n++;
  }
  // An object that is one value throughout is flat-topped as a whole (or blank): all of it counts.
  if (n === 0) return 0;
  if (max <= min) return n >= 2 ? 1 : 0;
  let atMax = 0,
    atMin = 0;
  for (let i = 0; i < values.length; i++) {
    if (mask && !mask[i]) continue;
    if (values[i] === max) atMax++;
    else if (values[i] === min) atMin++;
  }
  return ((atMax >= 2 ? atMax : 0) + (low && atMin >= 2 ? atMin : 0)) / n;
}

/**
 * Immerkær's noise estimate over the voxels of `mask`, with the median absolute response in place of the
 * mean, so edges and fine structure do not count as noise: sigma = median|I * N| / (0.6745 · 6).
 */
export function robustNoise(values: Float32Array, width: number, height: number, mask: Uint8Array): number {
  const slices = values.length / (width * height);
  const responses: number[] = [];
  for (let z = 0; z < slices; z++) {
    const o = z * width * height;
    for (let y = 1; y < height - 1; y++)
      for (let x = 1; x < width - 1; x++) {
        const i = o + y * width + x;
        if (!mask[i]) continue;
        responses.push(
          Math.abs(
            values[i - width - 1]! -
              2 * values[i - width]! +
              values[i - width + 1]! -
              2 * values[i - 1]! +
              4 * values[i]! -
              2 * values[i + 1]! +
              values[i + width - 1]! -
              2 * values[i + width]! +
              values[i + width + 1]!,
          ),
        );
      }
  }
  return quantile(responses, 50) / (0.6745 * 6);
}

/**
 * The blur effect judged at the strongest edges only: the image smoothed at sigma 1 (so white noise does not
 * pass for sharp detail), its 10% largest gradients within `mask` grown by two voxels. In a noisy image the
 * flat areas would otherwise decide, and noise always looks sharp.
 */
export function edgeBlur(values: Float32Array, width: number, height: number, mask?: Uint8Array): number {
  const smooth = smoothInPlane(values, width, height);
  const n = values.length;
  const gradient = new Float32Array(n);
  const plane = width * height;
  let count = 0;
  for (let i = 0; i < n; i++) if (!mask || mask[i]) count++;
  const inside = new Float32Array(count);
  let k = 0;
  for (let o = 0; o < n; o += plane)
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const i = o + y * width + x;
        // Border voxels have no gradient (0).
        const g =
          x === 0 || y === 0 || x === width - 1 || y === height - 1
            ? 0
            : Math.abs(smooth[i + 1]! - smooth[i - 1]!) + Math.abs(smooth[i + width]! - smooth[i - width]!);
        gradient[i] = g;
        if (!mask || mask[i]) inside[k++] = g;
      }
  // The 90th percentile as quantile() gives it, from one in-place sort of the typed copy.
  inside.sort();
  const at = 0.9 * (count - 1);
  const lo = Math.floor(at);
  const cut = count ? inside[lo]! + (inside[Math.min(count - 1, lo + 1)]! - inside[lo]!) * (at - lo) : 0;
  if (!(cut > 0)) return 1;
  const edges = dilate(
    Uint8Array.from(gradient, (g, i) => (g >= cut && (!mask || mask[i]) ? 1 : 0)),
    width,
    height,
    2,
  );
  return blurEffect(smooth, width, height, edges);
}
