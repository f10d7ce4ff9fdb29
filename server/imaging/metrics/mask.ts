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

let scratch = new Uint8Array(0);

/**
 * A buffer of at least `length` bytes (whole 4-byte words) for dilate's row pass, kept between calls: a check
 * dilates several masks of one size, and a fresh buffer each time only feeds the garbage collector. The row
 * pass writes every byte the column pass reads, so what a previous call left there does not matter.
 */
function rowScratch(length: number): Uint8Array {
  if (scratch.length < length) scratch = new Uint8Array((length + 3) & ~3);
  return scratch.subarray(0, length);
}

/**
 * Grows the mask by `radius` voxels in-plane (a square structuring element, slice by slice), so the
 * background used for noise excludes the blurred edge of the object. Each pass walks memory in order and
 * looks `radius` voxels ahead: a voxel is set when the last set voxel seen is at most `2 * radius` behind
 * the look-ahead, i.e. within `radius` of it on either side.
 */
export function dilate(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  const plane = width * height;
  const slices = plane ? Math.floor(mask.length / plane) : 0;
  const rows = rowScratch(mask.length);
  const out = new Uint8Array(mask.length);
  for (let base = 0, end = slices * plane; base < end; base += width) {
    // Position (in the row) of the last set voxel at or before x + radius.
    let last = -radius - 1;
    for (let j = 0; j < radius && j < width; j++) if (mask[base + j]) last = j;
    for (let x = 0; x < width; x++) {
      const j = x + radius;
      if (j < width && mask[base + j]) last = j;
      rows[base + x] = last >= x - radius ? 1 : 0;
    }
  }
  // Columns: a voxel is set when any of the rows within `radius` is set there. With whole 4-voxel words per
  // row (widths divisible by 4), rows are ORed a word at a time: the 0/1 bytes OR to 0/1 bytes.
  if (width % 4 === 0) {
    const words = width >> 2;
    const from = new Uint32Array(rows.buffer, rows.byteOffset, rows.length >> 2);
    const to = new Uint32Array(out.buffer, out.byteOffset, out.length >> 2);
    for (let z = 0; z < slices; z++) {
      const o = (z * plane) >> 2;
      for (let y = 0; y < height; y++) {
        const first = o + Math.max(0, y - radius) * words,
          last = o + Math.min(height - 1, y + radius) * words,
          here = o + y * words;
        for (let x = 0; x < words; x++) {
          let v = 0;
          for (let r = first + x; r <= last + x; r += words) v |= from[r]!;
          to[here + x] = v;
        }
      }
    }
    return out;
  }
  // Otherwise row after row: the last set row of every column, looked up `radius` rows ahead.
  const last = new Int32Array(width);
  for (let z = 0; z < slices; z++) {
    const o = z * plane;
    last.fill(-radius - 1);
    for (let j = 0; j < radius && j < height; j++)
      for (let x = 0, r = o + j * width; x < width; x++) if (rows[r + x]) last[x] = j;
    for (let y = 0; y < height; y++) {
      const j = y + radius;
      const ahead = o + j * width,
        here = o + y * width,
        low = y - radius;
      if (j < height) for (let x = 0; x < width; x++) if (rows[ahead + x]) last[x] = j;
      for (let x = 0; x < width; x++) out[here + x] = last[x]! >= low ? 1 : 0;
    }
  }
  return out;
}
