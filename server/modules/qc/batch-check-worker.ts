// A thread of the batch pool: decodes one stored image and runs the built-in engine on it, off the event loop.
import { HttpError } from '../../http-errors.ts';
import { decodeImage } from '../../imaging/decode-image.ts';
import { UndecodableImageError } from '../../imaging/volume.ts';
import { checkVolume, type BuiltinCheck } from './builtin-check.ts';

/** What a thread answers: the check, or the reason to show when the file cannot be read. */
export type WorkerAnswer = ({ ok: true } & BuiltinCheck) | { ok: false; detail: string };

/** Checks one image's bytes; any other failure is thrown, for the runner to record and log. */
export default async function checkBytes({
  bytes,
  format,
}: {
  bytes: Uint8Array;
  format: string;
}): Promise<WorkerAnswer> {
  try {
    return { ok: true, ...checkVolume(await decodeImage(bytes, format)) };
  } catch (error) {
    // A file that cannot be read, or an image the engine cannot measure (checkVolume's 422): the reason is the user's to see.
    if (error instanceof UndecodableImageError) return { ok: false, detail: error.message };
    if (error instanceof HttpError) return { ok: false, detail: error.detail };
    throw error;
  }
}
