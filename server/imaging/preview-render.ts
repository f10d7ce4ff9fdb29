import sharp from 'sharp';
import type { PreviewAxis } from '../../contract/imaging.ts';
import { histogram, percentile } from './metrics/histogram.ts';
import { luminance } from './metrics/mask.ts';
import type { ImageVolume } from './volume.ts';

/** Widest preview the server renders. */
export const PREVIEW_MAX_WIDTH = 512;

/** One 2D cut of a volume, rows top to bottom, with the physical size of its pixels. */
export interface VolumeSlice {
  width: number;
  height: number;
  channels: 1 | 3;
  values: Float32Array;
  pixelWidth: number;
  pixelHeight: number;
}

/** How many slices a volume has along an axis (x for sagittal, y for coronal, z for axial). */
export function sliceCount(volume: ImageVolume, axis: PreviewAxis): number {
  return axis === 'sagittal' ? volume.width : axis === 'coronal' ? volume.height : volume.depth;
}

/**
 * Cuts slice `index` along `axis`. NIfTI and NRRD store rows bottom-up (y towards anterior, z towards
 * superior), so their rows are flipped to show up as up; DICOM rows and frames are already top-down.
 */
export function extractSlice(volume: ImageVolume, axis: PreviewAxis, index: number): VolumeSlice {
  const { width: w, height: h, depth: d, channels: c, data } = volume;
  const flipUp = volume.format === 'nii' || volume.format === 'nrrd';
  const [cols, rows] = axis === 'axial' ? [w, h] : axis === 'coronal' ? [w, d] : [h, d];
  const values = new Float32Array(cols * rows * c);
  for (let r = 0; r < rows; r++) {
    // For NIfTI/NRRD the last row is anterior (axial) or superior (coronal, sagittal): it goes on top.
    const row = flipUp ? rows - 1 - r : r;
    for (let col = 0; col < cols; col++) {
      const [x, y, z] =
        axis === 'axial' ? [col, row, index] : axis === 'coronal' ? [col, index, row] : [index, col, row];
      const from = ((z * h + y) * w + x) * c;
      const to = (r * cols + col) * c;
      for (let k = 0; k < c; k++) values[to + k] = data[from + k]!;
    }
  }
  const [sx, sy, sz] = volume.spacing;
  const [pixelWidth, pixelHeight] = axis === 'axial' ? [sx, sy] : axis === 'coronal' ? [sx, sz] : [sy, sz];
  return { width: cols, height: rows, channels: c, values, pixelWidth, pixelHeight };
}

/** The grey levels shown black and white: the file's window when it has one, else the 0.5–99.5 percentiles. */
export function displayRange(volume: ImageVolume): [number, number] {
  if (volume.window)
    return [volume.window.center - volume.window.width / 2, volume.window.center + volume.window.width / 2];
  if (volume.channels === 3) return [0, volume.bitDepth > 8 ? 65535 : 255];
  const h = histogram(luminance(volume.data, volume.channels));
  const low = percentile(h, 0.5);
  const high = percentile(h, 99.5);
  return high > low ? [low, high] : [h.min, h.max > h.min ? h.max : h.min + 1];
}

/** Renders one slice as a PNG at most 512 px wide, windowed, with square physical pixels. */
export async function renderSlicePng(
  volume: ImageVolume,
  axis: PreviewAxis,
  index: number,
  range = displayRange(volume),
): Promise<Buffer> {
  const slice = extractSlice(volume, axis, index);
  const [low, high] = range;
  const scale = 255 / Math.max(1e-9, high - low);
  const bytes = new Uint8Array(slice.values.length);
  for (let i = 0; i < bytes.length; i++) {
    const v = Math.round((slice.values[i]! - low) * scale);
    const clamped = v < 0 ? 0 : v > 255 ? 255 : v;
    bytes[i] = volume.invert ? 255 - clamped : clamped;
  }
  const aspect = slice.pixelHeight / (slice.pixelWidth || 1);
  let outWidth = slice.width;
  let outHeight = Math.max(1, Math.round(slice.height * (Number.isFinite(aspect) && aspect > 0 ? aspect : 1)));
  if (outWidth > PREVIEW_MAX_WIDTH) {
    outHeight = Math.max(1, Math.round((outHeight * PREVIEW_MAX_WIDTH) / outWidth));
    outWidth = PREVIEW_MAX_WIDTH;
  }
  outHeight = Math.min(outHeight, PREVIEW_MAX_WIDTH * 2);
  let image = sharp(bytes, { raw: { width: slice.width, height: slice.height, channels: slice.channels } });
  if (outWidth !== slice.width || outHeight !== slice.height)
    image = image.resize(outWidth, outHeight, { fit: 'fill' });
  if (slice.channels === 1) image = image.toColourspace('b-w');
  return image.png({ compressionLevel: 6 }).toBuffer();
}
