import { PassThrough, Transform, type TransformCallback } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { deidentifyDicom } from '../../imaging/dicom/deidentify.ts';
import { stripRasterMetadata } from '../../imaging/strip-raster-metadata.ts';
import { UndecodableImageError } from '../../imaging/volume.ts';
import { HttpError, tooLarge, unsupportedType } from '../../http-errors.ts';
import { currentUser } from '../../plugins/auth-guard.ts';
import { MAX_DECODE_BYTES } from './volume-loader.ts';

const cleaned = new Set(['dcm', 'jpg', 'png', 'webp', 'tiff']);

/** How much the cleaning stage may hold in memory. */
export interface CleaningLimits {
  /** Most bytes all uploads being cleaned may hold together. */
  budget: number;
  /** Largest picture rewritten in memory; larger ones are stored as sent. */
  pictureHold: number;
}

const defaultLimits: CleaningLimits = { budget: 1024 * 1024 * 1024, pictureHold: 256 * 1024 * 1024 };
let heldByAllUploads = 0;

const serverBusy = () => new HttpError(503, 'The server is busy with other uploads. Try again in a minute.');

/** True when the uploader asked to keep the file as sent (`POST /uploads?deidentify=false`). */
export function keepsOriginal(request: FastifyRequest): boolean {
  return (request.query as Record<string, unknown> | undefined)?.deidentify === 'false';
}

/** Whether an upload of this format is stored de-identified (DICOM, unless the uploader keeps the original). */
export function isDeidentifiedOnArrival(format: string, request: FastifyRequest): boolean {
  return format === 'dcm' && !keepsOriginal(request);
}

/** Whether `arrivalCleaner` does anything for this upload; when not, the stage can be left out of the stream. */
export function cleansOnArrival(format: string, request: FastifyRequest): boolean {
  return cleaned.has(format) && !keepsOriginal(request);
}

/**
 * The stage of the upload stream that cleans a file before any byte reaches storage: DICOM is
 * de-identified (PS3.15 Basic Profile, UIDs remapped per owner) and EXIF/XMP is stripped from JPEG, PNG,
 * WebP and TIFF, so identifying values are never written, not even briefly. The file is held in memory
 * to be rewritten (DICOM up to 1 GB, pictures up to 256 MB, all uploads together within one budget).
 * A DICOM file that cannot be parsed, or is larger, is refused: it cannot be shown to be clean. A picture
 * that cannot be cleaned, or is larger, is stored as sent.
 */
export function arrivalCleaner(
  format: string,
  request: FastifyRequest,
  limits: CleaningLimits = defaultLimits,
): Transform {
  if (!cleansOnArrival(format, request)) return new PassThrough();
  const isDicom = format === 'dcm';
  const holdLimit = isDicom ? MAX_DECODE_BYTES : limits.pictureHold;
  const chunks: Buffer[] = [];
  let held = 0;
  let passing = false;
  const release = () => {
    heldByAllUploads -= held;
    held = 0;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      if (passing) return done(null, chunk);
      if (held + chunk.length > holdLimit) {
        if (isDicom) return done(tooLarge('This DICOM file is larger than the 1024 MB that can be de-identified'));
        // A picture too large to rewrite in memory is stored as sent, like one that cannot be parsed.
        passing = true;
        const whole = Buffer.concat([...chunks.splice(0), chunk]);
        release();
        return done(null, whole);
      }
      // Every upload being cleaned shares one memory budget, so parallel uploads cannot exhaust the server.
      if (heldByAllUploads + chunk.length > limits.budget) return done(serverBusy());
      held += chunk.length;
      heldByAllUploads += chunk.length;
      chunks.push(chunk);
      return done();
    },
    flush(done: TransformCallback) {
      if (passing || chunks.length === 0) return done();
      const bytes = new Uint8Array(Buffer.concat(chunks.splice(0)));
      release();
      try {
        const out = isDicom
          ? deidentifyDicom(bytes, currentUser(request).id)
          : (stripRasterMetadata(bytes, format) ?? bytes);
        return done(null, Buffer.from(out.buffer, out.byteOffset, out.byteLength));
      } catch (error) {
        if (!isDicom) return done(null, Buffer.from(bytes));
        return done(
          unsupportedType(
            error instanceof UndecodableImageError ? error.message : 'This DICOM file could not be read.',
          ),
        );
      }
    },
    destroy(error, callback) {
      chunks.length = 0;
      release();
      callback(error);
    },
  });
}
