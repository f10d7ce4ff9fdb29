/** Binomial smoothing ([1 2 1]/4, twice, in x and y: a Gaussian of sigma 1) of each slice. */
export function smoothInPlane(values: Float32Array, width: number, height: number): Float32Array {
  const out = values.slice();
  const tmp = new Float32Array(values.length);
  const slices = values.length / (width * height);
  for (let pass = 0; pass < 2; pass++) {
    for (let z = 0; z < slices; z++) {
      const o = z * width * height;
      for (let y = 0; y < height; y++) {
        const r = o + y * width;
        for (let x = 0; x < width; x++)
          tmp[r + x] = (out[r + Math.max(0, x - 1)]! + 2 * out[r + x]! + out[r + Math.min(width - 1, x + 1)]!) / 4;
      }
      for (let y = 0; y < height; y++) {
        const up = o + Math.max(0, y - 1) * width,
          here = o + y * width,
          down = o + Math.min(height - 1, y + 1) * width;
        for (let x = 0; x < width; x++) out[here + x] = (tmp[up + x]! + 2 * tmp[here + x]! + tmp[down + x]!) / 4;
      }
    }
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
  const values = smoothInPlane(raw, width, height);
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
