import { Transform, type TransformCallback } from 'node:stream';
import type { Readable } from 'node:stream';
import { UnreadableDicomError } from '../../workers/deidentify-off-thread.ts';
import { stripRasterMetadata } from '../../imaging/strip-raster-metadata.ts';
import { tooLarge, unsupportedType } from '../../http-errors.ts';
import { checkSignature, HEAD_BYTES, type FileType } from './file-types.ts';
import { MAX_DECODE_BYTES } from '../previews/volume-loader.ts';
import { serverBusy, type MemoryBudget } from './memory-budget.ts';

const stripped = new Set(['jpg', 'png', 'webp', 'tiff']);

/** How much the cleaning stage may hold in memory. */
export interface CleaningLimits {
  /** The memory budget all uploads being cleaned (and series being read) share. */
  budget: MemoryBudget;
  /** Largest picture rewritten in memory; larger ones are stored as sent. */
  pictureHold: number;
  /** Largest DICOM file de-identified; larger ones are refused. */
  dicomHold: number;
}

/** The hold limits of the cleaning stage, on the given shared budget. */
export function cleaningLimits(budget: MemoryBudget): CleaningLimits {
  return { budget, pictureHold: 256 * 1024 * 1024, dicomHold: MAX_DECODE_BYTES };
}

const EMPTY = Buffer.alloc(0);

/** Whether an upload of this format is stored de-identified (DICOM, unless the uploader keeps the original). */
export function isDeidentifiedOnArrival(format: string, keepOriginal: boolean): boolean {
  return format === 'dcm' && !keepOriginal;
}

/** Whether this upload goes through `metadataStripper`; when not, the stage can be left out of the stream. */
export function stripsOnArrival(format: string, keepOriginal: boolean): boolean {
  return stripped.has(format) && !keepOriginal;
}

/**
 * Reads a DICOM upload whole and hands it to `cleanAndStore`, which de-identifies it (PS3.15 Basic
 * Profile, UIDs remapped per workspace; see deidentify-off-thread.ts) and stores it, so identifying values
 * never reach storage, not even briefly. Its first bytes are judged as soon as they arrive. Refuses a
 * file that is not DICOM or cannot be parsed (it cannot be shown to be clean), one larger than the hold
 * limit, and one the shared memory budget cannot hold now; the file counts against that budget until
 * stored. An empty upload gives undefined.
 */
export async function deidentifiedUpload<T>(
  file: Readable,
  type: FileType,
  uidSalt: () => Promise<string>,
  cleanAndStore: (whole: Uint8Array, uidSalt: string) => Promise<T>,
  limits: CleaningLimits,
): Promise<T | undefined> {
  const hold = limits.budget.hold();
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of file as AsyncIterable<Buffer>) {
      if (size + chunk.length > limits.dicomHold) {
        throw tooLarge(
          `This DICOM file is larger than the ${limits.dicomHold / 1024 / 1024} MB that can be de-identified`,
        );
      }
      if (!hold.take(chunk.length)) throw serverBusy();
      const judged = size >= HEAD_BYTES;
      chunks.push(chunk);
      size += chunk.length;
      if (!judged && size >= HEAD_BYTES) checkSignature(type, Buffer.concat(chunks));
    }
    if (size === 0) return undefined;
    if (size < HEAD_BYTES) checkSignature(type, Buffer.concat(chunks));
    // Each chunk is let go once copied, so a large file is not held twice over for long.
    const whole = new Uint8Array(size);
    for (let i = 0, at = 0; i < chunks.length; i++) {
      whole.set(chunks[i]!, at);
      at += chunks[i]!.length;
      chunks[i] = EMPTY;
    }
    try {
      return await cleanAndStore(whole, await uidSalt());
    } catch (error) {
      if (error instanceof UnreadableDicomError) throw unsupportedType(error.message);
      throw error;
    }
  } finally {
    hold.release();
  }
}

/**
 * The stage of the upload stream that strips EXIF/XMP from JPEG, PNG, WebP and TIFF before any byte
 * reaches storage. The picture is held in memory to be rewritten, up to the hold limit and within the
 * budget all uploads share; a larger one, or one that cannot be parsed, is stored as sent.
 */
export function metadataStripper(format: string, limits: CleaningLimits): Transform {
  const hold = limits.budget.hold();
  const chunks: Buffer[] = [];
  let size = 0;
  let passing = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      if (passing) return done(null, chunk);
      if (size + chunk.length > limits.pictureHold) {
        passing = true;
        const whole = Buffer.concat([...chunks.splice(0), chunk]);
        hold.release();
        return done(null, whole);
      }
      if (!hold.take(chunk.length)) return done(serverBusy());
      size += chunk.length;
      chunks.push(chunk);
      return done();
    },
    flush(done: TransformCallback) {
      if (passing || chunks.length === 0) return done();
      const bytes = new Uint8Array(Buffer.concat(chunks.splice(0)));
      hold.release();
      let out: Uint8Array = bytes;
      try {
        out = stripRasterMetadata(bytes, format) ?? bytes;
      } catch {
        // A picture that cannot be parsed is stored as sent, like one too large to hold.
      }
      return done(null, Buffer.from(out.buffer, out.byteOffset, out.byteLength));
    },
    destroy(error, callback) {
      chunks.length = 0;
      hold.release();
      callback(error);
    },
  });
}
