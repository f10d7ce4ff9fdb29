// The QC kernels as they were before they were made faster, kept verbatim (exports and the one shared
// smoothing aside) as the reference the faster ones must match to the bit on the corpus images.
import { quantileInPlace } from '../../../server/imaging/metrics/image-stats.ts';

/**
 * Grows the mask by `radius` voxels in-plane (a square structuring element, slice by slice), so the
 * background used for noise excludes the blurred edge of the object.
 */
export function dilate(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  const rows = new Uint8Array(mask.length);
  const slices = mask.length / (width * height);
  for (let row = 0; row < height * slices; row++) {
    const base = row * width;
    let last = -Infinity;
    for (let x = 0; x < width; x++) {
      if (mask[base + x]) last = x;
      if (x - last <= radius) rows[base + x] = 1;
    }
    last = Infinity;
    for (let x = width - 1; x >= 0; x--) {
      if (mask[base + x]) last = x;
      if (last - x <= radius) rows[base + x] = 1;
    }
  }
  const out = new Uint8Array(mask.length);
  for (let z = 0; z < slices; z++) {
    const plane = z * width * height;
    for (let x = 0; x < width; x++) {
      let last = -Infinity;
      for (let y = 0; y < height; y++) {
        if (rows[plane + y * width + x]) last = y;
        if (y - last <= radius) out[plane + y * width + x] = 1;
      }
      last = Infinity;
      for (let y = height - 1; y >= 0; y--) {
        if (rows[plane + y * width + x]) last = y;
        if (last - y <= radius) out[plane + y * width + x] = 1;
      }
    }
  }
  return out;
}

/**
 * Binomial smoothing ([1 2 1]/4, twice, in x and y: a Gaussian of sigma 1) of each slice, edges clamped.
 * The first and last voxel of each line are handled apart, so the inner loops carry no bounds tests.
 */
export function smoothInPlane(values: Float32Array, width: number, height: number): Float32Array {
  const out = values.slice();
  const tmp = new Float32Array(values.length);
  const plane = width * height;
  const slices = plane ? values.length / plane : 0;
  for (let pass = 0; pass < 2; pass++) {
    for (let z = 0; z < slices; z++) {
      const o = z * plane;
      for (let y = 0; y < height; y++) {
        const r = o + y * width;
        if (width === 1) {
          tmp[r] = out[r]!;
          continue;
        }
        tmp[r] = (3 * out[r]! + out[r + 1]!) / 4;
        for (let i = r + 1, end = r + width - 1; i < end; i++) tmp[i] = (out[i - 1]! + 2 * out[i]! + out[i + 1]!) / 4;
        tmp[r + width - 1] = (out[r + width - 2]! + 3 * out[r + width - 1]!) / 4;
      }
      for (let y = 0; y < height; y++) {
        const up = o + (y > 0 ? y - 1 : 0) * width,
          here = o + y * width,
          down = o + (y < height - 1 ? y + 1 : y) * width;
        for (let x = 0; x < width; x++) out[here + x] = (tmp[up + x]! + 2 * tmp[here + x]! + tmp[down + x]!) / 4;
      }
    }
  }
  return out;
}

/**
 * A binomial smoothing of the given order (the [1 2 1]/4 kernel applied order/2 times, variance order/4) in
 * x and y, as one separable pass each way: a wide smoothing at the cost of one. Edges are clamped.
 */
export function binomialSmooth(values: Float32Array, width: number, height: number, order: number): Float32Array {
  const taps = new Float64Array(order + 1);
  taps[0] = 1;
  for (let k = 1; k <= order; k++) for (let j = k; j > 0; j--) taps[j] = taps[j]! + taps[j - 1]!;
  const total = 2 ** order;
  for (let j = 0; j <= order; j++) taps[j] = taps[j]! / total;
  const half = order >> 1;
  const plane = width * height;
  const tmp = new Float32Array(values.length);
  const out = new Float32Array(values.length);
  // A row padded with its clamped ends, so the kernel runs without bounds tests; the taps are symmetric.
  const padded = new Float64Array(width + order);
  const acc = new Float64Array(width);
  const rows = new Int32Array(order + 1);
  for (let o = 0; o + plane <= values.length; o += plane) {
    for (let y = 0; y < height; y++) {
      const r = o + y * width;
      for (let k = 0; k < half; k++) {
        padded[k] = values[r]!;
        padded[width + half + k] = values[r + width - 1]!;
      }
      for (let x = 0; x < width; x++) padded[half + x] = values[r + x]!;
      for (let x = 0; x < width; x++) {
        const c = x + half;
        let sum = taps[half]! * padded[c]!;
        for (let j = 0; j < half; j++) sum += taps[j]! * (padded[c - half + j]! + padded[c + half - j]!);
        tmp[r + x] = sum;
      }
    }
    for (let y = 0; y < height; y++) {
      for (let j = 0; j <= order; j++) rows[j] = o + Math.min(height - 1, Math.max(0, y - half + j)) * width;
      acc.fill(0);
      for (let j = 0; j <= order; j++) {
        const src = rows[j]!,
          t = taps[j]!;
        for (let x = 0; x < width; x++) acc[x] = acc[x]! + t * tmp[src + x]!;
      }
      out.set(acc, o + y * width);
    }
  }
  return out;
}

/**
 * Ghost-to-signal ratio (as MRIQC's GSR): the mean of the background where the object, shifted by half
 * the field of view along x or y, would fall, above the rest of the background, over the object's mean.
 * The larger of the two directions is returned.
 */
export function ghostRatio(
  values: Float32Array,
  width: number,
  height: number,
  object: Uint8Array,
  grown: Uint8Array,
  foregroundMean: number,
): number {
  if (foregroundMean <= 0) return 0;
  const slices = values.length / (width * height);
  let worst = 0;
  for (const axis of ['x', 'y'] as const) {
    let ghostSum = 0,
      ghostN = 0,
      restSum = 0,
      restN = 0;
    for (let z = 0; z < slices; z++) {
      const o = z * width * height;
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const i = o + y * width + x;
          if (grown[i]) continue;
          const sx = axis === 'x' ? (x + (width >> 1) < width ? x + (width >> 1) : x + (width >> 1) - width) : x;
          const sy = axis === 'y' ? (y + (height >> 1) < height ? y + (height >> 1) : y + (height >> 1) - height) : y;
          if (object[o + sy * width + sx]) {
            ghostSum += values[i]!;
            ghostN++;
          } else {
            restSum += values[i]!;
            restN++;
          }
        }
      }
    }
    if (ghostN > 0 && restN > 0) worst = Math.max(worst, (ghostSum / ghostN - restSum / restN) / foregroundMean);
  }
  return worst;
}

/** Variance of the second, coarser smoothing that edgeWidth compares against (the first is sigma 1). */
const COARSE_VARIANCE = 4;

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
  const fine = smoothInPlane(values, width, height);
  // Variance 1 + 3 = 4: the fine image smoothed once more by a binomial kernel of order 12 (variance 3).
  const coarse = binomialSmooth(fine, width, height, (COARSE_VARIANCE - 1) * 4);
  const plane = width * height;
  const slices = Math.floor(values.length / Math.max(1, plane));
  let count = 0;
  for (let z = 0; z < slices; z++)
    for (let y = 1; y < height - 1; y++)
      for (let i = z * plane + y * width + 1, end = i + width - 2; i < end; i++) if (!mask || mask[i]) count++;
  if (count < 16) return 0;
  // The cut is a percentile of many thousands of gradients: every third one of the mask estimates it as well.
  const every = count >= 3000 ? 3 : 1;
  // One gradient buffer and one selection buffer serve the four directions.
  const g2 = new Float32Array(values.length);
  const inside = new Float32Array(Math.ceil(count / every));
  let worst = 0;
  for (const step of [1, width, width + 1, width - 1]) {
    // Coarse gradient along the direction (0 on the border rows and columns), and its 90th percentile in the mask.
    let seen = 0,
      k = 0;
    for (let z = 0; z < slices; z++)
      for (let y = 1; y < height - 1; y++) {
        const row = z * plane + y * width;
        for (let i = row + 1, end = row + width - 1; i < end; i++) {
          const g = Math.abs(coarse[i + step]! - coarse[i - step]!);
          g2[i] = g;
          if ((!mask || mask[i]) && seen++ % every === 0) inside[k++] = g;
        }
      }
    const cut = quantileInPlace(inside, 90);
    if (!(cut > 0)) continue;
    let sumFine = 0,
      sumCoarse = 0;
    for (let z = 0; z < slices; z++)
      for (let y = 2; y < height - 2; y++) {
        const row = z * plane + y * width;
        for (let i = row + 2, end = row + width - 2; i < end; i++) {
          const g = g2[i]!;
          if (g < cut || (mask && !mask[i]) || g < g2[i - step]! || g < g2[i + step]!) continue;
          sumCoarse += g;
          sumFine += Math.abs(fine[i + step]! - fine[i - step]!);
        }
      }
    if (!(sumCoarse > 0)) continue;
    worst = Math.max(worst, widthFromRatio(sumFine / sumCoarse, step === 1 || step === width ? 1 : Math.SQRT2));
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

const ANGLES = 36;
const SEGMENTS = 8;

/** The median of the finite entries, 0 for none. */
function medianOf(values: number[]): number {
  if (!values.length) return 0;
  const sorted = values.slice().sort((x, y) => x - y);
  return sorted[sorted.length >> 1]!;
}

/**
 * Streaks and rings, in HU, from the high-pass residual of homogeneous tissue (clipped at ±150 HU). A streak
 * is a straight line whose residual keeps one sign all along it; a ring is a circle about the centre (the
 * rotation axis) that keeps one sign all around. Each line is cut into 8 segments and each circle into 16
 * sectors; a line's or circle's amplitude is the median of its pieces' mean residuals, so anatomy edges,
 * which only touch a few pieces, do not count, and noise averages out. The score is the mean of the three
 * largest amplitudes. (An amplitude in HU rather than a z-score: real reconstructions have correlated
 * noise, which inflates every z-score.)
 */
export function lineScores(
  residual: Float32Array,
  keep: Uint8Array,
  ringKeep: Uint8Array,
  width: number,
  height: number,
) {
  const slices = residual.length / (width * height);
  const cx = (width - 1) / 2,
    cy = (height - 1) / 2;
  const diag = Math.ceil(Math.hypot(width, height)) + 1;
  const lineSum = new Float64Array(ANGLES * diag * SEGMENTS);
  const lineN = new Uint32Array(lineSum.length);
  const ringSum = new Float64Array(diag * 16);
  const ringN = new Uint32Array(ringSum.length);
  const cos = Array.from({ length: ANGLES }, (_, a) => Math.cos((Math.PI * a) / ANGLES));
  const sin = Array.from({ length: ANGLES }, (_, a) => Math.sin((Math.PI * a) / ANGLES));
  const segment = diag / SEGMENTS;
  const ringLimit = 0.45 * Math.min(width, height);
  // Four slices at most: the line sums cost 36 passes per voxel.
  const zStep = Math.max(1, Math.ceil(slices / 4));
  for (let z = 0; z < slices; z += zStep) {
    const o = z * width * height;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = o + y * width + x;
        if (!ringKeep[i] && !keep[i]) continue;
        const r = Math.max(-150, Math.min(150, residual[i]!));
        const dx = x - cx,
          dy = y - cy;
        const rad = Math.min(diag - 1, Math.round(Math.hypot(dx, dy)));
        // The edge of the reconstruction circle (at half the matrix) is a centred circle on every scan.
        const inRing = ringKeep[i] && rad < ringLimit;
        const sector = Math.min(15, Math.floor(((Math.atan2(dy, dx) + Math.PI) / (2 * Math.PI)) * 16));
        if (inRing) {
          ringSum[rad * 16 + sector]! += r;
          ringN[rad * 16 + sector]!++;
        }
        if (!keep[i]) continue;
        for (let a = 0; a < ANGLES; a++) {
          const t = Math.min(diag - 1, Math.max(0, Math.round(dx * cos[a]! + dy * sin[a]! + diag / 2)));
          const along = Math.min(
            SEGMENTS - 1,
            Math.max(0, Math.floor((-dx * sin[a]! + dy * cos[a]! + diag / 2) / segment)),
          );
          const k = (a * diag + t) * SEGMENTS + along;
          lineSum[k]! += r;
          lineN[k]!++;
        }
      }
    }
  }
  const score = (sum: Float64Array, n: Uint32Array, pieces: number, minPieces: number) => {
    const medians: number[] = [];
    for (let line = 0; line < sum.length / pieces; line++) {
      const z: number[] = [];
      for (let p = 0; p < pieces; p++) {
        const k = line * pieces + p;
        if (n[k]! >= 6) z.push(sum[k]! / n[k]!);
      }
      if (z.length >= minPieces) medians.push(Math.abs(medianOf(z)));
    }
    medians.sort((x, y) => y - x);
    return medians.slice(0, 3).reduce((x, y) => x + y, 0) / Math.max(1, Math.min(3, medians.length));
  };
  return { streaks: score(lineSum, lineN, SEGMENTS, 3), rings: ringProminence(ringSum, ringN) };
}

/**
 * Ring amplitude in HU: each radius's profile value is the median of its 16 sectors' mean residuals (so
 * anatomy touching a few sectors does not count). Radii that stand out of the profile (|z| > 4 against the
 * profile's own spread, each value weighted by the square root of its voxel count, 1.4826 MAD over radii)
 * are rings; the sum of the three largest amplitudes over three is returned (none gives 0). The
 * z-score alone would find the faint round layers of a quiet head scan; the amplitude says whether a ring
 * would be seen.
 */
function ringProminence(sum: Float64Array, n: Uint32Array): number {
  const profile: number[] = [];
  const amplitude: number[] = [];
  for (let rad = 0; rad < sum.length / 16; rad++) {
    const means: number[] = [];
    let count = 0;
    for (let p = 0; p < 16; p++) {
      const k = rad * 16 + p;
      count += n[k]!;
      if (n[k]! >= 6) means.push(sum[k]! / n[k]!);
    }
    if (means.length < 6) continue;
    const m = medianOf(means);
    amplitude.push(m);
    profile.push(m * Math.sqrt(count));
  }
  if (profile.length < 12) return 0;
  const mid = medianOf(profile);
  const spread = 1.4826 * medianOf(profile.map((v) => Math.abs(v - mid)));
  if (!(spread > 0)) return 0;
  // The amplitude (HU) of the radii that stand out of the profile's noise (|z| > 4): a faint circle in a very
  // quiet image is significant without being an artefact anyone would see.
  const standing = amplitude
    .filter((_, r) => Math.abs(profile[r]! - mid) / spread > 4)
    .map(Math.abs)
    .sort((x, y) => y - x);
  // The scoring rule (not the kernel) follows the engine's since: one standing ring counts, at a third.
  return ((standing[0] ?? 0) + (standing[1] ?? 0) + (standing[2] ?? 0)) / 3;
}
