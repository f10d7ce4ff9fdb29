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
 * The x-range of every row (`[start, end)` at 2·row, 2·row + 1, rows of all slices in order) that the voxels
 * within `radius` of the mask (a square, in-plane) cover; all of every row without a mask, empty rows as 0, 0.
 * A cheap bound of a dilation, for computing only the part of an image a measure will read.
 */
export function rowSpans(width: number, height: number, slices: number, radius: number, mask?: Uint8Array): Int32Array {
  const spans = new Int32Array(2 * height * slices);
  for (let row = 0; row < height * slices; row++) spans[2 * row + 1] = mask ? 0 : width;
  if (!mask) return spans;
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
  return spans;
}

/**
 * A binomial smoothing of the given order (the [1 2 1]/4 kernel applied order/2 times, variance order/4) in
 * x and y, as one separable pass each way: a wide smoothing at the cost of one. Edges are clamped. With
 * `spans` (see rowSpans), only those voxels are computed, the rest left 0: each computed voxel is the same to
 * the bit as in the whole smoothing.
 */
export function binomialSmooth(
  values: Float32Array,
  width: number,
  height: number,
  order: number,
  spans?: Int32Array,
): Float32Array {
  const taps = new Float64Array(order + 1);
  taps[0] = 1;
  for (let k = 1; k <= order; k++) for (let j = k; j > 0; j--) taps[j] = taps[j]! + taps[j - 1]!;
  const total = 2 ** order;
  for (let j = 0; j <= order; j++) taps[j] = taps[j]! / total;
  const half = order >> 1;
  const plane = width * height;
  const slices = plane ? Math.floor(values.length / plane) : 0;
  const want = spans ?? rowSpans(width, height, slices, 0);
  // The rows of the first pass that the second reads: each output row's span, over `half` rows either side.
  const need = new Int32Array(want.length);
  for (let z = 0; z < slices; z++)
    for (let y = 0; y < height; y++) {
      let lo = width,
        hi = 0;
      for (let v = Math.max(0, y - half), end = Math.min(height - 1, y + half); v <= end; v++) {
        const row = z * height + v;
        if (want[2 * row]! >= want[2 * row + 1]!) continue;
        if (want[2 * row]! < lo) lo = want[2 * row]!;
        if (want[2 * row + 1]! > hi) hi = want[2 * row + 1]!;
      }
      need[2 * (z * height + y)] = lo < hi ? lo : 0;
      need[2 * (z * height + y) + 1] = lo < hi ? hi : 0;
    }
  const tmp = new Float32Array(values.length);
  const out = new Float32Array(values.length);
  // A row padded with its clamped ends, so the kernel runs without bounds tests; the taps are symmetric.
  const padded = new Float64Array(width + order);
  const rows = new Int32Array(order + 1);
  for (let z = 0; z < slices; z++) {
    const o = z * plane;
    for (let y = 0; y < height; y++) {
      const row = z * height + y;
      const x0 = need[2 * row]!,
        x1 = need[2 * row + 1]!;
      if (x0 >= x1) continue;
      const r = o + y * width;
      for (let k = 0; k < half; k++) {
        padded[k] = values[r]!;
        padded[width + half + k] = values[r + width - 1]!;
      }
      for (let x = 0; x < width; x++) padded[half + x] = values[r + x]!;
      for (let x = x0; x < x1; x++) {
        const c = x + half;
        let sum = taps[half]! * padded[c]!;
        for (let j = 0; j < half; j++) sum += taps[j]! * (padded[c - half + j]! + padded[c + half - j]!);
        tmp[r + x] = sum;
      }
    }
    // Down the columns, each output summed in a register over its rows, tap after tap in the same order
    // (and so to the same bits) as a row of accumulators would.
    for (let y = 0; y < height; y++) {
      const row = z * height + y;
      const x0 = want[2 * row]!,
        x1 = want[2 * row + 1]!;
      if (x0 >= x1) continue;
      for (let j = 0; j <= order; j++) rows[j] = o + Math.min(height - 1, Math.max(0, y - half + j)) * width;
      const here = o + y * width;
      for (let x = x0; x < x1; x++) {
        let sum = 0;
        for (let j = 0; j <= order; j++) sum += taps[j]! * tmp[rows[j]! + x]!;
        out[here + x] = sum;
      }
    }
  }
  return out;
}

const smoothed = new WeakMap<Float32Array, Float32Array>();

/** Drops the smoothing kept for `values` (measureQuality does, once a check is done). */
export function forgetSmoothed(values: Float32Array): void {
  smoothed.delete(values);
}

/**
 * smoothInPlane of `values`, computed once per array: the sharpness and edge measures of one check all start
 * from the same sigma-1 image. The result is shared, so callers must not write to it.
 */
export function smoothedOnce(values: Float32Array, width: number, height: number): Float32Array {
  let out = smoothed.get(values);
  if (!out || out.length !== values.length) {
    out = smoothInPlane(values, width, height);
    smoothed.set(values, out);
  }
  return out;
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
  for (let z = 0; z < slices; z++) {
    const o = z * width * height;
    for (let y = 1; y < height - 1; y++) {
      for (let x = 1; x < width - 1; x++) {
        const i = o + y * width + x;
        if (!mask[i]) continue;
        const v = values[i - 1]! + values[i + 1]! + values[i - width]! + values[i + width]! - 4 * values[i]!;
        n++;
        sum += v;
        sumSq += v * v;
      }
    }
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
