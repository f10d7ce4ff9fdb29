import * as nifti from 'nifti-reader-js';
import { axisCodes, readSamples, sampleRange, type SampleType } from './typed-samples.ts';
import { inflateAtMost, inflateHead, isGzip } from './bounded-inflate.ts';
import { rasDirections } from './orientation.ts';
import {
  assertDecodable,
  assertExpandable,
  DEFAULT_DECODE_LIMITS,
  UndecodableImageError,
  type DecodeLimits,
  type ImageVolume,
} from './volume.ts';

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

/** A NIfTI-2 header is 540 bytes, NIfTI-1's 348; the first 544 bytes hold either with its magic. */
const HEADER_BYTES = 544;

/** The header bytes of a file, gzipped or not: only as much is inflated as the header needs. */
const headOf = (bytes: Uint8Array) => (isGzip(bytes) ? inflateHead(bytes, 'gzip', HEADER_BYTES) : bytes);

/** True for NIfTI-1 or NIfTI-2 bytes, gzipped or not. */
export function isNifti(bytes: Uint8Array): boolean {
  try {
    return nifti.isNIFTI(headOf(bytes).slice(0, HEADER_BYTES).buffer);
  } catch {
    return false;
  }
}

/** Bytes a NIfTI file declares: its header and extensions up to vox_offset, then every voxel of every volume. */
function declaredBytes(header: nifti.NIFTI1 | nifti.NIFTI2): number {
  const dims = header.dims.slice(1, 1 + Math.min(7, Math.max(1, header.dims[0]!)));
  const voxels = dims.reduce((product, d) => product * Math.max(1, d), 1);
  return header.vox_offset + (voxels * header.numBitsPerVoxel) / 8;
}

/**
 * The bytes a NIfTI header (the first 352 or 544 bytes of the file, decompressed) declares the whole file
 * holds; undefined when `head` is not a NIfTI header.
 */
export function niftiDeclaredSize(head: Uint8Array): number | undefined {
  try {
    // A copy of its own: a Buffer's slice would be a view into a shared pool.
    const copy = Uint8Array.prototype.slice.call(head, 0, HEADER_BYTES).buffer;
    if (!nifti.isNIFTI(copy)) return undefined;
    const declared = declaredBytes(nifti.readHeader(copy));
    return Number.isFinite(declared) && declared >= 0 ? declared : undefined;
  } catch {
    return undefined;
  }
}

/** Width, height and depth: the first three dimensions, 1 where the file has fewer. */
function spatialDims(header: nifti.NIFTI1 | nifti.NIFTI2): [number, number, number] {
  return [1, 2, 3].map((i) => (header.dims[0]! >= i ? Math.max(1, header.dims[i]!) : 1)) as [number, number, number];
}

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? (bytes.buffer as ArrayBuffer)
    : (bytes.slice().buffer as ArrayBuffer);
}

/**
 * Decodes a NIfTI-1 or NIfTI-2 file (.nii or .nii.gz); of a 4D series, volume `timePoint` (the first by default). A gzipped file
 * is inflated no further than its header declares (with 64 KB to spare), so a small file that
 * would expand to gigabytes is refused after as little work as its header justifies.
 */
export function decodeNifti(
  bytes: Uint8Array,
  limits: DecodeLimits = DEFAULT_DECODE_LIMITS,
  timePoint = 0,
): ImageVolume {
  // A copy, so clearing its extension flag below leaves the file alone.
  const head = headOf(bytes).slice(0, HEADER_BYTES).buffer;
  if (!nifti.isNIFTI(head)) throw new UndecodableImageError('This is not a NIfTI-1 or NIfTI-2 file.');
  // The extension flag is cleared in the copy: the extensions lie past the header bytes at hand.
  const flag = nifti.isNIFTI1(head) ? 348 : 540;
  if (head.byteLength >= flag + 4) new Uint8Array(head, flag, 4).fill(0);
  const declaredHeader = nifti.readHeader(head);
  const declared = declaredBytes(declaredHeader);
  if (!Number.isFinite(declared) || declared < 0) throw new UndecodableImageError('The NIfTI header is damaged.');
  // The first volume must fit the decode budget (the clearer refusal), and all volumes the expansion limit.
  assertDecodable(
    spatialDims(declaredHeader).reduce((a, b) => a * b, 1) * (declaredHeader.datatypeCode === 128 ? 3 : 1),
  );
  assertExpandable(declared, limits, 'This NIfTI file');
  const buffer = toArrayBuffer(
    isGzip(bytes)
      ? inflateAtMost(bytes, 'gzip', Math.min(declared + 64 * 1024, limits.maxExpandedBytes), 'This NIfTI file')
      : bytes,
  );
  const header = nifti.readHeader(buffer);
  const type = datatypes[header.datatypeCode];
  if (!type) throw new UndecodableImageError(`NIfTI datatype ${header.datatypeCode} is not supported.`);
  const [width, height, depth] = spatialDims(header);
  // A fourth dimension of more than one is time (or volumes): dim[4] when dim[0] says there are four.
  const timePoints = header.dims[0]! >= 4 ? Math.max(1, header.dims[4]!) : 1;
  if (!Number.isInteger(timePoint) || timePoint < 0 || timePoint >= timePoints)
    throw new RangeError(`Volume ${timePoint} is out of range: this file has ${timePoints}.`);
  const voxels = width * height * depth;
  assertDecodable(voxels * (type === 'rgb24' ? 3 : 1));
  const image = new Uint8Array(nifti.readImage(header, buffer));
  // scl_slope 0 means "no scaling" in the NIfTI standard.
  const slope = header.scl_slope && Number.isFinite(header.scl_slope) ? header.scl_slope : 1;
  const intercept = slope !== 1 || header.scl_inter ? header.scl_inter || 0 : 0;
  let data: Float32Array;
  let channels: 1 | 3 = 1;
  try {
    // The volumes of a 4D file follow one another; `timePoint` chooses one.
    const volume = image.subarray((timePoint * voxels * header.numBitsPerVoxel) / 8);
    if (type === 'rgb24') {
      channels = 3;
      data = readSamples(volume, 'uint8', voxels * 3, true);
    } else {
      data = readSamples(volume, type, voxels, header.littleEndian, slope, intercept);
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
    directions: hasOrientation ? rasDirections(columns) : undefined,
    seriesDescription: header.description?.replace(/\0.*$/s, '').trim() || undefined,
    ...(timePoints > 1 && { timePoints, timePoint }),
  };
}
