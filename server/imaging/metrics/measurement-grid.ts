import type { ImageVolume } from '../volume.ts';
import { finiteWithRange } from './finite.ts';
import { scratchFloat32 } from './scratch.ts';

/** At most this many voxels per slice are measured (a 256×256 grid). */
export const GRID_SLICE_VOXELS = 65_536;
/** At most this many slices of a volume are measured, evenly spaced. */
export const GRID_SLICES = 16;

/** Every how many voxels in-plane the grid samples an image of this size. */
export function gridStride(width: number, height: number): number {
  return Math.max(1, Math.ceil(Math.sqrt((width * height) / GRID_SLICE_VOXELS)));
}

/**
 * The voxels the metrics are computed on: every s-th voxel in-plane (s chosen so a slice has at most
 * 65 536) of at most 16 evenly spaced slices. Point sampling keeps noise statistics intact (no averaging),
 * and fixes the scale sharpness is judged at, whatever the matrix size; a 256×256 image is used whole.
 */
export function measurementGrid(volume: ImageVolume): ImageVolume {
  return sampledGrid(volume).grid;
}

/**
 * The measurement grid with its values made finite as finiteValues makes them, and their smallest and largest
 * value: the copy of the grid's voxels notes their range as it goes, so a finite image (nearly all) needs no
 * pass of its own to check them. Throws UnmeasurableImageError when no value is finite. With `reuse` the copy
 * lives in a work buffer that the next call overwrites (measureQuality's: it is done with the grid by then).
 */
export function finiteMeasurementGrid(
  volume: ImageVolume,
  reuse = false,
): { grid: ImageVolume; min: number; max: number } {
  const { grid, range } = sampledGrid(volume, reuse);
  if (range) return { grid, ...range };
  const finite = finiteWithRange(grid.data);
  return { grid: { ...grid, data: finite.values }, min: finite.min, max: finite.max };
}

/**
 * The grid, and the range of its values when it is a copy and every value is finite. With `reuse`, a copy is
 * written into a work buffer kept between calls (for a caller done with the grid before the next call).
 */
function sampledGrid(volume: ImageVolume, reuse = false): { grid: ImageVolume; range?: { min: number; max: number } } {
  const { width, height, depth, channels } = volume;
  const stride = gridStride(width, height);
  const slices =
    depth <= GRID_SLICES
      ? Array.from({ length: depth }, (_, z) => z)
      : Array.from({ length: GRID_SLICES }, (_, i) => Math.floor(((i + 0.5) * depth) / GRID_SLICES));
  if (stride === 1 && slices.length === depth) return { grid: volume };
  const w = Math.ceil(width / stride);
  const h = Math.ceil(height / stride);
  const length = w * h * slices.length * channels;
  // Every element is written below.
  const data = reuse ? scratchFloat32('measurement-grid', length) : new Float32Array(length);
  const src = volume.data;
  let o = 0,
    min = Infinity,
    max = -Infinity,
    bad = 0;
  for (const z of slices) {
    for (let y = 0; y < height; y += stride) {
      const row = (z * height + y) * width;
      // Grey images (nearly all) without the loop over channels. NaN fails every comparison, so it is looked
      // for only where a value is not at least the smallest so far (rarely true: a branch well predicted);
      // ±Infinity ends up as the smallest or largest, and is found after the loop.
      if (channels === 1)
        for (let i = row, end = row + width; i < end; i += stride) {
          const v = src[i]!;
          data[o++] = v;
          if (!(v >= min)) {
            if (v !== v) bad++;
            else min = v;
          }
          if (v > max) max = v;
        }
      else
        for (let x = 0; x < width; x += stride)
          for (let c = 0; c < channels; c++) {
            const v = src[(row + x) * channels + c]!;
            data[o++] = v;
            if (v - v !== 0) bad++;
            else {
              if (v < min) min = v;
              if (v > max) max = v;
            }
          }
    }
  }
  const [sx, sy, sz] = volume.spacing;
  const grid = {
    ...volume,
    width: w,
    height: h,
    depth: slices.length,
    data,
    spacing: [sx * stride, sy * stride, (sz * depth) / slices.length] as [number, number, number],
  };
  if (min === -Infinity || max === Infinity) bad++;
  return { grid, range: bad === 0 && data.length > 0 && min <= max ? { min, max } : undefined };
}
