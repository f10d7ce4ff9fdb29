import type { ImageVolume } from '../volume.ts';
import { binScale, type Histogram } from './histogram.ts';

/** The families the engine has measurements and limits for. */
export type ModalityFamily = 'CT' | 'MR' | 'XR' | 'US' | 'NM' | 'SM';

const FAMILY: Record<string, ModalityFamily> = {
  CT: 'CT',
  MR: 'MR',
  CR: 'XR',
  DX: 'XR',
  MG: 'XR',
  XA: 'XR',
  RF: 'XR',
  PX: 'XR',
  IO: 'XR',
  RG: 'XR',
  US: 'US',
  IVUS: 'US',
  PT: 'NM',
  NM: 'NM',
  ST: 'NM',
  SM: 'SM',
  XC: 'SM',
  GM: 'SM',
};

/** Whether an RGB volume is grey in disguise (every voxel's channels equal within 2% of the range). */
function greyAsRgb(volume: ImageVolume): boolean {
  const range = Math.max(1, volume.storedRange[1] - volume.storedRange[0]);
  const step = Math.max(1, Math.floor(volume.data.length / 3 / 20_000));
  for (let p = 0; p < volume.data.length / 3; p += step) {
    const r = volume.data[p * 3]!,
      g = volume.data[p * 3 + 1]!,
      b = volume.data[p * 3 + 2]!;
    if (Math.max(Math.abs(r - g), Math.abs(g - b)) > range * 0.02) return false;
  }
  return true;
}

/**
 * Whether the values of a grey volume (their histogram) read as Hounsfield units: some air or lung, below
 * -500 HU, and much soft tissue, water and fat, from -400 to 400 HU (wide enough for a scanner miscalibrated
 * by a few hundred HU, which the CT checks are there to find). MR magnitude is never negative, an MR phase
 * map spreads evenly over its range, and intensities normalised to z-scores or 0–1 lie within a few units of
 * 0, so none of them has both.
 */
export function readsAsHounsfield(h: Histogram): boolean {
  if (!(h.total > 0) || h.min > -500) return false;
  const scale = binScale(h.min, h.max, h.counts.length);
  // The bin holding a value, as histogram() bins it.
  const bin = (v: number) => Math.max(0, Math.min(h.counts.length, Math.floor((v - h.min) * scale + 0.5)));
  let air = 0,
    tissue = 0;
  for (let j = 0; j < bin(-500); j++) air += h.counts[j]!;
  for (let j = bin(-400); j < bin(400); j++) tissue += h.counts[j]!;
  return air >= 0.02 * h.total && tissue >= 0.15 * h.total;
}

/**
 * The family an image is judged as: the DICOM modality when it names one; otherwise colour means a slide
 * (histology) unless it is grey stored as RGB; NIfTI and NRRD mean CT when their values (`values`, the
 * histogram of the grey image's values, when the caller has it) read as Hounsfield units, and MR otherwise
 * (the usual content of research volumes); a grey picture of unknown origin is judged as a projection image.
 */
export function modalityFamily(volume: ImageVolume, values?: Histogram): ModalityFamily {
  const code = volume.modality?.toUpperCase();
  const known = code ? FAMILY[code] : undefined;
  if (known) return known;
  if (volume.channels === 3) return greyAsRgb(volume) ? 'XR' : 'SM';
  if (volume.format === 'nii' || volume.format === 'nrrd') return values && readsAsHounsfield(values) ? 'CT' : 'MR';
  return 'XR';
}

/** DICOM objects that carry pixels without being an acquisition: maps derived from images, not images. */
const DERIVED_OBJECTS: Record<string, string> = {
  SEG: 'a segmentation',
  RTDOSE: 'a radiotherapy dose grid',
  RTSTRUCT: 'a radiotherapy structure set',
  RTPLAN: 'a radiotherapy plan',
  REG: 'a registration',
};

/**
 * The smallest in-plane size the checks mean something on. Below it the background ring, the edge-width
 * search (up to 20 px of Gaussian sigma) and the line, ring and ghost profiles have too few voxels: clinical
 * thumbnails of 16×16 were failed for blur and HU calibration that the full images do not have.
 */
export const MIN_MEASURABLE_SIDE = 32;

/**
 * Why the built-in checks cannot judge this image, or undefined when they can: a derived object (a
 * segmentation's labels or a dose grid are not an acquisition to judge), or a matrix too small to measure.
 */
export function unmeasurableReason(volume: ImageVolume): string | undefined {
  const derived = DERIVED_OBJECTS[volume.modality?.toUpperCase() ?? ''];
  if (derived) return `This DICOM object is ${derived}, not an acquired image, so its image quality cannot be checked.`;
  if (Math.min(volume.width, volume.height) < MIN_MEASURABLE_SIDE)
    return `This image is ${volume.width} × ${volume.height} pixels, too small for its quality to be measured (at least ${MIN_MEASURABLE_SIDE} × ${MIN_MEASURABLE_SIDE} are needed).`;
  return undefined;
}
