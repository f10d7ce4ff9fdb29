import type { ImageMetadata } from '../../../contract/previews.ts';
import { noImageReason, type DicomObjectDescription } from '../../imaging/dicom/dicom-object.ts';
import { sopClassName } from '../../imaging/dicom/sop-classes.ts';
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
    ...(volume.timePoints && volume.timePoints > 1 && { time_points: volume.timePoints }),
    orientation: volume.orientation ?? null,
    study_description: volume.studyDescription ?? null,
    series_description: volume.seriesDescription ?? null,
    window: volume.window ?? null,
    deidentified,
    // A DICOM image names its SOP class as an object without pixels does.
    ...(volume.sopClassUid && {
      sop_class: sopClassName(volume.sopClassUid) ?? volume.sopClassUid,
      sop_class_uid: volume.sopClassUid,
    }),
  };
}

/**
 * What the details modal shows about a DICOM object it cannot draw: one that holds no image (a report, a
 * plan, a waveform), or one whose pixels this server cannot decode (`reason` then says why).
 */
export function objectMetadataOf(
  object: DicomObjectDescription,
  deidentified: boolean,
  reason?: string,
): ImageMetadata {
  return {
    format: 'dcm',
    modality: object.modality ?? null,
    dimensions: object.dimensions,
    spacing: [0, 0, 0],
    bit_depth: object.bitsStored,
    photometric_interpretation: object.photometric ?? '',
    channels: 0,
    slices: object.dimensions[2],
    orientation: null,
    study_description: object.studyDescription ?? null,
    series_description: object.seriesDescription ?? null,
    window: null,
    deidentified,
    sop_class: object.sopClass ?? null,
    sop_class_uid: object.sopClassUid ?? null,
    study_instance_uid: object.studyInstanceUid ?? null,
    series_instance_uid: object.seriesInstanceUid ?? null,
    content_date: object.contentDate ?? null,
    references: object.references,
    no_preview_reason: object.hasPixels ? (reason ?? null) : noImageReason(object),
  };
}
