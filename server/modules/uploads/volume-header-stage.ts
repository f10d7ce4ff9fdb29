import { Transform, type TransformCallback } from 'node:stream';
import { createGzip } from 'node:zlib';
import { HttpError } from '../../http-errors.ts';
import { boundedGunzip } from '../../imaging/bounded-inflate.ts';
import { niftiDeclaredSize } from '../../imaging/nifti-decode.ts';
import {
  cleanNiftiHeader,
  cleanNrrdHeader,
  niftiDataOffset,
  nrrdHeaderEnd,
} from '../../imaging/volume-header-clean.ts';

/**
 * Largest header held to be cleaned, by format. An NRRD header is a few lines of text (a few KB even with
 * many key/value pairs): past 1 MiB it is not a header. A NIfTI file's extensions sit before its voxels and
 * may legitimately be large (CIFTI-2 keeps its XML there, megabytes for a dense connectome), so 16 MiB.
 */
export const MAX_HEADER_BYTES = { nii: 16 * 1024 * 1024, nrrd: 1024 * 1024 } as const;

/** Why a header over MAX_HEADER_BYTES is refused. */
export const HEADER_TOO_LARGE = 'The header of this file is too large to be cleaned of free text.';

/** Where a header ends, found in time linear in the bytes seen: each byte is looked at once. */
interface HeaderEndFinder {
  /** Takes the next chunk; answers where the header ends (from the stream's start) once it is known. */
  push(chunk: Buffer, seenBefore: number): number | undefined;
}

// An NRRD header ends at its first blank line ("\n\n" or "\n\r\n"). Only the new chunk is scanned, with the
// two bytes before it kept so a line break split across chunks is still seen.
function nrrdEndFinder(): HeaderEndFinder {
  let tail = Buffer.alloc(0);
  return {
    push(chunk, seenBefore) {
      const window = Buffer.concat([tail, chunk]);
      const end = nrrdHeaderEnd(window);
      tail = Buffer.from(window.subarray(Math.max(0, window.length - 2)));
      return end === undefined ? undefined : seenBefore - (window.length - chunk.length) + end;
    },
  };
}

// A NIfTI header states where its voxels begin (vox_offset) in its first 352 (NIfTI-1) or 544 (NIfTI-2) bytes:
// only those are joined, once.
function niftiEndFinder(): HeaderEndFinder {
  let start: Buffer[] = [];
  let startSize = 0;
  let end: number | undefined;
  return {
    push(chunk) {
      if (end !== undefined) return end;
      start.push(chunk);
      startSize += chunk.length;
      if (startSize < 352) return undefined;
      const head = Buffer.concat(start, startSize);
      start = [head];
      const offset = niftiDataOffset(head);
      // A vox_offset that is not a number (NaN in a float field) puts the voxels right after the header.
      end = offset === undefined || Number.isFinite(offset) ? offset : 352;
      return end;
    },
  };
}

/**
 * The stage of a NIfTI or NRRD upload stream (decompressed, for .nii.gz) that clears the free text of the
 * header (see volume-header-clean.ts): it holds bytes only until the header is complete, cleans it, and
 * passes everything after it untouched. Each byte is scanned once and the held bytes joined once, so the
 * cost is linear in the header. A header over MAX_HEADER_BYTES is refused (422): it cannot be shown clean.
 */
export function volumeHeaderCleaner(format: 'nii' | 'nrrd'): Transform {
  const held: Buffer[] = [];
  let size = 0;
  let end: number | undefined;
  let passing = false;
  const finder = format === 'nii' ? niftiEndFinder() : nrrdEndFinder();
  const limit = MAX_HEADER_BYTES[format];
  const clean = (head: Buffer): Buffer =>
    format === 'nii'
      ? Buffer.from(cleanNiftiHeader(head))
      : Buffer.from(cleanNrrdHeader(head.toString('latin1')), 'latin1');
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      if (passing) return done(null, chunk);
      const seenBefore = size;
      held.push(chunk);
      size += chunk.length;
      end ??= finder.push(chunk, seenBefore);
      if (end !== undefined && end > limit) return done(new HttpError(422, HEADER_TOO_LARGE));
      if (end === undefined || end > size) {
        if (end === undefined && size > limit) return done(new HttpError(422, HEADER_TOO_LARGE));
        return done();
      }
      passing = true;
      const head = Buffer.concat(held.splice(0), size);
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

/**
 * Past 256 MiB, a gzip volume may expand at most twenty-fold over what has arrived of it. Large volumes are image
 * data (fMRI, diffusion, CT), which gzip two- to five-fold; what compresses further (label maps, masks) is small
 * and stays under the grace. Twenty-fold keeps them all and stops a 10 MB file of zeros at 256 MiB.
 */
const GZIP_VOLUME_RATIO = 20;
const GZIP_VOLUME_GRACE_BYTES = 256 * 1024 * 1024;

/**
 * The stages that clean a gzip NIfTI (.nii.gz) on arrival, in pipeline order: a bounded gunzip (see
 * boundedGunzip: at most `maxBytes` expanded, at most what the header declares plus 64 KiB, at most twenty times
 * what has arrived past 256 MiB; refused with 422 past any of them), the header stage, and gzip at level 1 again.
 * Level 1 compresses a volume some 5% larger than level 6 at a third or less of the CPU; with the expanded bytes
 * bounded, so is the work a client can ask of the server with a small file.
 * `beforeCleaning` stages see the decompressed bytes before the header is cleaned (to read what it identifies).
 * @example pipeline([file, signatureCheck(type), ...gzipVolumeCleaning('nii', limit)], () => undefined)
 */
export function gzipVolumeCleaning(
  format: 'nii' | 'nrrd',
  maxBytes: number,
  beforeCleaning: Transform[] = [],
): Transform[] {
  const gunzip = boundedGunzip(
    {
      absoluteBytes: maxBytes,
      ratio: GZIP_VOLUME_RATIO,
      graceBytes: GZIP_VOLUME_GRACE_BYTES,
      declaredOf: format === 'nii' ? niftiDeclaredSize : undefined,
    },
    format === 'nii' ? 'This NIfTI file' : 'This NRRD file',
    (message) => new HttpError(422, message),
  );
  return [...gunzip, ...beforeCleaning, volumeHeaderCleaner(format), createGzip({ level: 1 })];
}
