import * as nifti from 'nifti-reader-js';
import { axisCodes, readSamples, sampleRange, type SampleType } from './typed-samples.ts';
import { assertDecodable, UndecodableImageError, type ImageVolume } from './volume.ts';

const datatypes: Record<number, SampleType | 'rgb24'> = {
  2: 'uint8',
  4: 'int16',
  8: 'int32',
  16: 'float32',
  64: 'float64',
  128: 'rgb24',
  256: 'int8',
  512: 'uint16',
  768: 'uint32',
  1024: 'int64',
  1280: 'uint64',
};

/** True for NIfTI-1 or NIfTI-2 bytes, gzipped or not. */
export function isNifti(bytes: Uint8Array): boolean {
  const buffer = toArrayBuffer(bytes);
  try {
    return nifti.isNIFTI(nifti.isCompressed(buffer) ? (nifti.decompress(buffer) as ArrayBuffer) : buffer);
  } catch {
    return false;
  }
}

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? (bytes.buffer as ArrayBuffer)
    : (bytes.slice().buffer as ArrayBuffer);
}

/** Decodes a NIfTI-1 or NIfTI-2 file (.nii or .nii.gz); of a 4D series, the first volume. */
export function decodeNifti(bytes: Uint8Array): ImageVolume {
  let buffer = toArrayBuffer(bytes);
  if (nifti.isCompressed(buffer)) buffer = nifti.decompress(buffer) as ArrayBuffer;
  if (!nifti.isNIFTI(buffer)) throw new UndecodableImageError('This is not a NIfTI-1 or NIfTI-2 file.');
  const header = nifti.readHeader(buffer);
  const type = datatypes[header.datatypeCode];
  if (!type) throw new UndecodableImageError(`NIfTI datatype ${header.datatypeCode} is not supported.`);
  const [width, height, depth] = [1, 2, 3].map((i) => (header.dims[0]! >= i ? Math.max(1, header.dims[i]!) : 1)) as [
    number,
    number,
    number,
  ];
  const voxels = width * height * depth;
  assertDecodable(voxels * (type === 'rgb24' ? 3 : 1));
  const image = new Uint8Array(nifti.readImage(header, buffer));
  // scl_slope 0 means "no scaling" in the NIfTI standard.
  const slope = header.scl_slope && Number.isFinite(header.scl_slope) ? header.scl_slope : 1;
  const intercept = slope !== 1 || header.scl_inter ? header.scl_inter || 0 : 0;
  let data: Float32Array;
  let channels: 1 | 3 = 1;
  try {
    if (type === 'rgb24') {
      channels = 3;
      data = readSamples(image, 'uint8', voxels * 3, true);
    } else {
      data = readSamples(image, type, voxels, header.littleEndian, slope, intercept);
    }
  } catch {
    throw new UndecodableImageError('The NIfTI file is shorter than its header says.');
  }
  const range = type === 'rgb24' ? ([0, 255] as [number, number]) : sampleRange(type);
  const scaled = range ? range.map((v) => v * slope + intercept).sort((a, b) => a - b) : undefined;
  // The sform wins when set; otherwise the quaternion qform is turned into a matrix.
  const affine = header.sform_code > 0 ? header.affine : header.getQformMat();
  const columns = [0, 1, 2].map((c) => [0, 1, 2].map((r) => affine[r]?.[c] ?? 0));
  const hasOrientation = header.qform_code > 0 || header.sform_code > 0;
  return {
    format: 'nii',
    width,
    height,
    depth,
    channels,
    data,
    spacing: [1, 2, 3].map((i) => Math.abs(header.pixDims[i] ?? 1) || 1) as [number, number, number],
    bitDepth: header.numBitsPerVoxel,
    storedRange: (scaled as [number, number] | undefined) ?? [-Infinity, Infinity],
    photometric: channels === 3 ? 'RGB' : 'MONOCHROME2',
    invert: false,
    window:
      header.cal_max > header.cal_min
        ? { center: (header.cal_max + header.cal_min) / 2, width: header.cal_max - header.cal_min }
        : undefined,
    orientation: hasOrientation ? axisCodes(columns) : undefined,
    seriesDescription: header.description?.replace(/\0.*$/s, '').trim() || undefined,
  };
}
