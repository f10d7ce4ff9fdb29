import type { FastifyRequest } from 'fastify';
import { tooLargeMessage } from '../../../contract/uploads.ts';
import { badRequest, HttpError, tooLarge, unsupportedType } from '../../http-errors.ts';
import type { IncomingFile, IngestSource } from '../ingest/ingest-source.ts';
import { seriesTooLarge } from '../ingest/series-files.ts';
import { ONE_FILE } from '../ingest/single-file.ts';
import { drainRequest } from './request-drain.ts';

/** A client that sends no byte for this long has stalled; its connection is closed and nothing kept. */
export const UPLOAD_IDLE_MS = 60_000;

const UNREADABLE = 'The upload could not be read';

/**
 * The multipart file parts of a request as ingest's files; a single-file upload takes only the "file" field.
 * Whatever the parser itself throws is about the body the client sent (an over-long boundary, a broken part
 * header): 400 or 413, never a server error.
 */
async function* multipartFiles(
  request: FastifyRequest,
  kind: IngestSource['kind'],
  limit: number,
): AsyncIterable<IncomingFile> {
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (kind === 'file' && part.fieldname !== 'file') {
        part.file.resume();
        throw badRequest(ONE_FILE);
      }
      yield { name: part.filename ?? '', stream: part.file };
    }
  } catch (error) {
    const refusal = multipartRefusal(error, kind, limit);
    throw refusal instanceof HttpError ? refusal : badRequest(UNREADABLE);
  }
}

/** What the multipart parser and the streams behind it throw, as the 400 or 413 it is for the client. */
function multipartRefusal(error: unknown, kind: IngestSource['kind'], limit: number): unknown {
  if (error instanceof HttpError) return error;
  const code = (error as { code?: string }).code;
  const message = (error as Error).message ?? '';
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT')
    return badRequest(kind === 'file' ? ONE_FILE : UNREADABLE);
  // The cleaning stage may shrink a file below the limit before storage counts it; the parser's own count stands.
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    return kind === 'file' ? tooLarge(tooLargeMessage(limit)) : seriesTooLarge(limit);
  if (code?.startsWith('FST_')) return badRequest(UNREADABLE);
  // zlib's refusal of a damaged or cut-short .nii.gz, met while its header is cleaned on arrival.
  if (code?.startsWith('Z_') || message === 'unexpected end of file') {
    return unsupportedType('This gzip-compressed file is damaged: it could not be decompressed.');
  }
  // busboy's refusals of a malformed body: no or an over-long boundary, a broken part header, a body cut short.
  if (/^(Multipart: |Malformed |Unexpected end of |Boundary )/i.test(message) || code === 'ECONNRESET') {
    return badRequest(UNREADABLE);
  }
  if (message === 'aborted' || message === 'Upload stalled') return badRequest(UNREADABLE);
  return error;
}

/**
 * Runs `ingest` over a multipart/form-data request's files: the door of POST /uploads (`file`: exactly one part
 * named "file") and POST /uploads/series. Whatever the parser refuses answers 400 or 413, never 500; after a
 * refusal the rest of the body is read (up to a bound) so a browser sees the answer. There is no overall time
 * limit (a large volume on a slow line takes long), but a connection idle for `idleMs` is closed.
 */
export async function fromMultipart<T>(
  request: FastifyRequest,
  kind: IngestSource['kind'],
  limit: number,
  ingest: (source: IngestSource) => Promise<T>,
  idleMs = UPLOAD_IDLE_MS,
): Promise<T> {
  if (!request.isMultipart()) {
    throw badRequest(
      kind === 'file'
        ? `${ONE_FILE} of a multipart/form-data request`
        : 'Send DICOM slices or one .zip as multipart/form-data',
    );
  }
  const length = Number(request.headers['content-length']);
  // Requests injected in-process (app.inject) have no socket, hence no idle timer to set.
  const idle = typeof request.raw.setTimeout === 'function' ? request.raw : undefined;
  idle?.setTimeout(idleMs, () => request.raw.destroy(new Error('Upload stalled')));
  try {
    return await ingest({
      kind,
      files: multipartFiles(request, kind, limit),
      ...(Number.isSafeInteger(length) && length > 0 ? { declaredBytes: length } : {}),
    });
  } catch (error) {
    const refusal = multipartRefusal(error, kind, limit);
    if (refusal instanceof HttpError) await drainRequest(request.raw);
    throw refusal;
  } finally {
    // Back to the server's own idle rule for the rest of this keep-alive connection.
    idle?.setTimeout(0);
  }
}
