// Multipart bodies of the bombs benchmark: one file, a series streamed slice by slice (never held whole by
// the client), and the two malformed bodies of the security review.
import { Readable } from 'node:stream';
import { ctPixelElement, ctSliceFile } from './ct-slices.ts';

/** A request body with the headers that describe it. */
export interface AttackBody {
  headers: Record<string, string>;
  body: Buffer | Readable;
  /** Bytes sent. */
  length: number;
}

const partHead = (boundary: string, name: string) =>
  Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );

/** One file as multipart/form-data under `boundary`. */
export function fileBody(name: string, bytes: Uint8Array, boundary = '----lumenqc-bombs'): AttackBody {
  const body = Buffer.concat([partHead(boundary, name), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { headers: multipartHeaders(boundary, body.length), body, length: body.length };
}

function multipartHeaders(boundary: string, length: number): Record<string, string> {
  return { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(length) };
}

/**
 * About `bytes` of CT slices of one series (1024 x 1024 16-bit, 2 MB each, distinct instance numbers), one part
 * each, generated while they are sent. Slices this size keep 600 MB under the 1,000 parts a multipart parser
 * takes by default, so the body is read whole rather than refused at its 1,001st part.
 */
export function seriesBody(bytes: number, boundary = '----lumenqc-series'): AttackBody {
  const size = 1024;
  const pixels = ctPixelElement(size);
  const first = ctSliceFile(0, size, pixels);
  const count = Math.max(1, Math.round(bytes / first.length));
  const tail = Buffer.from(`--${boundary}--\r\n`);
  const heads = Array.from({ length: count }, (_, i) => partHead(boundary, `IM${String(i + 1).padStart(5, '0')}.dcm`));
  const length = heads.reduce((sum, head) => sum + head.length + first.length + 2, tail.length);
  async function* parts(): AsyncGenerator<Uint8Array> {
    for (let i = 0; i < count; i++) {
      yield heads[i]!;
      yield i === 0 ? first : ctSliceFile(i, size, pixels);
      yield Buffer.from('\r\n');
    }
    yield tail;
  }
  return { headers: multipartHeaders(boundary, length), body: Readable.from(parts()), length };
}

/** A small file under a multipart boundary of `characters` (RFC 2046 allows 70; the review sent 300). */
export function longBoundaryBody(file: Uint8Array, characters = 300): AttackBody {
  return fileBody('long-boundary.dcm', file, `-${'b'.repeat(characters - 1)}`);
}

/** A multipart body cut off half-way through its file, with a Content-Length that matches what is sent. */
export function cutShortBody(file: Uint8Array): AttackBody {
  const whole = fileBody('cut-short.dcm', file);
  const body = (whole.body as Buffer).subarray(0, Math.floor(whole.length / 2));
  return { headers: { ...whole.headers, 'content-length': String(body.length) }, body, length: body.length };
}
