import type { FastifyReply } from 'fastify';
import type { ByteRange, Storage } from '../../storage/storage.ts';
import { fileTypeOf } from '../ingest/file-types.ts';
import { uploadStorageKey, type UploadRow } from './uploads.repository.ts';

/**
 * The single byte range asked for by a `Range` header, clamped to the file; undefined for none or a
 * form this server does not serve partially (it then sends the whole file), 'unsatisfiable' for 416.
 * @example parseRange('bytes=0-99', 1000) // { start: 0, end: 99 }
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  const match = header?.match(/^bytes=(\d*)-(\d*)$/);
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/** A Content-Disposition value with an ASCII fallback and the UTF-8 name (RFC 6266). */
export function contentDisposition(kind: 'inline' | 'attachment', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * Streams an upload's bytes with its type, name and Range support. Browsers may show previewable
 * images inline; anything else is offered as a download, and nosniff stops a browser from guessing.
 */
export async function sendUpload(
  reply: FastifyReply,
  storage: Storage,
  upload: UploadRow,
  rangeHeader: string | undefined,
): Promise<FastifyReply> {
  const size = upload.sizeBytes;
  const previewable = fileTypeOf(upload.originalName)?.previewable ?? upload.contentType.startsWith('image/');
  reply
    .header('content-type', upload.contentType)
    .header('content-disposition', contentDisposition(previewable ? 'inline' : 'attachment', upload.originalName))
    .header('x-content-type-options', 'nosniff')
    .header('accept-ranges', 'bytes')
    .header('cache-control', 'private, max-age=0, must-revalidate')
    .header('etag', `"${upload.sha256}"`);
  const range = parseRange(rangeHeader, size);
  if (range === 'unsatisfiable') {
    return reply.code(416).header('content-range', `bytes */${size}`).type('application/json').send({
      detail: 'Requested range not satisfiable',
    });
  }
  const key = uploadStorageKey(upload.storedFilename);
  if (range) {
    reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
      .header('content-length', range.end - range.start + 1);
    return reply.send(await storage.get(key, range));
  }
  reply.header('content-length', size);
  return reply.send(size === 0 ? '' : await storage.get(key));
}
