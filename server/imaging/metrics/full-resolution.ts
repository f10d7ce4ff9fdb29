import { GRID_SLICES } from './measurement-grid.ts';
import type { ImageVolume } from '../volume.ts';
import { scratchFloat32, scratchUint8 } from './scratch.ts';
import { forgetSmoothed } from './sharpness.ts';

/** A window of the image at its own resolution, with the grid's mask carried over. */
export interface FullResolutionCrop {
  values: Float32Array;
  width: number;
  height: number;
  mask: Uint8Array;
  /** Where the window starts in the image, in pixels. */
  x0: number;
  y0: number;
}

/**
 * The most voxels of a window's slice: 192×192. The edge widths measured on it judge the strongest tenth of
 * its gradients, thousands of voxels still. A 256×256 window took about 40% of an MR check and found the
 * same strong degradations, with the same false alarms, on the held-out and real-image tiers.
 */
const WINDOW_VOXELS = 192 * 192;

/** The values of the window the last call made (a view of the buffer the next call overwrites). */
let lastWindow: Float32Array | undefined;

/**
 * The image at full resolution in a window about its centre (at most WINDOW_VOXELS a slice), on the slices
 * the grid measures, with `gridMask` mapped onto it from the grid. The grid samples every s-th voxel of a
 * large image, which makes an edge a few pixels wide look narrower than the smoothing scales that judge it;
 * the window keeps the pixels, at a little over half the grid's cost. Grey values only (the
 * measures that use it are of grey modalities); a non-finite voxel takes the grid's (finite) value at its
 * place in `gridValues`, so a window that is all NaN in an otherwise finite image is still measured. The
 * window's arrays are work buffers that the next call overwrites: it is for one check's measures.
 */
export function fullResolutionCrop(
  whole: ImageVolume,
  stride: number,
  gridWidth: number,
  gridHeight: number,
  gridValues: Float32Array,
  gridMask: Uint8Array,
): FullResolutionCrop {
  const { width, height, depth } = whole;
  const cw = Math.min(width, 192);
  const ch = Math.min(height, Math.floor(WINDOW_VOXELS / cw));
  const x0 = (width - cw) >> 1,
    y0 = (height - ch) >> 1;
  const slices =
    depth <= GRID_SLICES
      ? Array.from({ length: depth }, (_, z) => z)
      : Array.from({ length: GRID_SLICES }, (_, i) => Math.floor(((i + 0.5) * depth) / GRID_SLICES));
  // Buffers kept between calls (every element is written below): a window is measured within one check. The
  // last window's smoothing, if any, is given back as its values are overwritten.
  if (lastWindow) forgetSmoothed(lastWindow);
  const values = scratchFloat32('crop-values', cw * ch * slices.length);
  lastWindow = values;
  const mask = scratchUint8('crop-mask', values.length);
  const gridPlane = gridWidth * gridHeight;
  const step = whole.channels;
  // The grid column of every column of the window, worked out once rather than at every voxel.
  const gridColumn = new Int32Array(cw);
  for (let x = x0; x < x0 + cw; x++) gridColumn[x - x0] = Math.min(gridWidth - 1, Math.floor(x / stride));
  const data = whole.data;
  let o = 0;
  for (const [k, z] of slices.entries())
    for (let y = y0; y < y0 + ch; y++, o += cw) {
      const row = (z * height + y) * width;
      const gridRow = k * gridPlane + Math.min(gridHeight - 1, Math.floor(y / stride)) * gridWidth;
      // A grey image's row is copied as a block; the samples of interleaved channels one by one.
      if (step === 1) values.set(data.subarray(row + x0, row + x0 + cw), o);
      else for (let x = 0; x < cw; x++) values[o + x] = data[(row + x0 + x) * step]!;
      // A non-finite voxel takes the finite value the grid gave its neighbourhood (the grid's are all finite).
      for (let x = 0; x < cw; x++) {
        const v = values[o + x]!;
        if (v - v !== 0) values[o + x] = gridValues[gridRow + gridColumn[x]!]!;
      }
      // Rows that fall on the same grid row (the grid takes every `stride`-th) have the same mask.
      if (y > y0 && Math.min(gridHeight - 1, Math.floor((y - 1) / stride)) * gridWidth === gridRow - k * gridPlane)
        mask.copyWithin(o, o - cw, o);
      else for (let x = 0; x < cw; x++) mask[o + x] = gridMask[gridRow + gridColumn[x]!]!;
    }
  return { values, width: cw, height: ch, mask, x0, y0 };
}
