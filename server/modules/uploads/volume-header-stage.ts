import { Transform, type TransformCallback } from 'node:stream';
import { HttpError } from '../../http-errors.ts';
import {
  cleanNiftiHeader,
  cleanNrrdHeader,
  niftiDataOffset,
  nrrdHeaderEnd,
} from '../../imaging/volume-header-clean.ts';

/** Largest header held to be cleaned: NIfTI extensions and NRRD headers are far smaller in practice. */
const MAX_HEADER_BYTES = 16 * 1024 * 1024;

/**
 * The stage of a NIfTI or NRRD upload stream (decompressed, for .nii.gz) that clears the free text of the
 * header (see volume-header-clean.ts): it holds bytes only until the header is complete, cleans it, and
 * passes everything after it untouched. A header over 16 MiB is refused (422): it cannot be shown clean.
 */
export function volumeHeaderCleaner(format: 'nii' | 'nrrd'): Transform {
  const held: Buffer[] = [];
  let size = 0;
  let passing = false;
  const clean = (head: Buffer): Buffer =>
    format === 'nii'
      ? Buffer.from(cleanNiftiHeader(head))
      : Buffer.from(cleanNrrdHeader(head.toString('latin1')), 'latin1');
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      if (passing) return done(null, chunk);
      held.push(chunk);
      size += chunk.length;
      const head = Buffer.concat(held.splice(0), size);
      held.push(head);
      const end = format === 'nii' ? niftiDataOffset(head) : nrrdHeaderEnd(head);
      if (end === undefined || end > head.length) {
        if (size > MAX_HEADER_BYTES) {
          return done(new HttpError(422, 'The header of this file is too large to be cleaned of free text.'));
        }
        return done();
      }
      passing = true;
      this.push(clean(head.subarray(0, end)));
      return done(null, head.subarray(end));
    },
    flush(done: TransformCallback) {
      // A file that ends inside its header: what there is, cleaned.
      if (!passing && size > 0) this.push(clean(Buffer.concat(held, size)));
      done();
    },
  });
}
