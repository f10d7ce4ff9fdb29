import type { ImageVolume } from '../../../server/imaging/volume.ts';
import { toUint16, type Phantom } from '../../fixtures/phantoms.ts';

/**
 * A decoded grey volume of `data` (width × height × depth, one channel), 16-bit signed as a NIfTI or DICOM
 * would hand it over; `fields` overrides any of it (modality, format, stored range…).
 */
export function greyVolume(
  data: Float32Array,
  width: number,
  height: number,
  depth: number,
  fields: Partial<ImageVolume> = {},
): ImageVolume {
  return {
    format: 'dcm',
    width,
    height,
    depth,
    channels: 1,
    data,
    spacing: [1, 1, 1],
    bitDepth: 16,
    storedRange: [-32768, 32767],
    photometric: 'MONOCHROME2',
    invert: false,
    ...fields,
  };
}

/** A phantom as a decoded 16-bit scan of the given modality, as the decoders would hand it over. */
export function phantomVolume(p: Phantom, modality: string): ImageVolume {
  return greyVolume(Float32Array.from(toUint16(p)), p.width, p.height, 1, { storedRange: [0, 65535], modality });
}
