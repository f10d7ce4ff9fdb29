import { inflateAtMost } from './bounded-inflate.ts';
import { rasDirections } from './orientation.ts';
import { axisCodes, readSamples, sampleRange, type SampleType } from './typed-samples.ts';
import {
  assertDecodable,
  assertExpandable,
  DEFAULT_DECODE_LIMITS,
  UndecodableImageError,
  type DecodeLimits,
  type ImageVolume,
} from './volume.ts';

const sampleBytes: Record<SampleType, number> = {
  int8: 1,
  uint8: 1,
  int16: 2,
  uint16: 2,
  int32: 4,
  uint32: 4,
  float32: 4,
  float64: 8,
  int64: 8,
  uint64: 8,
};

const typeNames: Record<string, SampleType> = {
  'signed char': 'int8',
  int8: 'int8',
  int8_t: 'int8',
  uchar: 'uint8',
  'unsigned char': 'uint8',
  uint8: 'uint8',
  uint8_t: 'uint8',
  short: 'int16',
  'short int': 'int16',
  'signed short': 'int16',
  'signed short int': 'int16',
  int16: 'int16',
  int16_t: 'int16',
  ushort: 'uint16',
  'unsigned short': 'uint16',
  'unsigned short int': 'uint16',
  uint16: 'uint16',
  uint16_t: 'uint16',
  int: 'int32',
  'signed int': 'int32',
  int32: 'int32',
  int32_t: 'int32',
  uint: 'uint32',
  'unsigned int': 'uint32',
  uint32: 'uint32',
  uint32_t: 'uint32',
  longlong: 'int64',
  'long long': 'int64',
  int64: 'int64',
  int64_t: 'int64',
  ulonglong: 'uint64',
  'unsigned long long': 'uint64',
  uint64: 'uint64',
  uint64_t: 'uint64',
  float: 'float32',
  double: 'float64',
};

/** True when the bytes start with an NRRD magic line. */
export const isNrrd = (bytes: Uint8Array) => new TextDecoder().decode(bytes.subarray(0, 7)) === 'NRRD000';

/** The header fields of an NRRD file, keys lower-cased, and where its data starts. */
export function readNrrdHeader(bytes: Uint8Array): { fields: Map<string, string>; dataOffset: number } {
  let end = -1;
  for (let i = 0; i < Math.min(bytes.length - 1, 65536); i++) {
    if (bytes[i] === 10 && (bytes[i + 1] === 10 || (bytes[i + 1] === 13 && bytes[i + 2] === 10))) {
      end = i + (bytes[i + 1] === 10 ? 2 : 3);
      break;
    }
  }
  if (end < 0) throw new UndecodableImageError('The NRRD header has no end (missing blank line).');
  const fields = new Map<string, string>();
  for (const line of new TextDecoder().decode(bytes.subarray(0, end)).split(/\r?\n/).slice(1)) {
    if (line.startsWith('#') || !line.includes(':')) continue;
    const [key, ...rest] = line.split(/:=?/);
    fields.set(key!.trim().toLowerCase(), rest.join(':').trim());
  }
  return { fields, dataOffset: end };
}

function vectors(text: string | undefined): number[][] | undefined {
  if (!text) return undefined;
  const found = [...text.matchAll(/\(([^)]*)\)/g)].map((m) => m[1]!.split(',').map(Number));
  return found.length ? found : undefined;
}

/** Axis kinds that are positions in space or time; any other (list, vector…) indexes values at each voxel. */
const domainKinds = /^(domain|space|time|)$/i;

/**
 * Decodes an NRRD file with its data attached, in raw or gzip encoding; gzip data is inflated no
 * further than the header's sizes declare. Of a 4D file, volume `timePoint` (the first by default):
 * volumes follow one another when the fourth axis is last (x y z t), and are interleaved voxel by voxel
 * when a list axis comes first (a diffusion series' gradients: kinds "list domain domain domain").
 */
export function decodeNrrd(
  bytes: Uint8Array,
  limits: DecodeLimits = DEFAULT_DECODE_LIMITS,
  timePoint = 0,
): ImageVolume {
  const { fields, dataOffset } = readNrrdHeader(bytes);
  const type = typeNames[fields.get('type') ?? ''];
  if (!type) throw new UndecodableImageError(`NRRD type "${fields.get('type')}" is not supported.`);
  if (fields.has('data file') || fields.has('datafile'))
    throw new UndecodableImageError(
      'NRRD files with detached data are not supported; upload the .nrrd with its data attached.',
    );
  const encoding = fields.get('encoding') ?? 'raw';
  const sizes = (fields.get('sizes') ?? '').split(/\s+/).map(Number);
  const dimension = Number(fields.get('dimension') ?? sizes.length);
  if (!sizes.length || sizes.some((s) => !Number.isInteger(s) || s < 1) || dimension !== sizes.length) {
    throw new UndecodableImageError('The NRRD sizes field is missing or does not match its dimension.');
  }
  // A leading axis of 3 samples whose kind says so is colour; other multi-sample axes are not images.
  const kinds = (fields.get('kinds') ?? '').split(/\s+/);
  const rgb = sizes.length >= 3 && sizes[0] === 3 && /rgb|3-color|vector/i.test(kinds[0] ?? '');
  const interleaved = !rgb && sizes.length === 4 && !domainKinds.test(kinds[0] ?? '');
  const spatial = rgb || interleaved ? sizes.slice(1) : sizes;
  const [width = 1, height = 1, depth = 1] = spatial;
  const timePoints = interleaved ? sizes[0]! : spatial.slice(3).reduce((product, size) => product * size, 1);
  if (!Number.isInteger(timePoint) || timePoint < 0 || timePoint >= timePoints)
    throw new RangeError(`Volume ${timePoint} is out of range: this file has ${timePoints}.`);
  const channels = rgb ? 3 : 1;
  assertDecodable(width * height * depth * channels);
  const count = width * height * depth * channels;
  // Every sample of every axis (a 4D file's later volumes too) is in the data.
  const declared = sizes.reduce((product, size) => product * size, 1) * sampleBytes[type];
  assertExpandable(declared, limits, 'This NRRD file');
  let payload = bytes.subarray(dataOffset);
  // Only the declared bytes are needed; a little over that is tolerated, far over it is not the file it claims.
  if (encoding === 'gzip' || encoding === 'gz')
    payload = inflateAtMost(payload, 'gzip', declared + 64 * 1024, 'This NRRD file');
  else if (encoding !== 'raw')
    throw new UndecodableImageError(`NRRD encoding "${encoding}" is not supported (raw and gzip are).`);
  let data: Float32Array;
  const little = (fields.get('endian') ?? 'little') === 'little';
  try {
    if (interleaved) {
      // Each voxel holds its values for every volume in turn: volume t is every timePoints-th sample.
      const all = readSamples(payload, type, count * timePoints, little);
      data = new Float32Array(count);
      for (let i = 0; i < count; i++) data[i] = all[i * timePoints + timePoint]!;
    } else {
      data = readSamples(payload.subarray(timePoint * count * sampleBytes[type]), type, count, little);
    }
  } catch {
    throw new UndecodableImageError('The NRRD data is shorter than its header says.');
  }
  const directions = vectors(fields.get('space directions'))?.slice(0, 3);
  const spacings = (fields.get('spacings') ?? '')
    .split(/\s+/)
    .map(Number)
    .filter((v) => Number.isFinite(v) && v > 0);
  const spacing = [0, 1, 2].map((i) => (directions?.[i] ? Math.hypot(...directions[i]!) : spacings[i]) || 1) as [
    number,
    number,
    number,
  ];
  // NRRD spaces are named; convert LPS directions to RAS so orientation codes match NIfTI's.
  const space = fields.get('space') ?? '';
  const lps = /left-posterior|^lps/i.test(space);
  const columns = directions?.length === 3 ? directions.map((v) => (lps ? [-v[0]!, -v[1]!, v[2]!] : v)) : undefined;
  return {
    format: 'nrrd',
    width,
    height,
    depth,
    channels,
    data,
    spacing,
    bitDepth: {
      uint8: 8,
      int8: 8,
      uint16: 16,
      int16: 16,
      uint32: 32,
      int32: 32,
      float32: 32,
      float64: 64,
      int64: 64,
      uint64: 64,
    }[type],
    storedRange: sampleRange(type) ?? [-Infinity, Infinity],
    photometric: rgb ? 'RGB' : 'MONOCHROME2',
    invert: false,
    orientation: columns && space ? axisCodes(columns) : undefined,
    directions: columns && space ? rasDirections(columns) : undefined,
    seriesDescription: fields.get('content'),
    ...(timePoints > 1 && { timePoints, timePoint }),
  };
}
