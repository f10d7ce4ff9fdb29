import sharp from 'sharp';
import type { PreviewAxis } from '../../contract/imaging.ts';
import { histogram, percentile } from './metrics/histogram.ts';
import { luminance } from './metrics/mask.ts';
import { encodePng } from './png-encode.ts';
import { canonicalAxes, markerOverlay, radiologicalMarkers, type EdgeMarkers } from './orientation.ts';
import type { ImageVolume } from './volume.ts';

/** Previews smaller than this (either side, in pixels) are drawn without markers, which would cover them. */
const MARKED_MIN_SIZE = 64;

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

/** How a volume is laid out for display: the voxel axis along each patient axis (left, posterior, superior), and which run backwards. */
interface DisplayAxes {
  axis: [number, number, number];
  flip: [boolean, boolean, boolean];
  /** True when the layout comes from the file's geometry, so the edges can be named. */
  oriented: boolean;
}

/** Per plane: the patient axis held fixed, the one down the rows (top first) and the one across the columns. */
const planes: Record<PreviewAxis, { fixed: number; row: number; rowTopLast: boolean; column: number }> = {
  // Rows from anterior to posterior, columns from the patient's right to left.
  axial: { fixed: 2, row: 1, rowTopLast: false, column: 0 },
  // Rows from superior down, columns from right to left.
  coronal: { fixed: 1, row: 2, rowTopLast: true, column: 0 },
  // Rows from superior down, columns from anterior to posterior.
  sagittal: { fixed: 0, row: 2, rowTopLast: true, column: 1 },
};

const layouts = new WeakMap<ImageVolume, DisplayAxes>();

/**
 * The display layout of a volume: from its geometry (DICOM Image Orientation/Position, NIfTI qform/sform,
 * NRRD space directions) the closest canonical axes, shown the radiological way. Without geometry the
 * voxel grid is shown as stored, NIfTI and NRRD rows bottom-up (their y runs towards anterior, z towards
 * superior) and DICOM rows and frames top-down.
 */
function displayAxes(volume: ImageVolume): DisplayAxes {
  let layout = layouts.get(volume);
  if (!layout) {
    const canonical = canonicalAxes(volume.directions);
    const upward = volume.format === 'nii' || volume.format === 'nrrd';
    layout = canonical
      ? { ...canonical, oriented: true }
      : { axis: [0, 1, 2], flip: [false, upward, !upward], oriented: false };
    layouts.set(volume, layout);
  }
  return layout;
}

const sizes = (volume: ImageVolume) => [volume.width, volume.height, volume.depth];

/** How many slices a volume has along an axis: sagittal slices step left to right, coronal front to back, axial up. */
export function sliceCount(volume: ImageVolume, axis: PreviewAxis): number {
  return sizes(volume)[displayAxes(volume).axis[planes[axis].fixed]!]!;
}

/**
 * The plane the image was acquired in: the one whose slices are the file's own frames or slices (for a
 * series, its instances), so its middle slice is the middle one the scanner stored.
 */
export function acquisitionAxis(volume: ImageVolume): PreviewAxis {
  const fixedVoxelAxis = (axis: PreviewAxis) => displayAxes(volume).axis[planes[axis].fixed];
  return (['axial', 'coronal', 'sagittal'] as const).find((axis) => fixedVoxelAxis(axis) === 2) ?? 'axial';
}

/**
 * The patient direction at each edge of a slice along `axis`, or undefined when the file gives no
 * geometry: the markers a preview is drawn with.
 */
export function edgeMarkers(volume: ImageVolume, axis: PreviewAxis): EdgeMarkers | undefined {
  return displayAxes(volume).oriented ? radiologicalMarkers[axis] : undefined;
}

/**
 * Cuts slice `index` along `axis` (counted from the patient's right, front or bottom), laid out the
 * radiological way when the file gives its geometry (see displayAxes).
 */
export function extractSlice(volume: ImageVolume, axis: PreviewAxis, index: number): VolumeSlice {
  const { channels: c, data } = volume;
  const { axis: along, flip } = displayAxes(volume);
  const dims = sizes(volume);
  const strides = [1, volume.width, volume.width * volume.height];
  const plane = planes[axis];
  const size = (p: number) => dims[along[p]!]!;
  // Where step `i` along patient axis p lands in the voxel array.
  const offset = (p: number, i: number) => strides[along[p]!]! * (flip[p] ? size(p) - 1 - i : i);
  const cols = size(plane.column);
  const rows = size(plane.row);
  const values = new Float32Array(cols * rows * c);
  const columnStride = flip[plane.column] ? -strides[along[plane.column]!]! : strides[along[plane.column]!]!;
  const fixed = offset(plane.fixed, index);
  for (let r = 0; r < rows; r++) {
    const base = (fixed + offset(plane.row, plane.rowTopLast ? rows - 1 - r : r) + offset(plane.column, 0)) * c;
    const to = r * cols * c;
    if (columnStride === 1) {
      values.set(data.subarray(base, base + cols * c), to);
      continue;
    }
    for (let col = 0; col < cols; col++)
      for (let k = 0; k < c; k++) values[to + col * c + k] = data[base + col * columnStride * c + k]!;
  }
  const pixelWidth = volume.spacing[along[plane.column]!]!;
  const pixelHeight = volume.spacing[along[plane.row]!]!;
  return { width: cols, height: rows, channels: c, values, pixelWidth, pixelHeight };
}

const ranges = new WeakMap<ImageVolume, [number, number]>();

/**
 * The grey levels shown black and white: the file's window when it has one, the stored type's range for colour,
 * else the 0.5–99.5 percentiles.
 */
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
  // Colour spans what its samples can hold: a 32-bit RGB file's half intensity is 2³¹, as pydicom reads it.
  const [lowest, highest] = volume.storedRange;
  if (volume.channels === 3)
    return Number.isFinite(lowest) && Number.isFinite(highest) && highest > lowest
      ? [lowest, highest]
      : [0, volume.bitDepth > 8 ? 65535 : 255];
  const h = histogram(luminance(volume.data, volume.channels));
  const low = percentile(h, 0.5);
  const high = percentile(h, 99.5);
  return high > low ? [low, high] : [h.min, h.max > h.min ? h.max : h.min + 1];
}

/**
 * Renders one slice as a PNG at most 512 px wide, windowed, with square physical pixels, and with its
 * orientation markers unless `markers` is false (a thumbnail, too small to read them).
 */
export async function renderSlicePng(
  volume: ImageVolume,
  axis: PreviewAxis,
  index: number,
  range = displayRange(volume),
  { markers: drawMarkers = true }: { markers?: boolean } = {},
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
  // Markers are drawn on previews large enough to hold them beside the anatomy.
  const markers =
    drawMarkers && Math.min(outWidth, outHeight) >= MARKED_MIN_SIZE ? edgeMarkers(volume, axis) : undefined;
  if (!markers && outWidth === slice.width && outHeight === slice.height)
    return encodePng(bytes, slice.width, slice.height, slice.channels);
  let image = sharp(bytes, { raw: { width: slice.width, height: slice.height, channels: slice.channels } });
  if (outWidth !== slice.width || outHeight !== slice.height)
    image = image.resize(outWidth, outHeight, { fit: 'fill' });
  if (markers) {
    // Resized first, so the letters stay sharp whatever the image's size.
    const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
    const marked = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
      .composite([{ input: Buffer.from(markerOverlay(info.width, info.height, markers)), top: 0, left: 0 }])
      .raw()
      .toBuffer({ resolveWithObject: true });
    // Composited pixels carry the overlay's alpha channel, which a preview does not need.
    // Compositing made the pixels RGBA: a grey slice keeps one channel, a colour one its three.
    image = sharp(marked.data, { raw: marked.info });
    image = slice.channels === 1 ? image.extractChannel(0) : image.removeAlpha();
  }
  if (slice.channels === 1) image = image.toColourspace('b-w');
  // Fast deflate: previews are transient views, and encoding time is most of a render.
  return image.png({ compressionLevel: 2, adaptiveFiltering: false }).toBuffer();
}
