import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { deidentifyDicom } from '../../imaging/dicom/deidentify.ts';
import { stripRasterMetadata } from '../../imaging/strip-raster-metadata.ts';
import { UndecodableImageError } from '../../imaging/volume.ts';
import { unsupportedType } from '../../http-errors.ts';
import type { Storage } from '../../storage/storage.ts';
import { uploadStorageKey } from '../uploads/uploads.repository.ts';
import { MAX_DECODE_BYTES, readObject } from './volume-loader.ts';

/** A stored upload as the receiver left it. */
export interface ArrivedFile {
  storedFilename: string;
  type: { format: string };
  size: number;
  sha256: string;
}

/** True when the uploader asked to keep the file as sent (`POST /uploads?deidentify=false`). */
export function keepsOriginal(request: FastifyRequest): boolean {
  return (request.query as Record<string, unknown> | undefined)?.deidentify === 'false';
}

/**
 * De-identifies a DICOM upload (PS3.15 Basic Profile, UIDs remapped per owner) and strips EXIF/XMP from
 * raster images, rewriting the stored object before it is listed, so identifying values are never kept.
 * A DICOM file that cannot be parsed is removed and refused: it cannot be shown to be clean.
 */
export async function prepareUploadOnArrival(
  storage: Storage,
  file: ArrivedFile,
  ownerId: string,
  keepOriginal: boolean,
): Promise<{ size: number; sha256: string; deidentified: boolean }> {
  const unchanged = { size: file.size, sha256: file.sha256, deidentified: false };
  if (keepOriginal || !['dcm', 'jpg', 'png', 'webp', 'tiff'].includes(file.type.format)) return unchanged;
  const key = uploadStorageKey(file.storedFilename);
  let bytes: Uint8Array;
  try {
    bytes = await readObject(
      storage,
      key,
      MAX_DECODE_BYTES,
      'This DICOM file is larger than the 1024 MB that can be de-identified',
    );
  } catch (error) {
    // Too large to rewrite in memory: a DICOM that cannot be cleaned is not kept; a picture is kept as is.
    if (file.type.format !== 'dcm') return unchanged;
    await storage.delete(key);
    throw error;
  }
  let cleaned: Uint8Array | undefined;
  try {
    cleaned =
      file.type.format === 'dcm' ? deidentifyDicom(bytes, ownerId) : stripRasterMetadata(bytes, file.type.format);
  } catch (error) {
    if (file.type.format !== 'dcm') return unchanged;
    await storage.delete(key);
    throw unsupportedType(
      error instanceof UndecodableImageError ? error.message : 'This DICOM file could not be read.',
    );
  }
  if (!cleaned) return unchanged;
  const stored = await storage.put(
    key,
    Readable.from([Buffer.from(cleaned.buffer, cleaned.byteOffset, cleaned.byteLength)]),
  );
  return { size: stored.size, sha256: stored.sha256, deidentified: file.type.format === 'dcm' };
}
