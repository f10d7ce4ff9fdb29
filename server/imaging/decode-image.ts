import { decodeBmp } from './bmp-decode.ts';
import { decodeDicom } from './dicom/dicom-decode.ts';
import { hasDicomPreamble } from './dicom/dicom-dataset.ts';
import { decodeDicomSeries, isZip } from './dicom/dicom-series-decode.ts';
import { decodeNifti, isNifti } from './nifti-decode.ts';
import { decodeNrrd, isNrrd } from './nrrd-decode.ts';
import { decodeRaster, rasterFormat } from './raster-decode.ts';
import {
  DEFAULT_DECODE_LIMITS,
  UndecodableImageError,
  type DecodeLimits,
  type ImageFormat,
  type ImageVolume,
} from './volume.ts';

/**
 * The format of an image from its bytes; `hint` (the stored format or extension) decides only for
 * DICOM without a preamble, which has no signature of its own.
 * @example detectFormat(pngBytes) // 'png'
 */
export function detectFormat(bytes: Uint8Array, hint?: string): ImageFormat | undefined {
  if (hasDicomPreamble(bytes)) return 'dcm';
  const raster = rasterFormat(bytes);
  if (raster) return raster;
  if (isNrrd(bytes)) return 'nrrd';
  if (isNifti(bytes)) return 'nii';
  if (hint?.replace(/^\./, '') === 'dcm' || hint === 'dicom') return 'dcm';
  return undefined;
}

/**
 * Decodes any supported image into a volume; throws UndecodableImageError with a reason to show
 * otherwise. Compressed data (gzip, zip, deflated DICOM) expands no further than `limits` allow. Of a
 * 4D NIfTI, volume `timePoint`.
 */
export async function decodeImage(
  bytes: Uint8Array,
  hint?: string,
  limits: DecodeLimits = DEFAULT_DECODE_LIMITS,
  timePoint = 0,
): Promise<ImageVolume> {
  // A DICOM series item is the zip of its slices (see POST /uploads/series).
  if (isZip(bytes) && hint?.replace(/^\./, '') === 'dcm') return decodeDicomSeries(bytes, limits);
  const format = detectFormat(bytes, hint);
  if (!format) throw new UndecodableImageError('This file is not an image format the product can read.');
  if (format === 'dcm') return decodeDicom(bytes);
  if (format === 'nii') return decodeNifti(bytes, limits, timePoint);
  if (format === 'nrrd') return decodeNrrd(bytes, limits, timePoint);
  if (format === 'bmp') return decodeBmp(bytes);
  return decodeRaster(bytes);
}
