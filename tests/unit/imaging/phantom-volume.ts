import type { ImageVolume } from '../../../server/imaging/volume.ts';
import { toUint16, type Phantom } from '../../fixtures/phantoms.ts';

/** A phantom as a decoded 16-bit scan of the given modality, as the decoders would hand it over. */
export function phantomVolume(p: Phantom, modality: string): ImageVolume {
  return {
    format: 'dcm',
    width: p.width,
    height: p.height,
    depth: 1,
    channels: 1,
    data: Float32Array.from(toUint16(p)),
    spacing: [1, 1, 1],
    bitDepth: 16,
    storedRange: [0, 65535],
    photometric: 'MONOCHROME2',
    invert: false,
    modality,
  };
}
