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
