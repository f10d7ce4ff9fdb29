import { integerMedian } from './integer-median.ts';
import { dilate } from './mask.ts';
import { scratchFloat32, scratchFloat64 } from './scratch.ts';
import { BINOMIAL_ORDER, binomialSmooth, maskRuns, rowSpansAt, smoothedOnce, smoothInPlane } from './sharpness.ts';

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
        const average = sum / n;
        sd[k] = Math.sqrt(Math.max(0, sumSq / n - average * average) * (n / (n - 1)));
        inside[k] = masked / n;
      }
    }
  }
  return { mean, sd, inside, count };
}

/**
 * Reorders `a` so that a[k] is its k-th smallest value, with nothing larger before it and nothing smaller
 * after it (Hoare's quickselect, median-of-three pivot): linear time where sorting was n log n, which the
 * percentiles of a check were spending most of their time on. Written here because it works in place on
 * the typed arrays the metrics already hold; values must be finite.
 */
export function selectInPlace(a: Float32Array | Float64Array, k: number): number {
  let left = 0,
    right = a.length - 1;
  while (right > left) {
    const mid = (left + right) >> 1;
    // Median of three as the pivot, so sorted or constant runs do not degrade to quadratic time.
    const x = a[left]!,
      y = a[mid]!,
      z = a[right]!;
    const pivot = x > y ? (y > z ? y : x > z ? z : x) : x > z ? x : y > z ? z : y;
    let i = left,
      j = right;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else break;
  }
  return a[k]!;
}

/** Below this many values a quickselect in place beats the passes of orderStatistics. */
const BUCKETED_FROM = 2048;

/**
 * The k-th smallest value of `a` and, when `next` is asked, the (k + 1)-th (else NaN); `a` may be reordered,
 * and must be finite. The values returned are those of `a` itself, so this is exact, as sorting would give
 * them. Large arrays take one pass in the manner of Floyd and Rivest: a scattered sample of the values gives
 * two bounds that the k-th value almost surely lies between, the pass counts the values below the lower one
 * and gathers those between, and only the few gathered are selected among, in place of a quickselect's many
 * unpredictable comparisons and swaps over all of them. When the bounds miss (a sample unlike the whole),
 * the values are bucketed instead (see bucketedStatistics).
 */
export function orderStatistics(a: Float32Array | Float64Array, k: number, next: boolean): [number, number] {
  const n = a.length;
  if (n < BUCKETED_FROM) return selected(a, k, next);
  // About n^(2/3) samples, as Floyd and Rivest chose: the sample's selection and the values gathered between
  // its bounds then cost little next to the one pass.
  const size = Math.min(4096, Math.round(Math.cbrt(n) ** 2));
  const sample = scratchFloat64('order-sample', size);
  // Scattered by a multiplicative hash (index j · 2654435761 mod n, 2654435761 a prime near 2³² / φ, stepped
  // in integers): a regular stride falls in step with an image's rows and sees the same few columns of each.
  const hop = 2654435761 % n;
  for (let j = 0, at = 0; j < size; j++) {
    sample[j] = a[at]!;
    at += hop;
    if (at >= n) at -= n;
  }
  // Bounds sqrt(ln n) standard deviations of the sample's rank either side of k's place in it (Floyd and
  // Rivest's spread): the k-th value falls outside them about once in a thousand, and is then bucketed.
  const spread = Math.ceil(0.5 * Math.sqrt(size * Math.log(n)));
  const at = (k * size) / n;
  const loRank = Math.floor(at) - spread,
    hiRank = Math.ceil(at) + spread;
  const lower = loRank > 0 ? selectInPlace(sample, loRank) : -Infinity;
  // Selecting the lower bound left every sample after it at least as large: the upper is selected among those.
  const after = loRank > 0 ? loRank + 1 : 0;
  const upper = hiRank < size - 1 ? selectInPlace(sample.subarray(after), hiRank - after) : Infinity;
  // Room for twice the expected share between the bounds; more means the sample misled.
  const room = Math.min(n, Math.ceil(((2 * (hiRank - loRank + 1)) / size) * n) + 64);
  const between = scratchFloat64('order-between', room);
  // Values equal to a bound are only counted (an image's values repeat a lot): their rank is known. The
  // pass has no branches (every value is stored, the count of those kept advances by 0 or 1): images' values
  // fall below, on and between the bounds in no predictable order, and mispredicted branches had cost twice
  // the pass. A store past the end of `between` is dropped, and overflowing it means the sample misled.
  // The loop is written out for each element type: one loop fed both reads through a polymorphic access,
  // a fifth slower.
  let below = 0,
    atLower = 0,
    atUpper = 0,
    m = 0;
  if (a instanceof Float32Array)
    for (let i = 0; i < n; i++) {
      const v = a[i]!;
      between[m] = v;
      below += +(v < lower);
      atLower += +(v === lower);
      atUpper += +(v === upper);
      m += +(v > lower) & +(v < upper);
    }
  else
    for (let i = 0; i < n; i++) {
      const v = a[i]!;
      between[m] = v;
      below += +(v < lower);
      atLower += +(v === lower);
      atUpper += +(v === upper);
      m += +(v > lower) & +(v < upper);
    }
  if (m > room) return bucketedStatistics(a, k, next);
  // Bounds that are one value counted it twice.
  if (upper === lower) atUpper = 0;
  // Ranks in order: below the lower bound, equal to it, gathered (strictly between), equal to the upper, above.
  const inner = below + atLower,
    outer = inner + m,
    last = outer + atUpper;
  if (k < below || k >= last) return bucketedStatistics(a, k, next);
  const gathered = between.subarray(0, m);
  let low: number,
    high = NaN;
  if (k < inner) low = lower;
  else if (k < outer) [low, high] = selected(gathered, k - inner, next && k + 1 < outer);
  else low = upper;
  if (next && Number.isNaN(high)) {
    const r = k + 1;
    // r past the gathered ranks only when k was below them: then it is their smallest.
    high = r < inner ? lower : r < outer ? minimum(gathered) : r < last ? upper : smallestAbove(a, upper);
  }
  return [low, high];
}

/** The smallest value of `a` above `bound` (Infinity for none). */
function smallestAbove(a: Float32Array | Float64Array, bound: number): number {
  let min = Infinity;
  for (let i = 0; i < a.length; i++) if (a[i]! > bound && a[i]! < min) min = a[i]!;
  return min;
}

function minimum(a: Float64Array): number {
  let min = Infinity;
  for (let i = 0; i < a.length; i++) if (a[i]! < min) min = a[i]!;
  return min;
}

/**
 * orderStatistics by bucketing: the values are binned by (v - min) · scale, which is monotonic in v even after
 * rounding, so the k-th value lies in the bin where the counts pass k, and only that bin's values (a narrow
 * range, binned again while still large) are selected among.
 */
function bucketedStatistics(a: Float32Array | Float64Array, k: number, next: boolean): [number, number] {
  const n = a.length;
  if (n < BUCKETED_FROM) return selected(a, k, next);
  let min = Infinity,
    max = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = a[i]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (!(max > min)) return [min, next ? min : NaN];
  const bins = Math.min(4096, n >> 3);
  const scale = bins / (max - min);
  // A range too narrow or too wide for the scale to be a usable finite number: plain selection.
  if (!(scale > 0 && scale < Infinity)) return selected(a, k, next);
  // (v - min) · scale is at most bins · (1 + 2⁻⁵²), so it truncates to at most `bins`.
  const counts = new Int32Array(bins + 1);
  for (let i = 0; i < n; i++) counts[((a[i]! - min) * scale) | 0]!++;
  let bin = 0,
    before = 0;
  while (before + counts[bin]! <= k) before += counts[bin++]!;
  const rank = k - before,
    size = counts[bin]!;
  // The (k + 1)-th value is in the same bin, or else the smallest of the later bins.
  const later = next && rank + 1 >= size;
  const inBin = new Float64Array(size);
  let m = 0,
    above = Infinity;
  for (let i = 0; i < n; i++) {
    const v = a[i]!;
    const b = ((v - min) * scale) | 0;
    if (b === bin) inBin[m++] = v;
    else if (later && b > bin && v < above) above = v;
  }
  // A bin holding most of the values (a spike with far outliers) is selected among at once: binning it
  // again could shave off only a few values a pass.
  const [low, high] = (size > n >> 1 ? selected : bucketedStatistics)(inBin, rank, next && !later);
  return [low, later ? above : high];
}

/** orderStatistics by quickselect alone. */
function selected(a: Float32Array | Float64Array, k: number, next: boolean): [number, number] {
  const low = selectInPlace(a, k);
  if (!next) return [low, NaN];
  // After selection everything past `k` is at least a[k]: the next order statistic is their minimum.
  let high = Infinity;
  for (let i = k + 1; i < a.length; i++) if (a[i]! < high) high = a[i]!;
  return [low, high];
}

/**
 * The `p`-th percentile (0–100) of `a`, interpolated between neighbours as sorting would give it; may reorder
 * `a` (pass a copy to keep it). 0 for none.
 */
export function quantileInPlace(a: Float32Array | Float64Array, p: number): number {
  const n = a.length;
  if (n === 0) return 0;
  const at = Math.min(n - 1, Math.max(0, (p / 100) * (n - 1)));
  const lo = Math.floor(at);
  const [low, high] = orderStatistics(a, lo, at !== lo);
  if (at === lo) return low;
  return low + (high - low) * (at - lo);
}

/** quantileInPlace(a, 50), to the bit: counted where integerMedian can, else selected (`a` may be reordered). */
export function medianInPlace(a: Float64Array): number {
  return integerMedian(a) ?? quantileInPlace(a, 50);
}

/** The `p`-th percentile (0–100) of plain numbers, from a copy; 0 for none. */
export function quantile(values: ArrayLike<number>, p: number): number {
  return quantileInPlace(Float64Array.from(values), p);
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
  // One pass: the count at the largest value so far starts again at each new largest (likewise the smallest).
  let max = -Infinity,
    min = Infinity,
    atMax = 0,
    atMin = 0,
    n = 0;
  for (let i = 0; i < values.length; i++) {
    if (mask && !mask[i]) continue;
    const v = values[i]!;
    if (v > max) {
      max = v;
      atMax = 1;
    } else if (v === max) atMax++;
    if (v < min) {
      min = v;
      atMin = 1;
    } else if (v === min) atMin++;
    n++;
  }
  return pileUpShare(n, max, atMax, min, low ? atMin : 0);
}

/**
 * pileUp from a pass that found the `n` voxels' largest value `max` (held by `atMax` of them) and smallest
 * `min` (held by `atMin`, 0 when the bottom is not counted).
 */
export function pileUpShare(n: number, max: number, atMax: number, min: number, atMin: number): number {
  // An object that is one value throughout is flat-topped as a whole (or blank): all of it counts.
  if (n === 0) return 0;
  if (max <= min) return n >= 2 ? 1 : 0;
  return ((atMax >= 2 ? atMax : 0) + (atMin >= 2 ? atMin : 0)) / n;
}

/**
 * The response of Immerkær's noise mask (1 −2 1 / −2 4 −2 / 1 −2 1), which cancels any plane and so keeps
 * mostly noise, at voxel `i` of a plane `width` voxels wide (not on its border). One expression for every
 * noise estimate, summed in this order, so they agree to the bit.
 */
export function immerkaer(values: Float32Array, i: number, width: number): number {
  return (
    values[i - width - 1]! -
    2 * values[i - width]! +
    values[i - width + 1]! -
    2 * values[i - 1]! +
    4 * values[i]! -
    2 * values[i + 1]! +
    values[i + width - 1]! -
    2 * values[i + width]! +
    values[i + width + 1]!
  );
}

/**
 * Immerkær's noise estimate over the voxels of `mask`, with the median absolute response in place of the
 * mean, so edges and fine structure do not count as noise: sigma = median|I * N| / (0.6745 · 6).
 */
export function robustNoise(values: Float32Array, width: number, height: number, mask: Uint8Array): number {
  const plane = width * height;
  const slices = plane ? Math.floor(values.length / plane) : 0;
  // One typed buffer, kept between calls, with room for every voxel off the border (no pass to count the
  // mask's first), filled in place; the median by counting or selection instead of a sort.
  const responses = scratchFloat64('noise-responses', slices * Math.max(0, width - 2) * Math.max(0, height - 2));
  let k = 0;
  // The mask's voxels off the border, run by run in scan order, without a test per voxel.
  const { runs, firstRun } = maskRuns(width, height, slices, undefined, mask);
  for (let r = 0, last = firstRun[firstRun.length - 1]!; r < last; r += 2)
    for (let i = runs[r]!, end = runs[r + 1]!; i < end; i++) responses[k++] = Math.abs(immerkaer(values, i, width));
  // An image of whole numbers has whole responses, counted (medianInPlace) rather than selected among.
  return medianInPlace(responses.subarray(0, k)) / (0.6745 * 6);
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
  // The 90th percentile as quantile() gives it, selected in place in the typed copy.
  const cut = quantileInPlace(inside, 90);
  if (!(cut > 0)) return 1;
  const edges = dilate(
    Uint8Array.from(gradient, (g, i) => (g >= cut && (!mask || mask[i]) ? 1 : 0)),
    width,
    height,
    2,
  );
  return blurEffect(smooth, width, height, edges);
}

/**
 * Variance of the second, coarser smoothing that edgeWidth compares against (the first is sigma 1): 1 and
 * the binomial kernel's order / 4, i.e. 4.
 */
const COARSE_VARIANCE = 1 + BINOMIAL_ORDER / 4;

/** Masks with fewer voxels than this give edgeWidth's percentiles all their gradients, larger ones every third. */
const ALL_GRADIENTS_BELOW = 3000;

/**
 * Edge width: the Gaussian sigma, in voxels of the grid, of the image's strongest edges. The image is
 * smoothed at sigma 1 and at sigma 2; at an edge of width e, the gradient falls between the two by a ratio
 * that depends on e alone, not on the edge's contrast, and e is found from it (widthFromRatio). Edges are
 * the local maxima (along the axis) of the coarse gradient among its top 10% within `mask`, so noise,
 * which the coarse smoothing removes, does not pass for edges; R is the ratio of the summed gradients there.
 * Judged along x, y and both diagonals, the widest is returned, so blur in one direction (motion) shows. 0 for an
 * image without edges. Unlike an intensity-normalised blur index, this does not depend on contrast,
 * content or noise level, only on how wide edges are.
 */
export function edgeWidth(values: Float32Array, width: number, height: number, mask?: Uint8Array): number {
  const plane = width * height;
  const slices = Math.floor(values.length / Math.max(1, plane));
  // Voxels off the border, the most the mask can have there.
  const most = slices * Math.max(0, width - 2) * Math.max(0, height - 2);
  if (most < 16) return 0;
  const fine = smoothedOnce(values, width, height);
  // Only what is read is computed: the coarse image within two voxels of the mask (the row spans of that
  // band; every computed value is the one the whole image would give).
  const spans = rowSpansAt(width, height, slices, [0, 2], mask);
  const inMask = spans[0]!;
  // Variance 1 + 3 = 4: the fine image smoothed once more by a binomial kernel of order 12 (variance 3).
  const coarse = binomialSmooth(
    fine,
    width,
    height,
    mask ? spans[1] : undefined,
    scratchFloat32('edge-coarse', values.length),
  );
  // Coarse gradients (in single precision, as an image of them would hold) along x, y and both diagonals,
  // at the mask's voxels off the border, for each direction's 90th percentile. The cut is a percentile of
  // many thousands of gradients: from 3,000 voxels on, every third (from the first) estimates it as well.
  // The same pass counts the mask: it keeps every third voxel's gradients, and all of the first 3,000's.
  const sx = scratchFloat32('edge-x', Math.ceil(most / 3)),
    sy = scratchFloat32('edge-y', Math.ceil(most / 3)),
    sd = scratchFloat32('edge-diagonal', Math.ceil(most / 3)),
    sa = scratchFloat32('edge-antidiagonal', Math.ceil(most / 3));
  const all = Math.min(most, ALL_GRADIENTS_BELOW);
  const ax = scratchFloat32('edge-all-x', all),
    ay = scratchFloat32('edge-all-y', all),
    ad = scratchFloat32('edge-all-diagonal', all),
    aa = scratchFloat32('edge-all-antidiagonal', all);
  // The mask's runs along each row off the border: both passes below visit them without a test per voxel.
  const { runs, firstRun } = maskRuns(width, height, slices, inMask, mask);
  // `skip` counts down to the next sampled voxel of the mask (every third, from the first).
  let skip = 0,
    k = 0,
    count = 0;
  const w1 = width + 1,
    w0 = width - 1;
  for (let row = 0; row < height * slices; row++)
    for (let r = firstRun[row]!, last = firstRun[row + 1]!; r < last; r += 2) {
      let i = runs[r]!;
      const end = runs[r + 1]!;
      // The first voxels of the mask: every one's gradients kept, and every third's as well.
      for (; i < end && count < all; i++, count++, skip--) {
        const gx = Math.abs(coarse[i + 1]! - coarse[i - 1]!),
          gy = Math.abs(coarse[i + width]! - coarse[i - width]!),
          gd = Math.abs(coarse[i + w1]! - coarse[i - w1]!),
          ga = Math.abs(coarse[i + w0]! - coarse[i - w0]!);
        if (skip === 0) {
          sx[k] = gx;
          sy[k] = gy;
          sd[k] = gd;
          sa[k++] = ga;
          skip = 3;
        }
        ax[count] = gx;
        ay[count] = gy;
        ad[count] = gd;
        aa[count] = ga;
      }
      if (i >= end) continue;
      // The rest: only every third voxel, stepped to (the next `skip` voxels on from i).
      let j = i + skip;
      for (; j < end; j += 3) {
        sx[k] = Math.abs(coarse[j + 1]! - coarse[j - 1]!);
        sy[k] = Math.abs(coarse[j + width]! - coarse[j - width]!);
        sd[k] = Math.abs(coarse[j + w1]! - coarse[j - w1]!);
        sa[k++] = Math.abs(coarse[j + w0]! - coarse[j - w0]!);
      }
      count += end - i;
      skip = j - end;
    }
  if (count < 16) return 0;
  const sampled =
    count >= ALL_GRADIENTS_BELOW
      ? [sx.subarray(0, k), sy.subarray(0, k), sd.subarray(0, k), sa.subarray(0, k)]
      : [ax.subarray(0, count), ay.subarray(0, count), ad.subarray(0, count), aa.subarray(0, count)];
  const cuts = sampled.map((gradients) => quantileInPlace(gradients, 90));
  // Edges: the mask's voxels (two off the border) whose gradient is at least the cut and a local maximum
  // along its direction; the neighbours' gradients are worked out only for those above the cut. All four
  // directions in one sweep, each summing in scan order (in variables of its own, not an array's elements).
  let coarseX = 0,
    coarseY = 0,
    coarseD = 0,
    coarseA = 0,
    fineX = 0,
    fineY = 0,
    fineD = 0,
    fineA = 0;
  // A direction whose cut is not positive finds no edge: an infinite cut leaves it out.
  const cutOf = (dir: number) => (cuts[dir]! > 0 ? cuts[dir]! : Infinity);
  const [cx, cy, cd, ca] = [cutOf(0), cutOf(1), cutOf(2), cutOf(3)];
  /** Whether gradient `g` at voxel i, along `step`, is at least the gradients two voxels either side. */
  const peak = (i: number, g: number, step: number, here: number) =>
    g >= Math.fround(Math.abs(here - coarse[i - 2 * step]!)) &&
    g >= Math.fround(Math.abs(coarse[i + 2 * step]! - here));
  for (let z = 0; z < slices; z++)
    for (let y = 2; y < height - 2; y++) {
      const row = z * height + y;
      const start = z * plane + y * width;
      for (let r = firstRun[row]!, last = firstRun[row + 1]!; r < last; r += 2) {
        // The run, less its voxels within two of the row's ends.
        const first = Math.max(start + 2, runs[r]!),
          end = Math.min(start + width - 2, runs[r + 1]!);
        if (first >= end) continue;
        // The 3×3 neighbourhood slides along the run (up, middle and down rows; left, centre, right): each
        // step loads its right column only, three values where the four gradients read eight.
        let ul = coarse[first - width - 1]!,
          uc = coarse[first - width]!,
          ml = coarse[first - 1]!,
          mc = coarse[first]!,
          dl = coarse[first + width - 1]!,
          dc = coarse[first + width]!;
        for (let i = first; i < end; i++) {
          const ur = coarse[i - width + 1]!,
            mr = coarse[i + 1]!,
            dr = coarse[i + width + 1]!;
          const gx = Math.fround(Math.abs(mr - ml));
          if (gx >= cx && peak(i, gx, 1, mc)) {
            coarseX += gx;
            fineX += Math.abs(fine[i + 1]! - fine[i - 1]!);
          }
          const gy = Math.fround(Math.abs(dc - uc));
          if (gy >= cy && peak(i, gy, width, mc)) {
            coarseY += gy;
            fineY += Math.abs(fine[i + width]! - fine[i - width]!);
          }
          const gd = Math.fround(Math.abs(dr - ul));
          if (gd >= cd && peak(i, gd, w1, mc)) {
            coarseD += gd;
            fineD += Math.abs(fine[i + w1]! - fine[i - w1]!);
          }
          const ga = Math.fround(Math.abs(dl - ur));
          if (ga >= ca && peak(i, ga, w0, mc)) {
            coarseA += ga;
            fineA += Math.abs(fine[i + w0]! - fine[i - w0]!);
          }
          ul = uc;
          uc = ur;
          ml = mc;
          mc = mr;
          dl = dc;
          dc = dr;
        }
      }
    }
  const sumCoarse = [coarseX, coarseY, coarseD, coarseA],
    sumFine = [fineX, fineY, fineD, fineA];
  let worst = 0;
  for (let dir = 0; dir < 4; dir++) {
    if (!(sumCoarse[dir]! > 0)) continue;
    worst = Math.max(worst, widthFromRatio(sumFine[dir]! / sumCoarse[dir]!, dir < 2 ? 1 : Math.SQRT2));
  }
  return worst;
}

/** The error function (Abramowitz and Stegun 7.1.26, error below 1.5e-7). */
function erf(x: number): number {
  const t = 1 / (1 + 0.3275911 * Math.abs(x));
  const y =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return x >= 0 ? y : -y;
}

/**
 * The edge width e (voxels) whose gradients, by central differences `d` voxels either side, fall by `ratio`
 * from the fine smoothing (variance 1) to the coarse one: a Gaussian edge of variance v gives a difference
 * proportional to erf(d / sqrt(2v)). The ratio falls as e grows, so bisection finds it; capped at 20.
 */
function widthFromRatio(ratio: number, d: number): number {
  const at = (e: number) => erf(d / Math.sqrt(2 * (e * e + 1))) / erf(d / Math.sqrt(2 * (e * e + COARSE_VARIANCE)));
  if (!(ratio < at(0))) return 0;
  if (!(ratio > at(20))) return 20;
  let lo = 0,
    hi = 20;
  for (let k = 0; k < 40; k++) {
    const mid = (lo + hi) / 2;
    if (at(mid) > ratio) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
