import { pipeline, type Readable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import type { FastifyRequest } from 'fastify';
import { tooLargeMessage } from '../../../contract/uploads.ts';
import type { MultipartFile } from '@fastify/multipart';
import { deidentifyOffThread } from '../../workers/deidentify-off-thread.ts';
import type { DeidentificationReport } from '../../imaging/dicom/deidentify-report.ts';
import { badRequest, HttpError, tooLarge, unsupportedType } from '../../http-errors.ts';
import type { Storage } from '../../storage/storage.ts';
import { TooLargeError } from '../../storage/storage.ts';
import {
  deidentifiedUpload,
  isDeidentifiedOnArrival,
  keepsOriginal,
  metadataStripper,
  stripsOnArrival,
} from './prepare-on-arrival.ts';
import { fileTypeOf, signatureCheck, UNSUPPORTED_TYPE_DETAIL, type FileType } from './file-types.ts';
import { drainRequest } from './request-drain.ts';
import { cleanOriginalName, newStoredFilename } from './upload-names.ts';
import { uploadStorageKey } from './uploads.repository.ts';
import { volumeHeaderCleaner } from './volume-header-stage.ts';

/** A file written to storage, not yet recorded in the database. */
export interface ReceivedFile {
  storedFilename: string;
  originalName: string;
  type: FileType;
  size: number;
  sha256: string;
  /** What de-identifying it did, for a DICOM file de-identified on arrival. */
  deidentification?: DeidentificationReport;
}

const ONE_FILE = 'Send exactly one file in the "file" field';

/** A client that sends no byte for this long has stalled; its connection is closed and nothing kept. */
export const UPLOAD_IDLE_MS = 60_000;

/**
 * Stores the one file part. A DICOM file is read whole to be de-identified (there is no cleaning it
 * piecemeal) and written in one go; anything else streams through the signature check, and the
 * metadata stripper for pictures, to storage without being buffered whole.
 */
async function storePart(
  part: MultipartFile,
  storage: Storage,
  limit: number,
  request: FastifyRequest,
): Promise<ReceivedFile> {
  const originalName = cleanOriginalName(part.filename ?? '');
  const type = fileTypeOf(originalName);
  if (!type) {
    part.file.resume();
    throw unsupportedType(UNSUPPORTED_TYPE_DETAIL);
  }
  const storedFilename = newStoredFilename(type.extension);
  try {
    const key = uploadStorageKey(storedFilename);
    if (isDeidentifiedOnArrival(type.format, request)) {
      const { size, sha256, report } = await storeClean(part.file, type, request, storage, key, limit);
      return { storedFilename, originalName, type, size, sha256, deidentification: report };
    }
    const { size, sha256 } = await storage.put(key, streamedBody(part.file, type, request), { limit });
    return { storedFilename, originalName, type, size, sha256 };
  } catch (error) {
    if (error instanceof TooLargeError) throw tooLarge(tooLargeMessage(limit));
    throw error;
  }
}

/**
 * De-identifies a DICOM upload on the imaging pool and stores the cleaned bytes. An empty upload is stored
 * empty, then refused.
 */
async function storeClean(
  file: Readable,
  type: FileType,
  request: FastifyRequest,
  storage: Storage,
  key: string,
  limit: number,
): Promise<{ size: number; sha256: string; report?: DeidentificationReport }> {
  const stored = await deidentifiedUpload(file, type, request, async (whole, uidSalt) => {
    const clean = await deidentifyOffThread(whole, uidSalt);
    return { ...(await storage.put(key, clean.bytes, { limit, sha256: clean.sha256 })), report: clean.report };
  });
  return stored ?? storage.put(key, new Uint8Array(0), { limit });
}

function streamedBody(file: Readable, type: FileType, request: FastifyRequest): Readable {
  const { format, extension } = type;
  if ((format === 'nii' || format === 'nrrd') && !keepsOriginal(request)) {
    // A gzipped NIfTI is cleaned decompressed and compressed again: its header is inside the stream.
    return extension.endsWith('.gz')
      ? pipeline(file, signatureCheck(type), createGunzip(), volumeHeaderCleaner(format), createGzip(), () => undefined)
      : pipeline(file, signatureCheck(type), volumeHeaderCleaner(format), () => undefined);
  }
  // Formats with nothing to strip skip that stage: one hop fewer for every chunk of a large volume.
  return stripsOnArrival(format, request)
    ? pipeline(file, signatureCheck(type), metadataStripper(format), () => undefined)
    : pipeline(file, signatureCheck(type), () => undefined);
}

/**
 * Reads a multipart request holding exactly one part named `file` and stores it. Refuses (and removes
 * anything stored) a missing or second file, an empty file, an unsupported or mislabelled type, or a
 * file over `limit` bytes. There is no overall time limit (a large volume on a slow line takes long), but
 * a connection idle for `idleMs` is closed, which also removes the partial file.
 */
export async function receiveUpload(
  request: FastifyRequest,
  storage: Storage,
  limit: number,
  idleMs = UPLOAD_IDLE_MS,
): Promise<ReceivedFile> {
  if (!request.isMultipart()) throw badRequest(`${ONE_FILE} of a multipart/form-data request`);
  // Requests injected in-process (app.inject) have no socket, hence no idle timer to set.
  const idle = typeof request.raw.setTimeout === 'function' ? request.raw : undefined;
  idle?.setTimeout(idleMs, () => request.raw.destroy(new Error('Upload stalled')));
  try {
    return await receiveParts(request, storage, limit);
  } catch (error) {
    if (error instanceof HttpError) await drainRequest(request.raw);
    throw error;
  } finally {
    // Back to the server's own idle rule for the rest of this keep-alive connection.
    idle?.setTimeout(0);
  }
}

async function receiveParts(request: FastifyRequest, storage: Storage, limit: number): Promise<ReceivedFile> {
  let received: ReceivedFile | undefined;
  let extraFile = false;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (received || part.fieldname !== 'file') {
        extraFile = true;
        part.file.resume();
        continue;
      }
      received = await storePart(part, storage, limit, request);
    }
  } catch (error) {
    if (received) await storage.delete(uploadStorageKey(received.storedFilename));
    if (error instanceof HttpError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') throw badRequest(ONE_FILE);
    // The cleaning stage may shrink a file below the limit before storage counts it; the parser's own count stands.
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(tooLargeMessage(limit));
    if (code?.startsWith('FST_')) throw badRequest('The upload could not be read');
    // zlib's refusal of a damaged or cut-short .nii.gz, met while its header is cleaned on arrival.
    if (code?.startsWith('Z_') || /^unexpected end of file$/.test((error as Error).message ?? '')) {
      throw unsupportedType('This gzip-compressed file is damaged: it could not be decompressed.');
    }
    // busboy's own refusals of a malformed body (no boundary, a broken part header, a truncated form).
    if (/^(Multipart: |Malformed |Unexpected end of )/.test((error as Error).message ?? '')) {
      throw badRequest('The upload could not be read');
    }
    throw error;
  }
  if (received && (extraFile || received.size === 0)) {
    await storage.delete(uploadStorageKey(received.storedFilename));
    throw badRequest(extraFile ? ONE_FILE : 'The file is empty');
  }
  if (!received) throw badRequest(ONE_FILE);
  return received;
}
