import { histogram, otsuThreshold, type Histogram } from './histogram.ts';
import { type MaskBits, morphBits, packMask, unpackMask } from './mask-bits.ts';

/** Greyscale intensities of a volume: the values themselves, or the luminance of RGB voxels. */
export function luminance(data: Float32Array, channels: 1 | 3): Float32Array {
  if (channels === 1) return data;
  const out = new Float32Array(data.length / 3);
  for (let i = 0, o = 0; o < out.length; i += 3, o++)
    out[o] = 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
  return out;
}

/**
 * Foreground (1) against background (0) by Otsu's threshold; `inverted` when the object is darker. The mask
 * comes as bytes and as packed bits (for dilations), both written by the one pass.
 */
export function foregroundMask(
  values: Float32Array,
  inverted = false,
  all: Histogram = histogram(values),
  width = values.length,
  height = 1,
): { mask: Uint8Array; bits: MaskBits; threshold: number } {
  const threshold = otsuThreshold(all);
  const mask = new Uint8Array(values.length);
  const plane = width * height;
  const slices = plane ? Math.floor(values.length / plane) : 0;
  const words = (width + 31) >> 5;
  const bits = new Int32Array(words * height * slices);
  for (let row = 0, i = 0, rows = height * slices; row < rows; row++)
    for (let k = row * words, x = 0; x < width; k++) {
      let word = 0;
      for (let b = 0; b < 32 && x < width; b++, x++, i++) {
        const v = values[i]!;
        const on = (inverted ? v < threshold : v > threshold) ? 1 : 0;
        mask[i] = on;
        word |= on << b;
      }
      bits[k] = word;
    }
  // Voxels past the last whole slice belong to no slice's bits; their bytes are set all the same.
  for (let i = slices * plane; i < values.length; i++)
    mask[i] = (inverted ? values[i]! < threshold : values[i]! > threshold) ? 1 : 0;
  return { mask, bits: { bits, words, width, height, slices }, threshold };
}

/**
 * Grows the mask by `radius` voxels in-plane (a square structuring element, slice by slice), so the
 * background used for noise excludes the blurred edge of the object: on packed bits (mask-bits.ts), 32
 * voxels a word operation, written back as bytes.
 */
export function dilate(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  return dilateBits(packMask(mask, width, height), mask.length, radius).mask;
}

/**
 * The packed mask `m` (of a volume of `length` voxels) grown by `radius` voxels in-plane, as bits and bytes;
 * the bytes are written into `out` when given (a work buffer of `length`), else into a new array.
 */
export function dilateBits(
  m: MaskBits,
  length: number,
  radius: number,
  out?: Uint8Array,
): { mask: Uint8Array; bits: MaskBits } {
  const grown = morphBits(m, radius, false);
  const mask = out ?? new Uint8Array(length);
  unpackMask(grown, mask);
  // Voxels past the last whole slice belong to no row of bits: unset, as in a new array.
  if (out) mask.fill(0, grown.width * grown.height * grown.slices, length);
  return { mask, bits: grown };
}
