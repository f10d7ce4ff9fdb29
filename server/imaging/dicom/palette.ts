import { UndecodableImageError } from '../volume.ts';
import type { DicomDataSet } from './dicom-dataset.ts';

/** The three lookup tables of a PALETTE COLOR image (PS3.3 C.7.6.3.1.5). */
export interface Palette {
  red: Uint16Array;
  green: Uint16Array;
  blue: Uint16Array;
  /** The stored value the first entry maps. */
  firstMapped: number;
  /** Bits per entry (8 or 16): the range of the colours, for display. */
  bits: number;
}

/** Rounds half to even, as NumPy does, so interpolated entries agree with the reference toolkits. */
const roundHalfEven = (v: number) => {
  const r = Math.round(v);
  return Math.abs(v % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
};

/**
 * Expands a segmented lookup table (PS3.3 C.7.9.2) to `entries` values: discrete segments (opcode 0) list
 * their values, linear ones (opcode 1) run from the previous value to theirs. Indirect segments (opcode 2),
 * which reuse earlier segments by byte offset, are refused by name.
 * @example expandSegmentedTable([0, 1, 0, 1, 2, 100], 3) // Uint16Array [0, 50, 100]
 */
export function expandSegmentedTable(words: ArrayLike<number>, entries: number): Uint16Array {
  const values = new Uint16Array(entries);
  let filled = 0;
  for (let at = 0; at + 1 < words.length && filled < entries;) {
    const opcode = words[at]!;
    const length = words[at + 1]!;
    if (opcode === 0) {
      for (let i = 0; i < length && filled < entries; i++) values[filled++] = words[at + 2 + i] ?? 0;
      at += 2 + length;
    } else if (opcode === 1) {
      if (filled === 0) throw new UndecodableImageError('A segmented lookup table starts with a linear segment.');
      const from = values[filled - 1]!;
      const to = words[at + 2] ?? 0;
      for (let i = 1; i <= length && filled < entries; i++)
        values[filled++] = roundHalfEven(from + ((to - from) * i) / length);
      at += 3;
    } else {
      throw new UndecodableImageError(
        opcode === 2
          ? 'This PALETTE COLOR image uses indirect segments in its lookup tables, which this server does not decode.'
          : `This PALETTE COLOR image has a lookup table segment of unknown type ${opcode}.`,
      );
    }
  }
  // A table shorter than its descriptor repeats its last value, as the highest indices map past its end.
  values.fill(values[Math.max(0, filled - 1)] ?? 0, filled);
  return values;
}

function table(dataSet: DicomDataSet, colour: 'Red' | 'Green' | 'Blue', descriptorTag: string, dataTag: string) {
  const descriptor = dataSet.elements[descriptorTag];
  const segmentedTag = { Red: 'x00281221', Green: 'x00281222', Blue: 'x00281223' }[colour];
  const segmented = dataSet.elements[segmentedTag];
  const element = dataSet.elements[dataTag];
  if (!descriptor || (!element && !segmented)) {
    throw new UndecodableImageError(`This PALETTE COLOR image has no ${colour.toLowerCase()} lookup table.`);
  }
  const entries = dataSet.uint16(descriptorTag, 0) || 65536;
  const firstMapped = dataSet.uint16(descriptorTag, 1) ?? 0;
  const bits = dataSet.uint16(descriptorTag, 2) === 8 ? 8 : 16;
  if (!element) {
    const words = Array.from({ length: segmented!.length >> 1 }, (_, i) => dataSet.uint16(segmentedTag, i) ?? 0);
    return { values: expandSegmentedTable(words, entries), firstMapped, bits };
  }
  const values = new Uint16Array(entries);
  // Entries are 16-bit words (8-bit entries one per word), or bytes when the table is exactly that long.
  const wordsPerEntry = element.length >= entries * 2 ? 2 : 1;
  for (let i = 0; i < entries; i++) {
    values[i] = wordsPerEntry === 2 ? (dataSet.uint16(dataTag, i) ?? 0) : dataSet.byteArray[element.dataOffset + i]!;
  }
  return { values, firstMapped, bits };
}

/** Reads the red, green and blue lookup tables of a PALETTE COLOR image. */
export function readPalette(dataSet: DicomDataSet): Palette {
  const red = table(dataSet, 'Red', 'x00281101', 'x00281201');
  const green = table(dataSet, 'Green', 'x00281102', 'x00281202');
  const blue = table(dataSet, 'Blue', 'x00281103', 'x00281203');
  return { red: red.values, green: green.values, blue: blue.values, firstMapped: red.firstMapped, bits: red.bits };
}

/** Writes the colours of `count` stored indices (from `indices`) as interleaved RGB at `at` in `out`. */
export function applyPalette(palette: Palette, indices: Float32Array, count: number, out: Float32Array, at: number) {
  const last = palette.red.length - 1;
  for (let i = 0; i < count; i++) {
    // Values below the first mapped one take the first entry, above the last one the last (PS3.3 C.7.6.3.1.5).
    const k = Math.min(last, Math.max(0, Math.round(indices[i]!) - palette.firstMapped));
    out[at + i * 3] = palette.red[k]!;
    out[at + i * 3 + 1] = palette.green[k]!;
    out[at + i * 3 + 2] = palette.blue[k]!;
  }
}
