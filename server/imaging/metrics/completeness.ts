import type { ImageVolume } from '../volume.ts';

/** Whether every sample of `data[from, to)` (a slice, all channels) holds one value (NaN counting as one too). */
function sliceIsBlank(data: Float32Array, from: number, to: number): boolean {
  const first = data[from]!;
  // A slice with an image differs from its first sample within a few voxels: the loop ends there.
  if (first === first) {
    for (let i = from + 1; i < to; i++) if (data[i] !== first) return false;
  } else for (let i = from + 1; i < to; i++) if (data[i] === data[i]) return false;
  return true;
}

/**
 * Slices of a volume that hold no image (one value throughout) between slices that do: a slice lost in
 * conversion or transfer and filled with zeros. Blank slices at either end are left out: volumes are often
 * padded there. Every slice of the whole volume is read (not only the grid's), up to its first differing sample.
 * @example blankInteriorSlices(volume) // 0 for a complete volume
 */
export function blankInteriorSlices(volume: ImageVolume): number {
  const plane = volume.width * volume.height * volume.channels;
  const blank = Array.from({ length: volume.depth }, (_, z) => sliceIsBlank(volume.data, z * plane, (z + 1) * plane));
  const first = blank.indexOf(false),
    last = blank.lastIndexOf(false);
  return first < 0 ? 0 : blank.slice(first, last + 1).filter(Boolean).length;
}
