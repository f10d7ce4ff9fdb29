import type { ImageVolume } from '../volume.ts';

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
 * The family an image is judged as: the DICOM modality when it names one; otherwise colour means a slide
 * (histology) unless it is grey stored as RGB, NIfTI and NRRD mean MR (the usual content of research
 * volumes), and a grey picture of unknown origin is judged as a projection image.
 */
export function modalityFamily(volume: ImageVolume): ModalityFamily {
  const code = volume.modality?.toUpperCase();
  const known = code ? FAMILY[code] : undefined;
  if (known) return known;
  if (volume.channels === 3) return greyAsRgb(volume) ? 'XR' : 'SM';
  if (volume.format === 'nii' || volume.format === 'nrrd') return 'MR';
  return 'XR';
}
