// The imaging work run on the pool of imaging-pool.ts: each export is one task, bytes in and bytes out.
// Nothing here touches storage: the main thread writes what a task answers.
import { createHash } from 'node:crypto';
import { deidentifyDicomWithReport } from '../imaging/dicom/deidentify.ts';
import type { PixelRect } from '../imaging/dicom/blank-regions.ts';
import {
  blankStoredDicom,
  RegionOutsideError,
  UnblankableError,
  withBurnedInAnnotationNo,
} from '../imaging/dicom/pixel-rewrite.ts';
import type { DeidentificationReport } from '../imaging/dicom/deidentify-report.ts';
import { DecompressionLimitError } from '../imaging/bounded-inflate.ts';
import { decodeImage } from '../imaging/decode-image.ts';
import { UndecodableImageError, type DecodeLimits, type ImageVolume } from '../imaging/volume.ts';
import { transferred } from './transferred.ts';

/** A file to de-identify and the salt (its workspace's) its UIDs are remapped with. */
export interface DeidentifyTask {
  bytes: Uint8Array;
  salt: string;
}

/** The cleaned file, its SHA-256 and what cleaning did, or why it could not be cleaned (a message meant for the uploader). */
export type DeidentifyAnswer =
  { bytes: Uint8Array; sha256: string; report: DeidentificationReport } | { unreadable: string | undefined };

/** De-identifies one DICOM file (PS3.15 Basic Profile, see deidentify.ts) and hashes the result. */
export async function deidentify({ bytes, salt }: DeidentifyTask): Promise<DeidentifyAnswer> {
  let clean: Uint8Array[];
  let report: DeidentificationReport;
  try {
    ({ parts: clean, report } = await deidentifyDicomWithReport(bytes, salt));
  } catch (error) {
    // Only the message of an undecodable file is meant for the user; anything else stays generic.
    return { unreadable: error instanceof UndecodableImageError ? error.message : undefined };
  }
  const hash = createHash('sha256');
  for (const run of clean) hash.update(run);
  const joined = Buffer.concat(clean);
  // A small result is a view into Node's shared buffer pool, which cannot move: it is copied into its own.
  const cleaned = joined.byteLength === joined.buffer.byteLength ? joined : new Uint8Array(joined);
  const answer = { bytes: cleaned, sha256: hash.digest('hex'), report };
  return transferred(answer, [answer.bytes.buffer as ArrayBuffer]);
}

/** A stored DICOM file and rectangles to blank in every frame of it. */
export interface BlankTask {
  bytes: Uint8Array;
  regions: PixelRect[];
}

/** The file with the rectangles blanked and its SHA-256, or why it could not be done (meant for the user). */
export type BlankAnswer =
  { bytes: Uint8Array; sha256: string; decoded: boolean } | { refused: string; outside: boolean };

/** Blanks rectangles in every frame of a stored DICOM file (see pixel-rewrite.ts) and hashes the result. */
export async function blank({ bytes, regions }: BlankTask): Promise<BlankAnswer> {
  let out;
  try {
    out = await blankStoredDicom(bytes, regions);
  } catch (error) {
    if (error instanceof UnblankableError)
      return { refused: error.message, outside: error instanceof RegionOutsideError };
    return { refused: 'The pixel data of this DICOM file could not be blanked.', outside: false };
  }
  const answer = {
    bytes: out.bytes,
    sha256: createHash('sha256').update(out.bytes).digest('hex'),
    decoded: out.decoded,
  };
  return transferred(answer, [answer.bytes.buffer as ArrayBuffer]);
}

/** The stored file with Burned In Annotation set to NO (see pixel-rewrite.ts), or why it could not be (meant for the user). */
export async function markClean({
  bytes,
}: {
  bytes: Uint8Array;
}): Promise<{ bytes: Uint8Array } | { refused: string }> {
  let out: Uint8Array;
  try {
    out = withBurnedInAnnotationNo(bytes);
  } catch (error) {
    return { refused: error instanceof UnblankableError ? error.message : 'This DICOM file could not be rewritten.' };
  }
  return transferred({ bytes: out }, [out.buffer as ArrayBuffer]);
}

/** A stored file to decode: its bytes, the stored format as a hint, and how far compressed data may expand. */
export interface DecodeTask {
  bytes: Uint8Array;
  hint?: string;
  limits: DecodeLimits;
  /** Which volume of a 4D file. */
  timePoint?: number;
}

/** Why a decode was refused: a decompression limit, a reason the decoder gives, or damage it tripped over. */
export type DecodeRefusal = { kind: 'limit' | 'undecodable' | 'damaged'; message: string };

/** The decoded volume, or the refusal (errors do not cross threads as their classes). */
export type DecodeAnswer = { volume: ImageVolume } | { refused: DecodeRefusal };

/** Decodes any supported image (see decodeImage), its voxels moved to the main thread. */
export async function decode({ bytes, hint, limits, timePoint }: DecodeTask): Promise<DecodeAnswer> {
  let volume: ImageVolume;
  try {
    volume = await decodeImage(bytes, hint, limits, timePoint);
  } catch (error) {
    const kind =
      error instanceof DecompressionLimitError
        ? 'limit'
        : error instanceof UndecodableImageError
          ? 'undecodable'
          : 'damaged';
    return { refused: { kind, message: kind === 'damaged' ? '' : (error as Error).message } };
  }
  // The voxels go on shared memory: the main thread keeps the volume and hands it to the render and check tasks
  // of this pool, which then read the same bytes instead of a copy made on the event loop.
  const shared = new Float32Array(new SharedArrayBuffer(volume.data.byteLength));
  shared.set(volume.data);
  return { volume: { ...volume, data: shared } };
}

/** The built-in quality check of one stored file, or of a decoded volume (see modules/qc/check-task.ts). */
export { check, checkDecoded } from '../modules/qc/check-task.ts';

/** Previews and thumbnails of decoded volumes (see render-tasks.ts). */
export { renderSlice, thumbnail } from './render-tasks.ts';

/** Opens a zip archive of an upload, or packs slices into one (see archive-task.ts). */
export { expandArchive, packArchive } from './archive-task.ts';
