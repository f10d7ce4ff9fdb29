import { runImagingTask } from './imaging-pool.ts';
import { DecompressionLimitError } from '../imaging/bounded-inflate.ts';
import { UndecodableImageError, type DecodeLimits, type ImageVolume } from '../imaging/volume.ts';

/** What a decoder threw on its thread, for damage it tripped over rather than a reason it gave. */
export class DamagedImageError extends Error {
  constructor() {
    super('The decoder failed on this file.');
    this.name = 'DamagedImageError';
  }
}

/**
 * Decodes an image (see decodeImage) on the imaging pool: a large volume or a slow codec takes seconds,
 * during which no other request would move on the event loop. Throws the decoder's own errors
 * (UndecodableImageError, DecompressionLimitError), or DamagedImageError for anything else it threw.
 * `input` is moved to the thread when it owns its whole buffer, so the caller must not use it afterwards.
 */
export async function decodeOffThread(
  input: Uint8Array,
  hint: string | undefined,
  limits: DecodeLimits,
  timePoint = 0,
): Promise<ImageVolume> {
  const own = input.byteOffset === 0 && input.byteLength === input.buffer.byteLength ? input : input.slice();
  const answer = await runImagingTask('decode', { bytes: own, hint, limits, timePoint }, [own.buffer as ArrayBuffer]);
  if ('volume' in answer) return answer.volume;
  const { kind, message } = answer.refused;
  if (kind === 'limit') throw new DecompressionLimitError(message);
  if (kind === 'undecodable') throw new UndecodableImageError(message);
  throw new DamagedImageError();
}
