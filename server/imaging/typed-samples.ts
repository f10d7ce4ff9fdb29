/** A sample type of a volume file, as NIfTI and NRRD name them. */
export type SampleType =
  'uint8' | 'int8' | 'uint16' | 'int16' | 'uint32' | 'int32' | 'float32' | 'float64' | 'int64' | 'uint64';

/** Bytes per sample of each type. */
export const sampleBytes: Record<SampleType, number> = {
  uint8: 1,
  int8: 1,
  uint16: 2,
  int16: 2,
  uint32: 4,
  int32: 4,
  float32: 4,
  float64: 8,
  int64: 8,
  uint64: 8,
};

/** The integer range of a sample type, for clipping; floats have none (undefined). */
export function sampleRange(type: SampleType): [number, number] | undefined {
  const ranges: Partial<Record<SampleType, [number, number]>> = {
    uint8: [0, 255],
    int8: [-128, 127],
    uint16: [0, 65535],
    int16: [-32768, 32767],
    uint32: [0, 4294967295],
    int32: [-2147483648, 2147483647],
  };
  return ranges[type];
}

/**
 * Reads `count` samples of `type` from `bytes` into real values, applying `slope * v + intercept`.
 * Endianness is the file's; DataView keeps that independent of the machine.
 */
export function readSamples(
  bytes: Uint8Array,
  type: SampleType,
  count: number,
  littleEndian: boolean,
  slope = 1,
  intercept = 0,
): Float32Array {
  const size = sampleBytes[type];
  if (bytes.length < count * size)
    throw new RangeError(`expected ${count * size} bytes of samples, found ${bytes.length}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, count * size);
  const out = new Float32Array(count);
  const read: (offset: number) => number = {
    uint8: (o: number) => view.getUint8(o),
    int8: (o: number) => view.getInt8(o),
    uint16: (o: number) => view.getUint16(o, littleEndian),
    int16: (o: number) => view.getInt16(o, littleEndian),
    uint32: (o: number) => view.getUint32(o, littleEndian),
    int32: (o: number) => view.getInt32(o, littleEndian),
    float32: (o: number) => view.getFloat32(o, littleEndian),
    float64: (o: number) => view.getFloat64(o, littleEndian),
    int64: (o: number) => Number(view.getBigInt64(o, littleEndian)),
    uint64: (o: number) => Number(view.getBigUint64(o, littleEndian)),
  }[type];
  // Separate loops keep the common unscaled case free of a multiply per voxel.
  if (slope === 1 && intercept === 0) for (let i = 0; i < count; i++) out[i] = read(i * size);
  else for (let i = 0; i < count; i++) out[i] = read(i * size) * slope + intercept;
  for (let i = 0; i < count; i++) if (!Number.isFinite(out[i]!)) out[i] = 0;
  return out;
}

/** Orientation letters (such as "RAS") from the columns of a voxel-to-world matrix in RAS+ space. */
export function axisCodes(columns: number[][]): string {
  const letters = [
    ['L', 'R'],
    ['P', 'A'],
    ['I', 'S'],
  ] as const;
  return columns
    .map((column) => {
      const axis = column.map(Math.abs).indexOf(Math.max(...column.map(Math.abs)));
      return letters[axis]![column[axis]! >= 0 ? 1 : 0];
    })
    .join('');
}
