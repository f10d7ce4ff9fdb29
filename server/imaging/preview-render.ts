import sharp from 'sharp';
import type { PreviewAxis } from '../../contract/imaging.ts';
import { histogram, percentile } from './metrics/histogram.ts';
import { luminance } from './metrics/mask.ts';
import { encodePng } from './png-encode.ts';
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
  // Strides of x, y, z in the voxel array; a cut walks two of them (columns, rows) at a fixed third.
  const [colStride, rowStride, fixedStride] =
    axis === 'axial' ? [1, w, w * h] : axis === 'coronal' ? [1, w * h, w] : [w, w * h, 1];
  for (let r = 0; r < rows; r++) {
    // For NIfTI/NRRD the last row is anterior (axial) or superior (coronal, sagittal): it goes on top.
    const row = flipUp ? rows - 1 - r : r;
    const base = (index * fixedStride + row * rowStride) * c;
    const to = r * cols * c;
    if (colStride === 1) {
      values.set(data.subarray(base, base + cols * c), to);
      continue;
    }
    for (let col = 0; col < cols; col++)
      for (let k = 0; k < c; k++) values[to + col * c + k] = data[base + col * colStride * c + k]!;
  }
  const [sx, sy, sz] = volume.spacing;
  const [pixelWidth, pixelHeight] = axis === 'axial' ? [sx, sy] : axis === 'coronal' ? [sx, sz] : [sy, sz];
  return { width: cols, height: rows, channels: c, values, pixelWidth, pixelHeight };
}

const ranges = new WeakMap<ImageVolume, [number, number]>();

/** The grey levels shown black and white: the file's window when it has one, else the 0.5–99.5 percentiles. */
export function displayRange(volume: ImageVolume): [number, number] {
  let range = ranges.get(volume);
  if (!range) {
    range = computeRange(volume);
    ranges.set(volume, range);
  }
  return range;
}

function computeRange(volume: ImageVolume): [number, number] {
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
  const values = slice.values;
  const bytes = new Uint8Array(values.length);
  // Rounded to nearest (+0.5, then truncated) and clamped: this loop runs for every pixel of every preview.
  for (let i = 0; i < bytes.length; i++) {
    const v = (values[i]! - low) * scale + 0.5;
    bytes[i] = v <= 0 ? 0 : v >= 255 ? 255 : v | 0;
  }
  if (volume.invert) for (let i = 0; i < bytes.length; i++) bytes[i] = 255 - bytes[i]!;
  const aspect = slice.pixelHeight / (slice.pixelWidth || 1);
  let outWidth = slice.width;
  let outHeight = Math.max(1, Math.round(slice.height * (Number.isFinite(aspect) && aspect > 0 ? aspect : 1)));
  if (outWidth > PREVIEW_MAX_WIDTH) {
    outHeight = Math.max(1, Math.round((outHeight * PREVIEW_MAX_WIDTH) / outWidth));
    outWidth = PREVIEW_MAX_WIDTH;
  }
  outHeight = Math.min(outHeight, PREVIEW_MAX_WIDTH * 2);
  if (outWidth === slice.width && outHeight === slice.height)
    return encodePng(bytes, slice.width, slice.height, slice.channels);
  let image = sharp(bytes, { raw: { width: slice.width, height: slice.height, channels: slice.channels } });
  if (outWidth !== slice.width || outHeight !== slice.height)
    image = image.resize(outWidth, outHeight, { fit: 'fill' });
  if (slice.channels === 1) image = image.toColourspace('b-w');
  // Fast deflate: previews are transient views, and encoding time is most of a render.
  return image.png({ compressionLevel: 2, adaptiveFiltering: false }).toBuffer();
}
