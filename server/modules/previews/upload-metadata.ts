import type { ImageMetadata } from '../../../contract/previews.ts';
import { HttpError } from '../../http-errors.ts';
import type { Storage } from '../../storage/storage.ts';
import type { UploadRow } from '../uploads/uploads.repository.ts';
import { objectMetadataOf } from './image-metadata.ts';
import { describeStoredDicom } from './volume-loader.ts';

/** True when the row already holds the metadata this module saves. */
export function hasMetadata(saved: unknown): saved is ImageMetadata {
  const m = saved as Partial<ImageMetadata> | null;
  return Boolean(m && typeof m.format === 'string' && Array.isArray(m.dimensions));
}

/**
 * The metadata of an upload whose pixels could not be decoded (`error`, already an HTTP error): a DICOM
 * object without pixels (a report, a plan, a waveform), or whose pixels this server cannot decode, is
 * described from its header with the reason there is no preview. Undefined for anything else.
 */
export async function metadataWithoutPixels(
  storage: Storage,
  upload: Pick<UploadRow, 'storedFilename' | 'format' | 'deidentified'>,
  error: unknown,
): Promise<ImageMetadata | undefined> {
  if (upload.format !== 'dcm' || !(error instanceof HttpError) || error.statusCode !== 415) return undefined;
  const object = await describeStoredDicom(storage, upload);
  return object && objectMetadataOf(object, upload.deidentified, error.message);
}
