import { DecompressionLimitError } from '../../imaging/bounded-inflate.ts';
import { UndecodableImageError } from '../../imaging/volume.ts';
import { HttpError, unprocessable, unsupportedType } from '../../http-errors.ts';

/**
 * The answer for a failed decode: 415 with the decoder's reason for what it cannot read, 422 for a
 * decompression bomb, and 422 too for anything else a hostile or damaged file makes a decoder throw
 * (a RangeError deep in a codec): never a 500 for a file a client sent.
 */
export function imagingHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof DecompressionLimitError) return unprocessable(error.message);
  if (error instanceof UndecodableImageError) return unsupportedType(error.message);
  return unprocessable('This image could not be decoded: the file is damaged or incomplete.');
}
