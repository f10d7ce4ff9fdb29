import type { VoxelDirections } from './orientation.ts';

/** Normalised format names of the product (SPEC §1 plus the raster formats it previews). */
export type ImageFormat = 'dcm' | 'nii' | 'nrrd' | 'png' | 'jpg' | 'tiff' | 'bmp' | 'gif' | 'webp';

/** A display window: values below centre - width/2 are black, above centre + width/2 white. */
export interface DisplayWindow {
  center: number;
  width: number;
}

/**
 * Any decoded image as one volume of real-valued voxels (rescale already applied).
 * Voxels run x fastest, then y, then z; colour channels are interleaved per voxel.
 */
export interface ImageVolume {
  format: ImageFormat;
  width: number;
  height: number;
  /** Slices of a volume or frames of a multi-frame DICOM; 1 for a plain picture. */
  depth: number;
  /** Volumes in the file (time points of a 4D NIfTI); absent for one. */
  timePoints?: number;
  /** Which of them this is, from 0. */
  timePoint?: number;
  channels: 1 | 3;
  data: Float32Array;
  /** Millimetres between voxel centres along x, y, z (1 when the file does not say). */
  spacing: [number, number, number];
  /** Bits per stored sample, before rescaling. */
  bitDepth: number;
  /** The smallest and largest value the stored type can hold, after rescaling; clipping is measured against it. */
  storedRange: [number, number];
  photometric: string;
  /** MONOCHROME1: low values are shown white. */
  invert: boolean;
  window?: DisplayWindow;
  modality?: string;
  orientation?: string;
  /** Patient directions (LPS) of the voxel axes, from the file's geometry; previews are drawn the standard way from them. */
  directions?: VoxelDirections;
  studyDescription?: string;
  /** DICOM Image Position (Patient) of the first slice, in mm; stacks of slices get their spacing from it. */
  origin?: [number, number, number];
  seriesDescription?: string;
  /** DICOM Image Type (0008,0008), its values joined by backslashes: NM says there whether a frame is planar or tomographic. */
  imageType?: string;
  /** DICOM Protocol Name (0018,1030): images of one protocol form a cohort for the quality check. */
  protocol?: string;
  /** DICOM In-plane Phase Encoding Direction (0018,1312): the MR artefacts of phase encoding run along it. */
  phaseEncoding?: 'ROW' | 'COL';
  /** DICOM SOP Class UID (0008,0016), or the File Meta's Media Storage SOP Class UID when the dataset lacks it. */
  sopClassUid?: string;
  /** Slices a DICOM series lacks, by the gaps between its Image Positions (absent when none are). */
  missingSlices?: number;
}

/** Number of voxels in one slice (all channels counted once). */
export const sliceSize = (volume: ImageVolume) => volume.width * volume.height;

/** The value range representable by an integer type of `bits` bits, after `slope * v + intercept`. */
export function integerRange(bits: number, signed: boolean, slope = 1, intercept = 0): [number, number] {
  const low = signed ? -(2 ** (bits - 1)) : 0;
  const high = signed ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
  const a = low * slope + intercept;
  const b = high * slope + intercept;
  return [Math.min(a, b), Math.max(a, b)];
}

/** An image this product cannot decode; the message is safe to show and names what is missing. */
export class UndecodableImageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UndecodableImageError';
  }
}

/** Most voxels (times channels) one decode may hold: 150 million, 600 MB as 32-bit floats. */
export const MAX_DECODED_VALUES = 150_000_000;

/** Refuses, before allocating, an image whose decoded values would not fit the budget. */
export function assertDecodable(values: number): void {
  if (values > MAX_DECODED_VALUES) {
    throw new UndecodableImageError(
      `This image is too large to decode here (${Math.round(values / 1e6)} million values; the limit is ${MAX_DECODED_VALUES / 1e6} million).`,
    );
  }
}

/** What one decode may expand compressed data to. */
export interface DecodeLimits {
  /** Most bytes any decompression inside one file may produce (zip, gzip, deflated DICOM). */
  maxExpandedBytes: number;
}

/** Without a server's UPLOAD_MAX_BYTES, compressed data may expand to 1 GiB at most. */
export const DEFAULT_DECODE_LIMITS: DecodeLimits = { maxExpandedBytes: 1024 * 1024 * 1024 };

/** Refuses a file whose header declares more bytes than may be expanded, before expanding any. */
export function assertExpandable(declared: number, limits: DecodeLimits, what: string): void {
  if (declared > limits.maxExpandedBytes) {
    throw new UndecodableImageError(
      `${what} declares ${Math.ceil(declared / 1024 / 1024)} MB of image data, more than the ${Math.ceil(limits.maxExpandedBytes / 1024 / 1024)} MB one image may hold.`,
    );
  }
}
