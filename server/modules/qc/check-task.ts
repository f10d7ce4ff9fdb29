// The built-in check as a task of the imaging pool (server/workers/imaging-tasks.ts re-exports it): a stored
// file decoded and measured on a pool thread, only the numbers coming back to the event loop.
import { HttpError } from '../../http-errors.ts';
import { DecompressionLimitError } from '../../imaging/bounded-inflate.ts';
import { decodeImage } from '../../imaging/decode-image.ts';
import { UndecodableImageError, type DecodeLimits, type ImageVolume } from '../../imaging/volume.ts';
import { checkVolume, type BuiltinCheck } from './builtin-check.ts';

/** A stored file to check: its bytes, the stored format as a hint, and how far compressed data may expand. */
export interface CheckTask {
  bytes: Uint8Array;
  hint?: string;
  limits: DecodeLimits;
}

/** The check, or the reason to show when the file cannot be read or measured (errors do not cross threads as their classes). */
export type CheckAnswer = ({ ok: true } & BuiltinCheck) | { ok: false; detail: string };

/** Decodes and checks one file; a failure that is not the file's is thrown, for the caller to log. */
export async function check({ bytes, hint, limits }: CheckTask): Promise<CheckAnswer> {
  let volume;
  try {
    volume = await decodeImage(bytes, hint, limits);
  } catch (error) {
    if (error instanceof UndecodableImageError || error instanceof DecompressionLimitError)
      return { ok: false, detail: error.message };
    return { ok: false, detail: 'The decoder failed on this file.' };
  }
  try {
    return { ok: true, ...checkVolume(volume) };
  } catch (error) {
    // checkVolume's 422: an image the engine cannot measure, with the reason.
    if (error instanceof HttpError) return { ok: false, detail: error.detail };
    throw error;
  }
}

/** Checks an already decoded volume (see checkVolume); its 422 comes back as the reason. */
export function checkDecoded({ volume }: { volume: ImageVolume }): CheckAnswer {
  try {
    return { ok: true, ...checkVolume(volume) };
  } catch (error) {
    if (error instanceof HttpError) return { ok: false, detail: error.detail };
    throw error;
  }
}
