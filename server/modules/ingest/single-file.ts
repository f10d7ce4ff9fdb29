import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import { tooLargeMessage } from '../../../contract/uploads.ts';
import { deidentifyOffThread } from '../../workers/deidentify-off-thread.ts';
import type { DeidentificationReport } from '../../imaging/dicom/deidentify-report.ts';
import { dicomIdentifyingValues } from '../../imaging/dicom/identifying-values.ts';
import { VOLUME_TEXT_HEAD_BYTES, volumeIdentifyingText } from '../../imaging/volume-identifying-text.ts';
import { badRequest, tooLarge, unsupportedType } from '../../http-errors.ts';
import type { Storage } from '../../storage/storage.ts';
import { TooLargeError } from '../../storage/storage.ts';
import { uploadStorageKey } from '../uploads/uploads.repository.ts';
import { gzipVolumeCleaning, volumeHeaderCleaner } from '../uploads/volume-header-stage.ts';
import { fileTypeOf, signatureCheck, UNSUPPORTED_TYPE_DETAIL, type FileType } from './file-types.ts';
import { nameWithoutIdentifiers } from './identifier-free-name.ts';
import type { IncomingFile } from './ingest-source.ts';
import {
  deidentifiedUpload,
  isDeidentifiedOnArrival,
  metadataStripper,
  stripsOnArrival,
  type CleaningLimits,
} from './prepare-on-arrival.ts';
import { cleanOriginalName, newStoredFilename } from './upload-names.ts';

/** A file written to storage, not yet recorded in the database. */
export interface ReceivedFile {
  storedFilename: string;
  /** The name it is listed with: the client's without what identifies (see identifier-free-name.ts). */
  displayName: string;
  /** The client's name, path removed. */
  originalName: string;
  type: FileType;
  size: number;
  sha256: string;
  /** What de-identifying it did, for a DICOM file de-identified on arrival. */
  deidentification?: DeidentificationReport;
}

/** What storing one file needs beside the file. */
export interface SingleFileContext {
  storage: Storage;
  /** Most bytes the file may have (UPLOAD_MAX_BYTES). */
  limit: number;
  keepOriginal: boolean;
  uidSalt: () => Promise<string>;
  cleaning: CleaningLimits;
}

/** The refusal of anything but one file. */
export const ONE_FILE = 'Send exactly one file in the "file" field';

/**
 * Stores the one file. A DICOM file is read whole to be de-identified (there is no cleaning it piecemeal) and
 * written in one go; anything else streams through the signature check, and the cleaning stage of its format,
 * to storage without being buffered whole. Refuses an unsupported or mislabelled type and a file over the limit.
 */
export async function storeSingleFile(file: IncomingFile, context: SingleFileContext): Promise<ReceivedFile> {
  const originalName = cleanOriginalName(file.name);
  const type = fileTypeOf(originalName);
  if (!type) {
    file.stream.resume();
    throw unsupportedType(UNSUPPORTED_TYPE_DETAIL);
  }
  const storedFilename = newStoredFilename(type.extension);
  const key = uploadStorageKey(storedFilename);
  const { storage, limit, keepOriginal } = context;
  try {
    if (isDeidentifiedOnArrival(type.format, keepOriginal)) {
      const stored = await storeClean(file.stream, type, key, context);
      const displayName =
        (stored.identifying && nameWithoutIdentifiers(originalName, type.extension, stored.identifying)) ??
        stored.report?.fileName ??
        originalName;
      return { storedFilename, originalName, displayName, type, ...stored, deidentification: stored.report };
    }
    const texts: string[] = [];
    const { size, sha256 } = await storage.put(key, streamedBody(file.stream, type, keepOriginal, context, texts), {
      limit,
    });
    return { storedFilename, originalName, displayName: originalName, type, size, sha256, ...named() };

    // A volume's name is kept without what its own header says (a NIfTI's descrip, an NRRD's comments).
    function named() {
      if (keepOriginal || (type!.format !== 'nii' && type!.format !== 'nrrd')) return {};
      const fallback = `${type!.format === 'nii' ? 'NIfTI' : 'NRRD'}_${sha256.slice(0, 8)}${type!.extension}`;
      return { displayName: nameWithoutIdentifiers(originalName, type!.extension, texts) ?? fallback };
    }
  } catch (error) {
    if (error instanceof TooLargeError) throw tooLarge(tooLargeMessage(limit));
    throw error;
  }
}

/**
 * De-identifies a DICOM upload on the imaging pool and stores the cleaned bytes; the identifying values are read
 * first, for the name. An empty upload is stored empty, then refused.
 */
async function storeClean(
  file: Readable,
  type: FileType,
  key: string,
  { storage, limit, uidSalt, cleaning }: SingleFileContext,
): Promise<{ size: number; sha256: string; report?: DeidentificationReport; identifying?: string[] }> {
  const stored = await deidentifiedUpload(
    file,
    type,
    uidSalt,
    async (whole, salt) => {
      // Read before the bytes are handed to the pool, which takes them.
      const identifying = dicomIdentifyingValues(whole);
      const clean = await deidentifyOffThread(whole, salt);
      const put = await storage.put(key, clean.bytes, { limit, sha256: clean.sha256 });
      return { ...put, report: clean.report, identifying };
    },
    cleaning,
  );
  return stored ?? storage.put(key, new Uint8Array(0), { limit });
}

/** A pass-through stage keeping a copy of the first VOLUME_TEXT_HEAD_BYTES, read for the header's free text at the end. */
function headerTextTap(format: 'nii' | 'nrrd', texts: string[]): Transform {
  const head: Buffer[] = [];
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      if (size < VOLUME_TEXT_HEAD_BYTES) {
        head.push(chunk.subarray(0, VOLUME_TEXT_HEAD_BYTES - size));
        size += Math.min(chunk.length, VOLUME_TEXT_HEAD_BYTES - size);
      }
      done(null, chunk);
    },
    flush(done: TransformCallback) {
      texts.push(...volumeIdentifyingText(Buffer.concat(head), format));
      done();
    },
  });
}

function streamedBody(
  file: Readable,
  type: FileType,
  keepOriginal: boolean,
  context: SingleFileContext,
  texts: string[],
): Readable {
  const { format, extension } = type;
  if ((format === 'nii' || format === 'nrrd') && !keepOriginal) {
    const tap = headerTextTap(format, texts);
    // A gzipped NIfTI is cleaned decompressed and compressed again: its header is inside the stream.
    return extension.endsWith('.gz')
      ? // The array form types its result as a bare writable; it is the last stage, the gzip Transform.
        (pipeline(
          [file, signatureCheck(type), ...gzipVolumeCleaning(format, context.limit, [tap])],
          () => undefined,
        ) as unknown as Readable)
      : pipeline(file, signatureCheck(type), tap, volumeHeaderCleaner(format), () => undefined);
  }
  // Formats with nothing to strip skip that stage: one hop fewer for every chunk of a large volume.
  return stripsOnArrival(format, keepOriginal)
    ? pipeline(file, signatureCheck(type), metadataStripper(format, context.cleaning), () => undefined)
    : pipeline(file, signatureCheck(type), () => undefined);
}

/**
 * Reads the source's files, stores the first and refuses (removing what was stored) a second one, an empty file
 * or none at all.
 */
export async function receiveSingleFile(
  files: AsyncIterable<IncomingFile>,
  context: SingleFileContext,
): Promise<ReceivedFile> {
  let received: ReceivedFile | undefined;
  let extraFile = false;
  try {
    for await (const file of files) {
      if (received) {
        extraFile = true;
        file.stream.resume();
        continue;
      }
      received = await storeSingleFile(file, context);
    }
  } catch (error) {
    if (received) await context.storage.delete(uploadStorageKey(received.storedFilename));
    throw error;
  }
  if (received && (extraFile || received.size === 0)) {
    await context.storage.delete(uploadStorageKey(received.storedFilename));
    throw badRequest(extraFile ? ONE_FILE : 'The file is empty');
  }
  if (!received) throw badRequest(ONE_FILE);
  return received;
}
