import type { ImageMetadata } from '../../../contract/previews.ts';
import type { ImageVolume } from '../../imaging/volume.ts';

/** What the details modal shows about a decoded image. */
export function imageMetadataOf(volume: ImageVolume, deidentified: boolean): ImageMetadata {
  return {
    format: volume.format,
    modality: volume.modality ?? null,
    dimensions: [volume.width, volume.height, volume.depth],
    spacing: volume.spacing.map((s) => Number(s.toFixed(4))),
    bit_depth: volume.bitDepth,
    photometric_interpretation: volume.photometric,
    channels: volume.channels,
    slices: volume.depth,
    orientation: volume.orientation ?? null,
    study_description: volume.studyDescription ?? null,
    series_description: volume.seriesDescription ?? null,
    window: volume.window ?? null,
    deidentified,
  };
}
