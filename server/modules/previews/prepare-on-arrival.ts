import { PassThrough, Transform, type TransformCallback } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { deidentifyDicom } from '../../imaging/dicom/deidentify.ts';
import { stripRasterMetadata } from '../../imaging/strip-raster-metadata.ts';
import { UndecodableImageError } from '../../imaging/volume.ts';
import { tooLarge, unsupportedType } from '../../http-errors.ts';
import { currentUser } from '../../plugins/auth-guard.ts';
import { MAX_DECODE_BYTES } from './volume-loader.ts';

const cleaned = new Set(['dcm', 'jpg', 'png', 'webp', 'tiff']);

/** True when the uploader asked to keep the file as sent (`POST /uploads?deidentify=false`). */
export function keepsOriginal(request: FastifyRequest): boolean {
  return (request.query as Record<string, unknown> | undefined)?.deidentify === 'false';
}

/** Whether an upload of this format is stored de-identified (DICOM, unless the uploader keeps the original). */
export function isDeidentifiedOnArrival(format: string, request: FastifyRequest): boolean {
  return format === 'dcm' && !keepsOriginal(request);
}

/**
 * The stage of the upload stream that cleans a file before any byte reaches storage: DICOM is
 * de-identified (PS3.15 Basic Profile, UIDs remapped per owner) and EXIF/XMP is stripped from JPEG, PNG,
 * WebP and TIFF, so identifying values are never written, not even briefly. The file is held in memory
 * (up to 1 GB) to be rewritten. A DICOM file that cannot be parsed, or is larger, is refused: it cannot be
 * shown to be clean. A picture that cannot be cleaned is stored as sent.
 */
export function arrivalCleaner(format: string, request: FastifyRequest): Transform {
  if (!cleaned.has(format) || keepsOriginal(request)) return new PassThrough();
  const ownerId = currentUser(request).id;
  const chunks: Buffer[] = [];
  let held = 0;
  let passing = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      if (passing) return done(null, chunk);
      held += chunk.length;
      chunks.push(chunk);
      if (held <= MAX_DECODE_BYTES) return done();
      if (format === 'dcm')
        return done(tooLarge('This DICOM file is larger than the 1024 MB that can be de-identified'));
      passing = true;
      return done(null, Buffer.concat(chunks.splice(0)));
    },
    flush(done: TransformCallback) {
      if (passing || chunks.length === 0) return done();
      const bytes = new Uint8Array(Buffer.concat(chunks.splice(0)));
      try {
        const out = format === 'dcm' ? deidentifyDicom(bytes, ownerId) : (stripRasterMetadata(bytes, format) ?? bytes);
        return done(null, Buffer.from(out.buffer, out.byteOffset, out.byteLength));
      } catch (error) {
        if (format !== 'dcm') return done(null, Buffer.from(bytes));
        return done(
          unsupportedType(
            error instanceof UndecodableImageError ? error.message : 'This DICOM file could not be read.',
          ),
        );
      }
    },
  });
}
