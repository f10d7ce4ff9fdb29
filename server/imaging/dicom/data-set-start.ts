/**
 * Where a bare DICOM stream (no preamble, no "DICM") really starts. Some files are cut out of a Part 10 file a
 * few bytes off: pydicom's own `no_meta.dcm` is CT_small.dcm's data set behind one byte left over from its
 * File Meta (the last space of the AE title "CLUNIE1 "). Read from byte 0 it is one unknown element (0820,0500)
 * running far past the end, which pydicom reports as a single UN value and dcmtk refuses; its data set is
 * intact one byte further. This finds such a start, strictly: three well-formed elements in a row, the first of
 * a group a data set begins with, the others later tags, so a stray "08 00" in other bytes is not taken.
 */

/** VRs of explicit-VR encodings (PS3.5 6.2). */
export const VRS = new Set(
  'AE AS AT CS DA DS DT FD FL IS LO LT OB OD OF OL OV OW PN SH SL SQ SS ST SV TM UC UI UL UN UR US UT UV'.split(' '),
);
/** VRs whose explicit encoding has two reserved bytes and a 32-bit length. */
export const LONG_VRS = new Set(['OB', 'OD', 'OF', 'OL', 'OV', 'OW', 'SQ', 'UC', 'UN', 'UR', 'UT', 'SV', 'UV']);

/** The most bytes taken for left-overs before a data set: a preamble's worth. */
export const MAX_LEADING_BYTES = 128;

/** The groups a bare stream begins with: File Meta (0002), a directory (0004), identification (0008). */
const FIRST_GROUPS = new Set([0x0002, 0x0004, 0x0008]);

interface Encoding {
  little: boolean;
  explicit: boolean;
}
const ENCODINGS: Encoding[] = [
  { little: true, explicit: true },
  { little: true, explicit: false },
  { little: false, explicit: true },
];

interface ElementHead {
  tag: number;
  /** The value's length in bytes; 0xffffffff when undefined. */
  length: number;
  /** Where the next element starts; undefined for an undefined length (a sequence), whose end is not known here. */
  next?: number;
}

const u16 = (b: Uint8Array, at: number, little: boolean) =>
  little ? b[at]! | (b[at + 1]! << 8) : (b[at]! << 8) | b[at + 1]!;
const u32 = (b: Uint8Array, at: number, little: boolean) =>
  little
    ? (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0
    : ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;

/** The header of the element at `at` read in `encoding`, or undefined when it is not one. */
function elementHead(bytes: Uint8Array, at: number, { little, explicit }: Encoding): ElementHead | undefined {
  if (at + 8 > bytes.length) return undefined;
  const tag = u16(bytes, at, little) * 0x10000 + u16(bytes, at + 2, little);
  if (!explicit) {
    const length = u32(bytes, at + 4, little);
    return { tag, length, next: length === 0xffffffff ? undefined : at + 8 + length };
  }
  const vr = String.fromCharCode(bytes[at + 4]!, bytes[at + 5]!);
  if (!VRS.has(vr)) return undefined;
  if (!LONG_VRS.has(vr)) {
    const length = u16(bytes, at + 6, little);
    return { tag, length, next: at + 8 + length };
  }
  if (at + 12 > bytes.length || bytes[at + 6] !== 0 || bytes[at + 7] !== 0) return undefined;
  const length = u32(bytes, at + 8, little);
  return { tag, length, next: length === 0xffffffff ? undefined : at + 12 + length };
}

/** Elements read in a row before a start is believed. */
const ELEMENTS_IN_A_ROW = 3;

/**
 * True when a data set plainly starts at `at`: a first-group element, then more in ascending order, each of
 * a standard (even) group below the pixel data's and of an even, defined length, as PS3.5 7.1 has them, the
 * first not empty.
 */
function startsDataSet(bytes: Uint8Array, at: number): boolean {
  return ENCODINGS.some((encoding) => {
    let previous = -1;
    for (let i = 0, p: number | undefined = at; i < ELEMENTS_IN_A_ROW; i++) {
      const head: ElementHead | undefined = p === undefined ? undefined : elementHead(bytes, p, encoding);
      if (!head || head.next === undefined || head.length % 2 !== 0 || head.tag <= previous) return false;
      const group = Math.floor(head.tag / 0x10000);
      if (group % 2 !== 0 || group > 0x7fe0) return false;
      // The first holds a value: runs of empty elements are what zero-filled binary headers look like.
      if (i === 0 && (!FIRST_GROUPS.has(group) || head.length === 0)) return false;
      // File Meta is always explicit little endian (PS3.10 7.1).
      if (group === 0x0002 && !(encoding.little && encoding.explicit)) return false;
      previous = head.tag;
      p = head.next;
    }
    return true;
  });
}

/**
 * How many left-over bytes precede a data set that starts within MAX_LEADING_BYTES, or undefined when none
 * is found there. Only for streams that do not start as DICOM at byte 0: those are read as they are.
 * @example leadingBytes(Buffer.concat([Buffer.from([0x20]), ctDataSet])) // 1
 */
export function leadingBytes(bytes: Uint8Array): number | undefined {
  for (let at = 1; at <= MAX_LEADING_BYTES && at + 16 <= bytes.length; at++) if (startsDataSet(bytes, at)) return at;
  return undefined;
}
