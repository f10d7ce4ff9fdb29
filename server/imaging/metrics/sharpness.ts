import { scratchFloat32, scratchInt32 } from './scratch.ts';

/**
 * Binomial smoothing ([1 2 1]/4, twice, in x and y: a Gaussian of sigma 1) of each slice, edges clamped.
 * The first and last voxel of each line are handled apart, so the inner loops carry no bounds tests.
 */
export function smoothInPlane(values: Float32Array, width: number, height: number): Float32Array {
  return smoothNoting(values, width, height, new Float32Array(values.length))[0];
}

/**
 * smoothInPlane into `out` (every element is written when the values are whole slices), and whether every
 * value was found to be a small whole number (see smoothIntegers).
 */
function smoothNoting(values: Float32Array, width: number, height: number, out: Float32Array): [Float32Array, boolean] {
  // Every row of the temporary is written by the x pass before the y pass reads it.
  const tmp = scratchFloat32('smooth-rows', values.length);
  const plane = width * height;
  if (width >= 4 && height >= 4 && values.length % plane === 0 && smoothIntegers(values, width, height, tmp, out))
    return [out, true];
  const slices = plane ? values.length / plane : 0;
  for (let pass = 0; pass < 2; pass++) {
    // The first pass reads the input itself rather than a copy of it.
    const from = pass === 0 ? values : out;
    for (let z = 0; z < slices; z++) {
      const o = z * plane;
      for (let y = 0; y < height; y++) {
        const r = o + y * width;
        if (width === 1) {
          tmp[r] = from[r]!;
          continue;
        }
        tmp[r] = (3 * from[r]! + from[r + 1]!) / 4;
        for (let i = r + 1, end = r + width - 1; i < end; i++)
          tmp[i] = (from[i - 1]! + 2 * from[i]! + from[i + 1]!) / 4;
        tmp[r + width - 1] = (from[r + width - 2]! + 3 * from[r + width - 1]!) / 4;
      }
      for (let y = 0; y < height; y++) {
        const up = o + (y > 0 ? y - 1 : 0) * width,
          here = o + y * width,
          down = o + (y < height - 1 ? y + 1 : y) * width;
        for (let x = 0; x < width; x++) out[here + x] = (tmp[up + x]! + 2 * tmp[here + x]! + tmp[down + x]!) / 4;
      }
    }
  }
  return [out, false];
}

/** Whether `v` is not a whole number of magnitude at most 65 535 (as stored images of up to 16 bits hold). */
function notSmallInteger(v: number): boolean {
  return (v | 0) !== v || v > 65535 || v < -65535;
}

/**
 * smoothInPlane of an image of whole numbers up to 65 535 in magnitude, to the bit, with half the work. Each
 * of smoothInPlane's four passes divides by 4 a sum of whole numbers or quarters, so its values are multiples
 * of 1/4, 1/16, 1/64 and 1/256 under 2^16 in magnitude: 24 bits at most, held exactly in single precision.
 * Nothing is rounded then, and the passes, linear and separable, may be taken in any grouping: the two x
 * passes as one kernel [1 4 6 4 1] (by a cascade of four pairwise sums), then the two y passes as one, a
 * single division by 256 at the end. Near the ends the clamped passes compose to other weights (10 5 1 and
 * 5 6 4 1 over 16), written out. Needs 4 voxels a side. The values are checked as the x pass reads
 * them (no pass of its own): false, with `out` partly written, at the first that is not such a number.
 */
function smoothIntegers(
  values: Float32Array,
  width: number,
  height: number,
  tmp: Float32Array,
  out: Float32Array,
): boolean {
  const plane = width * height;
  const w = width;
  for (let o = 0; o + plane <= values.length; o += plane) {
    // x: sixteen times the two passes' value, a whole number under 2^21 (exact in tmp).
    for (let r = o; r < o + plane; r += w) {
      const a0 = values[r]!,
        a1 = values[r + 1]!,
        a2 = values[r + 2]!,
        a3 = values[r + 3]!;
      if (notSmallInteger(a0) || notSmallInteger(a1) || notSmallInteger(a2) || notSmallInteger(a3)) return false;
      tmp[r] = 10 * a0 + 5 * a1 + a2;
      tmp[r + 1] = 5 * a0 + 6 * a1 + 4 * a2 + a3;
      // Stage k holds the sum of the last k + 1 samples weighted by the binomial of order k + 1.
      let p0 = a3,
        p1 = a2 + a3,
        p2 = a1 + 2 * a2 + a3,
        p3 = a0 + 3 * a1 + 3 * a2 + a3;
      for (let x = 4; x < w; x++) {
        const u = values[r + x]!;
        if (notSmallInteger(u)) return false;
        const s1 = u + p0;
        p0 = u;
        const s2 = s1 + p1;
        p1 = s1;
        const s3 = s2 + p2;
        p2 = s2;
        tmp[r + x - 2] = s3 + p3;
        p3 = s3;
      }
      const b3 = values[r + w - 4]!,
        b2 = values[r + w - 3]!,
        b1 = values[r + w - 2]!,
        b0 = values[r + w - 1]!;
      tmp[r + w - 2] = b3 + 4 * b2 + 6 * b1 + 5 * b0;
      tmp[r + w - 1] = b2 + 5 * b1 + 10 * b0;
    }
    // y: the same weights down the columns, row by row; the sums are whole numbers under 2^24.
    const last = o + plane - w;
    for (let x = 0; x < w; x++) {
      const i = o + x;
      const a0 = tmp[i]!,
        a1 = tmp[i + w]!,
        a2 = tmp[i + 2 * w]!,
        a3 = tmp[i + 3 * w]!;
      out[i] = (10 * a0 + 5 * a1 + a2) / 256;
      out[i + w] = (5 * a0 + 6 * a1 + 4 * a2 + a3) / 256;
      const j = last + x;
      const b3 = tmp[j - 3 * w]!,
        b2 = tmp[j - 2 * w]!,
        b1 = tmp[j - w]!,
        b0 = tmp[j]!;
      out[j - w] = (b3 + 4 * b2 + 6 * b1 + 5 * b0) / 256;
      out[j] = (b2 + 5 * b1 + 10 * b0) / 256;
    }
    for (let r = o + 2 * w; r < last - w; r += w)
      for (let i = r, end = r + w; i < end; i++)
        out[i] = (tmp[i - 2 * w]! + 4 * tmp[i - w]! + 6 * tmp[i]! + 4 * tmp[i + w]! + tmp[i + 2 * w]!) / 256;
  }
  return true;
}

/**
 * The x-range of every row (`[start, end)` at 2·row, 2·row + 1, rows of all slices in order) that the voxels
 * within `radius` of the mask (a square, in-plane) cover; all of every row without a mask, empty rows as 0, 0.
 * A cheap bound of a dilation, for computing only the part of an image a measure will read.
 */
export function rowSpans(width: number, height: number, slices: number, radius: number, mask?: Uint8Array): Int32Array {
  return rowSpansAt(width, height, slices, [radius], mask)[0]!;
}

/** rowSpans for each of `radii`, from one scan of the mask's rows (each row's extent serves every radius). */
export function rowSpansAt(
  width: number,
  height: number,
  slices: number,
  radii: readonly number[],
  mask?: Uint8Array,
): Int32Array[] {
  const all = radii.map(() => {
    const spans = new Int32Array(2 * height * slices);
    for (let row = 0; row < height * slices; row++) spans[2 * row + 1] = mask ? 0 : width;
    return spans;
  });
  if (!mask) return all;
  const first = new Int32Array(height).fill(width),
    last = new Int32Array(height).fill(-1);
  for (let z = 0; z < slices; z++) {
    for (let y = 0; y < height; y++) {
      const r = (z * height + y) * width;
      let x0 = 0;
      while (x0 < width && !mask[r + x0]) x0++;
      first[y] = x0;
      if (x0 === width) {
        last[y] = -1;
        continue;
      }
      let x1 = width - 1;
      while (!mask[r + x1]) x1--;
      last[y] = x1;
    }
    for (const [k, radius] of radii.entries()) {
      const spans = all[k]!;
      for (let y = 0; y < height; y++) {
        let lo = width,
          hi = -1;
        for (let v = Math.max(0, y - radius), end = Math.min(height - 1, y + radius); v <= end; v++) {
          if (first[v]! < lo) lo = first[v]!;
          if (last[v]! > hi) hi = last[v]!;
        }
        if (hi < 0) continue;
        const row = z * height + y;
        spans[2 * row] = Math.max(0, lo - radius);
        spans[2 * row + 1] = Math.min(width, hi + radius + 1);
      }
    }
  }
  return all;
}

/**
 * The runs of `mask` (all voxels without one) along each row, off the image's border and within the row's
 * span (see rowSpans; the whole row without spans): `[start, end)` voxel indices in pairs, row by row in order, row r's from
 * `firstRun[r]` to `firstRun[r + 1]`. Kept in work buffers: valid until the next call.
 */
export function maskRuns(
  width: number,
  height: number,
  slices: number,
  spans: Int32Array | undefined,
  mask?: Uint8Array,
): { runs: Int32Array; firstRun: Int32Array } {
  const rows = height * slices;
  const firstRun = scratchInt32('mask-run-rows', rows + 1);
  // A row of w voxels holds at most w / 2 + 1 runs.
  const runs = scratchInt32('mask-runs', rows * (width + 2));
  let n = 0;
  for (let row = 0; row < rows; row++) {
    firstRun[row] = n;
    const y = row % height;
    if (y < 1 || y >= height - 1) continue;
    const start = row * width;
    const hi = start + Math.min(width - 1, spans ? spans[2 * row + 1]! : width);
    let x = start + Math.max(1, spans ? spans[2 * row]! : 0);
    if (!mask) {
      if (x < hi) {
        runs[n++] = x;
        runs[n++] = hi;
      }
      continue;
    }
    while (x < hi) {
      while (x < hi && !mask[x]) x++;
      if (x >= hi) break;
      runs[n++] = x;
      while (x < hi && mask[x]) x++;
      runs[n++] = x;
    }
  }
  firstRun[rows] = n;
  return { runs, firstRun };
}

/** The order of binomialSmooth's kernel, as used by the edge width (variance 3). */
export const BINOMIAL_ORDER = 12;

/**
 * One line of `n` samples (at `src[start + t * stride]`) smoothed by the binomial kernel of order 12, ends
 * clamped, written to `dst` at the same places. The kernel is [1 1] applied twelve times: a cascade of twelve
 * pairwise sums kept in registers, then one division by 4096. The binomial weights are integers, so wherever
 * a window's sum is exact in double precision (any image of integers, and floats of like magnitude) this is
 * the same to the bit as the weighted sum tap by tap, at half the arithmetic and none of its multiplications.
 * Only the outputs at [from, to) are written.
 */
function binomialLine(
  src: Float32Array,
  dst: Float32Array,
  start: number,
  stride: number,
  n: number,
  from = 0,
  to = n,
): void {
  const first = src[start]!,
    last = src[start + (n - 1) * stride]!;
  // Stage k holds the sum of the last 2^k-weighted window; p(k) is its value one sample back. The twelve
  // stages run as three cascades of four, each a sample behind the one before (c and d carry stage 4's and
  // stage 8's latest sums over to the next sample): every stage adds the same two numbers as in one cascade,
  // but a sample's twelve additions form three short chains instead of one long one, which the processor
  // can overlap. The first fourteen outputs are incomplete and not written. The cascade remembers twelve
  // samples and no more, so starting it at `from` gives the outputs from there on exactly as a start at 0 would.
  let p0 = 0,
    p1 = 0,
    p2 = 0,
    p3 = 0,
    c = 0,
    p4 = 0,
    p5 = 0,
    p6 = 0,
    p7 = 0,
    d = 0,
    p8 = 0,
    p9 = 0,
    p10 = 0,
    p11 = 0;
  for (let t = from; t < to + 14; t++) {
    const x = t - 6;
    const u = x < 0 ? first : x >= n ? last : src[start + x * stride]!;
    // Stages 9–12 of sample t - 2.
    const a9 = d + p8;
    p8 = d;
    const a10 = a9 + p9;
    p9 = a9;
    const a11 = a10 + p10;
    p10 = a10;
    const a12 = a11 + p11;
    p11 = a11;
    // Stages 5–8 of sample t - 1.
    const a5 = c + p4;
    p4 = c;
    const a6 = a5 + p5;
    p5 = a5;
    const a7 = a6 + p6;
    p6 = a6;
    d = a7 + p7;
    p7 = a7;
    // Stages 1–4 of sample t.
    const a1 = u + p0;
    p0 = u;
    const a2 = a1 + p1;
    p1 = a1;
    const a3 = a2 + p2;
    p2 = a2;
    c = a3 + p3;
    p3 = a3;
    if (t >= from + 14) dst[start + (t - 14) * stride] = a12 / 4096;
  }
}

/**
 * The binomial smoothing of order 12 (the [1 2 1]/4 kernel applied six times, variance 3) in x and y, edges
 * clamped, each line by binomialLine. With `spans` (see rowSpans), only rows and columns that reach a span
 * are computed: every voxel within the spans is right, others are left unspecified. The result is written to
 * `into` when given (a buffer the caller reuses; outside what is computed it keeps what it held), else to a new
 * array, zero outside what is computed.
 */
export function binomialSmooth(
  values: Float32Array,
  width: number,
  height: number,
  spans?: Int32Array,
  into?: Float32Array,
): Float32Array {
  const plane = width * height;
  const slices = plane ? Math.floor(values.length / plane) : 0;
  const half = BINOMIAL_ORDER >> 1;
  // The row pass writes every row within `half` of a span's, all the column pass reads for a voxel within
  // the spans; what the other rows hold (a previous call's values) reaches only voxels left unspecified.
  const tmp = scratchFloat32('binomial-rows', values.length);
  const out = into ?? new Float32Array(values.length);
  for (let z = 0; z < slices; z++) {
    const o = z * plane;
    // The rows the column pass reads (within `half` of a span's row) and the columns that hold a span.
    let y0 = height,
      y1 = -1,
      x0 = width,
      x1 = 0;
    for (let y = 0; y < height; y++) {
      const row = z * height + y;
      const a = spans ? spans[2 * row]! : 0,
        b = spans ? spans[2 * row + 1]! : width;
      if (a >= b) continue;
      y0 = Math.min(y0, y);
      y1 = y;
      x0 = Math.min(x0, a);
      x1 = Math.max(x1, b);
    }
    if (y1 < 0) continue;
    // Rows only where the column pass reads them (columns x0 to x1), columns only at the spans' rows.
    for (let y = Math.max(0, y0 - half), end = Math.min(height - 1, y1 + half); y <= end; y++)
      binomialLine(values, tmp, o + y * width, 1, width, x0, x1);
    for (let x = x0; x < x1; x++) binomialLine(tmp, out, o + x, width, height, y0, y1 + 1);
  }
  return out;
}

const smoothed = new WeakMap<Float32Array, Float32Array>();
/** The arrays smoothedOnce found to hold small whole numbers only. */
const wholeNumbers = new WeakSet<Float32Array>();
/**
 * Smoothings given back by forgetSmoothed, for the next smoothedOnce to fill: a new array of an image's size
 * costs a zeroing pass and fresh pages from the system, every check.
 */
const spare: Float32Array[] = [];
/** The most smoothings kept for reuse (a check smooths its grid and at most one window). */
const SPARE_SMOOTHINGS = 4;

/**
 * Drops the smoothing and what it found kept for `values` (measureQuality does, once a check is done); the
 * smoothing's array is reused by a later smoothedOnce, so it must no longer be read.
 */
export function forgetSmoothed(values: Float32Array): void {
  const out = smoothed.get(values);
  if (out && spare.length < SPARE_SMOOTHINGS) spare.push(out);
  smoothed.delete(values);
  wholeNumbers.delete(values);
}

/**
 * smoothInPlane of `values`, computed once per array: the sharpness and edge measures of one check all start
 * from the same sigma-1 image. The result is shared, so callers must not write to it.
 */
export function smoothedOnce(values: Float32Array, width: number, height: number): Float32Array {
  let out = smoothed.get(values);
  if (!out || out.length !== values.length) {
    const plane = width * height;
    // A spare array is filled whole only when the values are whole slices; else a new one, zero where unwritten.
    const at = plane > 0 && values.length % plane === 0 ? spare.findIndex((a) => a.length === values.length) : -1;
    const into = at >= 0 ? spare.splice(at, 1)[0]! : new Float32Array(values.length);
    let whole: boolean;
    [out, whole] = smoothNoting(values, width, height, into);
    smoothed.set(values, out);
    if (whole) wholeNumbers.add(values);
    else wholeNumbers.delete(values);
  }
  return out;
}

/**
 * Whether smoothedOnce, already run on `values`, found every value a whole number of magnitude at most 65 535:
 * sums of such values with small whole weights are exact in any order, so a measure may add them in a
 * cheaper order and give the same bits. False when it was not run (a check of its own would cost what the
 * cheaper order saves).
 */
export function knownSmallWholeNumbers(values: Float32Array): boolean {
  return wholeNumbers.has(values);
}

/**
 * Variance of the 4-neighbour Laplacian over the voxels of `mask` (in-plane, slice by slice) of the image
 * smoothed at sigma 1, so white noise adds little, divided by the squared intensity span so it does not
 * depend on units or gain: the higher, the sharper.
 */
export function laplacianVariance(
  raw: Float32Array,
  width: number,
  height: number,
  mask: Uint8Array,
  span: number,
): number {
  const values = smoothedOnce(raw, width, height);
  const slices = values.length / (width * height);
  let n = 0,
    sum = 0,
    sumSq = 0;
  // The mask's voxels off the border, run by run in scan order, without a test per voxel.
  const { runs, firstRun } = maskRuns(width, height, Math.floor(slices), undefined, mask);
  for (let r = 0, last = firstRun[firstRun.length - 1]!; r < last; r += 2)
    for (let i = runs[r]!, end = runs[r + 1]!; i < end; i++) {
      const v = values[i - 1]! + values[i + 1]! + values[i - width]! + values[i + width]! - 4 * values[i]!;
      n++;
      sum += v;
      sumSq += v * v;
    }
  if (n === 0 || span <= 0) return 0;
  const mean = sum / n;
  return (sumSq / n - mean * mean) / (span * span);
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
  const plane = width * height;
  const slices = plane ? values.length / plane : 0;
  const hx = width >> 1,
    hy = height >> 1;
  // Both directions in one pass, each with its own sums added in scan order (the same order, and so the
  // same bits, as one pass per direction). The shifted voxel wraps around: x + hx, less the width past it.
  let ghostX = 0,
    ghostXN = 0,
    restX = 0,
    restXN = 0,
    ghostY = 0,
    ghostYN = 0,
    restY = 0,
    restYN = 0;
  for (let z = 0; z < slices; z++) {
    const o = z * plane;
    for (let y = 0; y < height; y++) {
      const row = o + y * width;
      const shiftedRow = o + (y + hy < height ? y + hy : y + hy - height) * width;
      for (let x = 0; x < width; x++) {
        const i = row + x;
        if (grown[i]) continue;
        const v = values[i]!;
        if (object[row + (x + hx < width ? x + hx : x + hx - width)]) {
          ghostX += v;
          ghostXN++;
        } else {
          restX += v;
          restXN++;
        }
        if (object[shiftedRow + x]) {
          ghostY += v;
          ghostYN++;
        } else {
          restY += v;
          restYN++;
        }
      }
    }
  }
  let worst = 0;
  if (ghostXN > 0 && restXN > 0) worst = Math.max(worst, (ghostX / ghostXN - restX / restXN) / foregroundMean);
  if (ghostYN > 0 && restYN > 0) worst = Math.max(worst, (ghostY / ghostYN - restY / restYN) / foregroundMean);
  return worst;
}
