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

function table(dataSet: DicomDataSet, colour: 'Red' | 'Green' | 'Blue', descriptorTag: string, dataTag: string) {
  const descriptor = dataSet.elements[descriptorTag];
  const element = dataSet.elements[dataTag];
  if (!descriptor || !element) {
    const segmented = { Red: 'x00281221', Green: 'x00281222', Blue: 'x00281223' }[colour];
    throw new UndecodableImageError(
      dataSet.elements[segmented]
        ? 'This PALETTE COLOR image uses segmented lookup tables, which this server does not decode.'
        : `This PALETTE COLOR image has no ${colour.toLowerCase()} lookup table.`,
    );
  }
  const entries = dataSet.uint16(descriptorTag, 0) || 65536;
  const firstMapped = dataSet.uint16(descriptorTag, 1) ?? 0;
  const bits = dataSet.uint16(descriptorTag, 2) === 8 ? 8 : 16;
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
