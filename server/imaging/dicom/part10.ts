/**
 * Normalises what toolkits accept as DICOM into a Part 10 file: a 128-byte preamble, "DICM", a File Meta
 * group that names the transfer syntax, then the data set. Files written without a preamble, without File
 * Meta, or with a File Meta that lacks (0002,0010) are read as dcmtk and pydicom read them: the transfer
 * syntax is inferred from how the first data-set element is encoded (explicit VR letters or not; the byte
 * order of its group number). dicom-parser has no such inference; the rest of the engine then sees one shape.
 */

import { leadingBytes, LONG_VRS, VRS } from './data-set-start.ts';

const IMPLICIT_LE = '1.2.840.10008.1.2';
const EXPLICIT_LE = '1.2.840.10008.1.2.1';
const EXPLICIT_BE = '1.2.840.10008.1.2.2';

const ascii = (bytes: Uint8Array, at: number, length: number) =>
  String.fromCharCode(...bytes.subarray(at, at + length));

/** True when the bytes carry the Part 10 preamble: 128 bytes, then "DICM". */
export function hasPart10Preamble(bytes: Uint8Array): boolean {
  return bytes.length > 132 && ascii(bytes, 128, 4) === 'DICM';
}

/** The transfer syntax a data set starting at `at` is written in, judged from its first element. */
export function inferTransferSyntax(bytes: Uint8Array, at: number): string {
  if (bytes.length < at + 8) return IMPLICIT_LE;
  const explicit = VRS.has(ascii(bytes, at + 4, 2));
  if (!explicit) return IMPLICIT_LE;
  const little = bytes[at]! | (bytes[at + 1]! << 8);
  const big = (bytes[at]! << 8) | bytes[at + 1]!;
  // A data set starts with a low group (0008 mostly): whichever reading gives the smaller number is right.
  return big < little ? EXPLICIT_BE : EXPLICIT_LE;
}

interface MetaElement {
  element: number;
  bytes: Uint8Array;
}

/** The explicit-VR little-endian elements of group 0002 from `at`, and where the data set starts. */
function readMeta(bytes: Uint8Array, at: number): { elements: MetaElement[]; end: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const elements: MetaElement[] = [];
  let p = at;
  while (p + 8 <= bytes.length && view.getUint16(p, true) === 0x0002) {
    const vr = ascii(bytes, p + 4, 2);
    if (!VRS.has(vr)) break;
    const long = LONG_VRS.has(vr);
    const length = long ? view.getUint32(p + 8, true) : view.getUint16(p + 6, true);
    const end = p + (long ? 12 : 8) + length;
    if (length === 0xffffffff || end > bytes.length) break;
    elements.push({ element: view.getUint16(p + 2, true), bytes: bytes.subarray(p, end) });
    p = end;
  }
  return { elements, end: p };
}

function uidElement(element: number, uid: string): MetaElement {
  const value = uid.length % 2 ? `${uid}\0` : uid;
  const out = new Uint8Array(8 + value.length);
  const view = new DataView(out.buffer);
  view.setUint16(0, 0x0002, true);
  view.setUint16(2, element, true);
  out[4] = 0x55; // 'U'
  out[5] = 0x49; // 'I'
  view.setUint16(6, value.length, true);
  for (let i = 0; i < value.length; i++) out[8 + i] = value.charCodeAt(i);
  return { element, bytes: out };
}

/** A file brought to Part 10 shape, with what its data set is written in. */
export interface Part10File {
  bytes: Uint8Array;
  /** Where the data set starts, after the File Meta group. */
  dataSetStart: number;
  /** The transfer syntax the File Meta names (inferred when it named none): the pixel encoding. */
  syntax: string;
  /**
   * How the data set is actually encoded. It differs from `syntax` only for files whose File Meta names an
   * explicit syntax over an implicit data set (or the reverse), which pydicom and dcmtk read all the same.
   */
  encoding: string;
}

/**
 * The file as Part 10 bytes with a transfer syntax in its File Meta; the same array when it already is one.
 * @example normalisePart10(bareImplicitDataSet).syntax // '1.2.840.10008.1.2'
 */
export function normalisePart10(bytes: Uint8Array): Part10File {
  const preamble = hasPart10Preamble(bytes);
  // Left-over bytes before a bare data set (pydicom's no_meta.dcm) are dropped: see data-set-start.ts.
  const start = preamble ? 132 : looksLikeBareStart(bytes) ? 0 : (leadingBytes(bytes) ?? 0);
  const { elements, end } = readMeta(bytes, start);
  // Without any File Meta, only a data set that starts as one (group 0004 or 0008) is taken for DICOM.
  if (elements.length === 0 && !looksLikeBareStart(bytes.subarray(end))) {
    throw new Error('neither a File Meta group nor a DICOM data set at its start');
  }
  const named = elements.find((e) => e.element === 0x0010);
  const inferred = inferTransferSyntax(bytes, end);
  const syntax = named ? ascii(named.bytes, 8, named.bytes.length - 8).replace(/[\0 ]+$/, '') : inferred;
  const encoding = encodingOf(syntax, inferred, bytes.length > end);
  if (preamble && named) return { bytes, dataSetStart: end, syntax, encoding };
  const kept = elements.filter((e) => e.element !== 0x0000);
  if (!named) kept.push(uidElement(0x0010, syntax));
  if (!kept.some((e) => e.element === 0x0001)) {
    kept.push({ element: 0x0001, bytes: Uint8Array.from([2, 0, 1, 0, 0x4f, 0x42, 0, 0, 2, 0, 0, 0, 0, 1]) });
  }
  kept.sort((a, b) => a.element - b.element);
  const metaLength = kept.reduce((sum, e) => sum + e.bytes.length, 0);
  const out = new Uint8Array(132 + 12 + metaLength + bytes.length - end);
  out.set([0x44, 0x49, 0x43, 0x4d], 128);
  // (0002,0000) UL: the length of the rest of the group.
  out.set([2, 0, 0, 0, 0x55, 0x4c, 4, 0], 132);
  new DataView(out.buffer).setUint32(140, metaLength, true);
  let p = 144;
  for (const e of kept) {
    out.set(e.bytes, p);
    p += e.bytes.length;
  }
  out.set(bytes.subarray(end), p);
  return { bytes: out, dataSetStart: p, syntax, encoding };
}

// Compressed and deflated syntaxes are explicit little endian; a data set that is visibly not is read as it is.
function encodingOf(syntax: string, inferred: string, hasDataSet: boolean): string {
  if (!hasDataSet || syntax === '1.2.840.10008.1.2.1.99') return syntax;
  const explicit = syntax !== IMPLICIT_LE;
  if (explicit && inferred === IMPLICIT_LE) return IMPLICIT_LE;
  if (!explicit && inferred !== IMPLICIT_LE) return inferred;
  return syntax;
}

/**
 * True for bytes a DICOM reader would take: a Part 10 preamble, a File Meta or data set from the start, or a
 * data set behind a few left-over bytes (see data-set-start.ts).
 */
export function looksLikeDicom(bytes: Uint8Array): boolean {
  return hasPart10Preamble(bytes) || looksLikeBareStart(bytes) || leadingBytes(bytes) !== undefined;
}

// The first group of a bare file: File Meta (0002), a directory (0004) or identification (0008).
function looksLikeBareStart(bytes: Uint8Array): boolean {
  if (bytes.length < 8) return false;
  const little = bytes[0]! | (bytes[1]! << 8);
  const big = (bytes[0]! << 8) | bytes[1]!;
  const group = Math.min(little, big);
  return (group === 0x0002 || group === 0x0004 || group === 0x0008) && (little === group || big === group);
}
