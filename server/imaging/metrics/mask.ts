import { histogram, otsuThreshold, type Histogram } from './histogram.ts';

/** Greyscale intensities of a volume: the values themselves, or the luminance of RGB voxels. */
export function luminance(data: Float32Array, channels: 1 | 3): Float32Array {
  if (channels === 1) return data;
  const out = new Float32Array(data.length / 3);
  for (let i = 0, o = 0; o < out.length; i += 3, o++)
    out[o] = 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
  return out;
}

/** Foreground (1) against background (0) by Otsu's threshold; `inverted` when the object is darker. */
export function foregroundMask(
  values: Float32Array,
  inverted = false,
  all: Histogram = histogram(values),
): { mask: Uint8Array; threshold: number } {
  const threshold = otsuThreshold(all);
  const mask = new Uint8Array(values.length);
  for (let i = 0; i < values.length; i++)
    mask[i] = (inverted ? values[i]! < threshold : values[i]! > threshold) ? 1 : 0;
  return { mask, threshold };
}

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
