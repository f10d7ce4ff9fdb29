import { describe, expect, it } from 'vitest';
import { expandSegmentedTable } from '../../../server/imaging/dicom/palette.ts';
import { cutOverrunItems } from '../../../server/imaging/dicom/overrun-items.ts';
import { losslessPrecision } from '../../../server/imaging/dicom/wasm-codecs.ts';
import { UndecodableImageError } from '../../../server/imaging/volume.ts';

describe('segmented palette lookup tables (PS3.3 C.7.9.2)', () => {
  it('expands discrete and linear segments, rounding halves to even as NumPy does', () => {
    expect([...expandSegmentedTable([0, 2, 10, 20, 1, 4, 40], 6)]).toEqual([10, 20, 25, 30, 35, 40]);
    // 0 → 5 over 2 entries: 2.5 rounds to 2, then 5.
    expect([...expandSegmentedTable([0, 1, 0, 1, 2, 5], 3)]).toEqual([0, 2, 5]);
  });

  it('repeats the last value when the segments are shorter than the descriptor says', () => {
    expect([...expandSegmentedTable([0, 2, 7, 9], 4)]).toEqual([7, 9, 9, 9]);
  });

  it('refuses indirect segments and a table that starts with a line, by name', () => {
    expect(() => expandSegmentedTable([0, 1, 3, 2, 1, 0, 0], 4)).toThrow(/indirect segments/);
    expect(() => expandSegmentedTable([1, 2, 9], 2)).toThrow(UndecodableImageError);
  });
});

describe('JPEG Lossless sample precision', () => {
  it('reads the SOF3 header after other segments, and gives none without one', () => {
    const app0 = [0xff, 0xe0, 0, 4, 0, 0];
    const sof3 = [0xff, 0xc3, 0, 11, 12, 0, 1, 0, 1, 1, 1, 0x11, 0];
    expect(losslessPrecision(Uint8Array.from([0xff, 0xd8, ...app0, ...sof3]))).toBe(12);
    expect(losslessPrecision(Uint8Array.from([0xff, 0xd8, 0xff, 0xc0, 0, 11, 8, 0, 0, 0, 0, 0, 0]))).toBeUndefined();
  });
});

describe('sequence items that overrun their sequence', () => {
  /** An explicit little-endian SQ element (0004,1220) holding items of the given declared and real lengths. */
  const sequence = (items: { declared: number; content: number }[], sequenceLength?: number) => {
    const body = items.flatMap(({ declared, content }) => [
      0xfe,
      0xff,
      0x00,
      0xe0,
      declared & 0xff,
      (declared >> 8) & 0xff,
      0,
      0,
      ...new Array<number>(content).fill(0x41),
    ]);
    const length = sequenceLength ?? body.length;
    return Uint8Array.from([
      0x04,
      0x00,
      0x20,
      0x12,
      0x53,
      0x51,
      0,
      0,
      length & 0xff,
      (length >> 8) & 0xff,
      0,
      0,
      ...body,
    ]);
  };

  it('cuts the item that runs past the end to end there, and changes nothing else', () => {
    const bytes = sequence([
      { declared: 4, content: 4 },
      { declared: 30, content: 6 },
    ]);
    const cut = cutOverrunItems(bytes, 0)!;
    expect(cut).toBeDefined();
    expect(new DataView(cut.buffer).getUint32(12 + 12 + 4, true)).toBe(6);
    expect(cut.length).toBe(bytes.length);
    expect([...cut].filter((b, i) => b !== bytes[i])).toHaveLength(1);
  });

  it('leaves a well-formed data set alone', () => {
    expect(cutOverrunItems(sequence([{ declared: 4, content: 4 }]), 0)).toBeUndefined();
  });
});
