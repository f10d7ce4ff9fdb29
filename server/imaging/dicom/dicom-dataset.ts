import dicomParser from 'dicom-parser';
import {
  DecompressionLimitError,
  inflateAtMost,
  inflateHead,
  sizeText,
  STORED_RATIO,
  storedBytesAllowed,
} from '../bounded-inflate.ts';
import { DEFAULT_DECODE_LIMITS, UndecodableImageError } from '../volume.ts';
import { cutOverrunItems } from './overrun-items.ts';
import { normalisePart10 } from './part10.ts';

/** A parsed DICOM data set as dicom-parser gives it. */
export type DicomDataSet = dicomParser.DataSet;

/** True when the bytes carry the Part 10 preamble: 128 bytes, then "DICM". */
export function hasDicomPreamble(bytes: Uint8Array): boolean {
  return bytes.length > 132 && bytes[128] === 0x44 && bytes[129] === 0x49 && bytes[130] === 0x43 && bytes[131] === 0x4d;
}

const IMPLICIT_LE = '1.2.840.10008.1.2';
const EXPLICIT_BE = '1.2.840.10008.1.2.2';
const DEFLATED = '1.2.840.10008.1.2.1.99';

// dicom-parser's DataSet class is exported by the library but typed only as an interface.
const DataSet = (
  dicomParser as unknown as {
    DataSet: new (parser: dicomParser.ByteArrayParser, bytes: Uint8Array, elements: object) => DicomDataSet;
  }
).DataSet;

/** How much of a deflated data set is inflated first, to read the image size it declares. */
const DEFLATED_HEAD_BYTES = 256 * 1024;
/** Room allowed beside the pixels: 8 MB plus four times the deflated size (text deflates about four-fold). */
const NON_PIXEL_BYTES = 8 * 1024 * 1024;

/** The pixel bytes the start of an explicit little-endian data set declares (Rows, Columns, frames, samples, bits). */
function declaredPixelBytes(head: Uint8Array): number {
  const little = dicomParser.littleEndianByteArrayParser;
  const dataSet = new DataSet(little, head, {});
  try {
    dicomParser.parseDicomDataSetExplicit(dataSet, new dicomParser.ByteStream(little, head, 0), head.length, {
      untilTag: 'x7fe00010',
    });
  } catch {
    // The head is cut off mid-element: what was read before the cut is what is needed.
  }
  const us = (tag: string) => (dataSet.elements[tag] ? (dataSet.uint16(tag) ?? 0) : 0);
  const frames = Math.max(1, Number(dataSet.string('x00280008') ?? 1) || 1);
  return (us('x00280010') * us('x00280011') * frames * Math.max(1, us('x00280002')) * us('x00280100')) / 8;
}

/**
 * Deflated transfer syntax: the data set after the File Meta is one raw deflate stream. Its first 256 KiB
 * are inflated to read the image size it declares; the whole is then inflated no further than that size
 * plus room for the other attributes, so a deflate bomb stops early.
 */
function inflate(bytes: Uint8Array, position: number): Uint8Array {
  const deflated = bytes.subarray(position);
  const declared = declaredPixelBytes(inflateHead(deflated, 'raw', DEFLATED_HEAD_BYTES));
  // What is inflated is what gets stored (de-identified files are written back inflated): bounded by what was sent.
  if (declared > storedBytesAllowed(bytes.length))
    throw new DecompressionLimitError(
      `This deflated DICOM file declares ${sizeText(declared)} of pixels, over ${STORED_RATIO} times its ${sizeText(bytes.length)}: refused as a possible decompression bomb.`,
    );
  const limit = Math.min(
    declared + NON_PIXEL_BYTES + 4 * deflated.length,
    DEFAULT_DECODE_LIMITS.maxExpandedBytes,
    storedBytesAllowed(bytes.length),
  );
  const inflated = inflateAtMost(deflated, 'raw', limit, 'This deflated DICOM file');
  const out = new Uint8Array(position + inflated.length);
  out.set(bytes.subarray(0, position));
  out.set(inflated, position);
  return out;
}

/**
 * Parses a DICOM file, with or without the Part 10 preamble and File Meta: the transfer syntax a file
 * does not name is inferred as toolkits do (see part10.ts). The File Meta group and the data set are
 * parsed separately with dicom-parser's own readers, because its whole-file reader takes any group
 * below 0002 (a private group 0001, say) for File Meta and runs off the end. `vrOf` gives the VR of a
 * tag in implicit-VR data sets (a data dictionary), so their sequences and UIDs are known for what they are.
 */
export function parseDicom(input: Uint8Array, vrOf?: (tag: string) => string | undefined): DicomDataSet {
  try {
    return parseOnce(input, vrOf);
  } catch (error) {
    // An item longer than what is left of its sequence: read as far as its bytes go, as pydicom does.
    const repaired = repairable(input);
    if (!repaired) throw error;
    try {
      return parseOnce(repaired, vrOf);
    } catch {
      throw error;
    }
  }
}

/** The bytes with overrunning sequence items cut (see overrun-items.ts), when the data set is explicit little endian and has any. */
function repairable(input: Uint8Array): Uint8Array | undefined {
  try {
    const { bytes, dataSetStart, encoding } = normalisePart10(input);
    const explicitLittle = encoding !== IMPLICIT_LE && encoding !== EXPLICIT_BE && encoding !== DEFLATED;
    return explicitLittle ? cutOverrunItems(bytes, dataSetStart) : undefined;
  } catch {
    return undefined;
  }
}

function parseOnce(input: Uint8Array, vrOf?: (tag: string) => string | undefined): DicomDataSet {
  try {
    const { bytes, dataSetStart, encoding } = normalisePart10(input);
    const little = dicomParser.littleEndianByteArrayParser;
    const meta = new DataSet(little, bytes, {});
    dicomParser.parseDicomDataSetExplicit(meta, new dicomParser.ByteStream(little, bytes, 132), dataSetStart);
    const body = encoding === DEFLATED ? inflate(bytes, dataSetStart) : bytes;
    const parser = encoding === EXPLICIT_BE ? dicomParser.bigEndianByteArrayParser : little;
    const dataSet = new DataSet(parser, body, {});
    if (dataSetStart < body.length) {
      const stream = new dicomParser.ByteStream(parser, body, dataSetStart);
      // dicom-parser's typings require untilTag, which its reader treats as optional.
      const implicitOptions = { vrCallback: vrOf } as { untilTag: string; vrCallback?: (tag: string) => string };
      if (encoding === IMPLICIT_LE)
        dicomParser.parseDicomDataSetImplicit(dataSet, stream, body.length, implicitOptions);
      else dicomParser.parseDicomDataSetExplicit(dataSet, stream, body.length);
    }
    Object.assign(dataSet.elements, meta.elements);
    encapsulatedFromItems(dataSet);
    return dataSet;
  } catch (error) {
    // The inflater's own refusals (a deflate bomb) already say what is wrong.
    if (error instanceof UndecodableImageError) throw error;
    // dicom-parser throws strings or { exception, dataSet }; neither is fit for a client.
    const reason =
      typeof error === 'string'
        ? error
        : error instanceof Error
          ? error.message
          : String((error as { exception?: unknown }).exception);
    throw new UndecodableImageError(
      `This DICOM file could not be read (${reason.replace(/^dicomParser\.\w+: /, '')}).`,
    );
  }
}

/**
 * Encapsulated pixel data in an implicit-VR data set (which some tools write under a compressed transfer
 * syntax) reads, without a dictionary, as a sequence of items: it is turned back into what dicom-parser
 * gives for encapsulated data (an offset table and fragments), so decoders and writers see one shape.
 */
function encapsulatedFromItems(dataSet: DicomDataSet): void {
  const element = dataSet.elements.x7fe00010;
  if (!element?.items?.length || element.fragments) return;
  const [table, ...fragments] = element.items;
  const base = table!.dataOffset + table!.length;
  const view = new DataView(dataSet.byteArray.buffer, dataSet.byteArray.byteOffset, dataSet.byteArray.byteLength);
  element.basicOffsetTable = [];
  for (let at = table!.dataOffset; at + 4 <= base; at += 4) element.basicOffsetTable.push(view.getUint32(at, true));
  element.fragments = fragments.map((item) => ({
    offset: item.dataOffset - 8 - base,
    position: item.dataOffset,
    length: item.length,
  }));
  element.items = undefined;
  element.vr = 'OB';
  element.hadUndefinedLength = true;
  element.encapsulatedPixelData = true;
  // The sequence delimiter after the last item belongs to the element, as for any encapsulated pixel data.
  const end = element.dataOffset + element.length;
  if (
    end + 8 <= dataSet.byteArray.length &&
    view.getUint16(end, true) === 0xfffe &&
    view.getUint16(end + 2, true) === 0xe0dd
  )
    element.length += 8;
}

/** A trimmed string value, or undefined when absent or empty. */
export function stringValue(dataSet: DicomDataSet, tag: string, index?: number): string | undefined {
  const value = dataSet.string(tag, index)?.trim();
  return value ? value : undefined;
}

/** A decimal string (DS/IS) value, or the fallback when absent or not a number. */
export function numberValue(dataSet: DicomDataSet, tag: string, fallback: number, index = 0): number {
  const raw = dataSet.string(tag, index);
  const value = raw === undefined ? NaN : Number(raw.trim());
  return Number.isFinite(value) && raw?.trim() !== '' ? value : fallback;
}

/** An unsigned short (US) value, or the fallback. */
export function ushortValue(dataSet: DicomDataSet, tag: string, fallback: number): number {
  return dataSet.elements[tag] ? (dataSet.uint16(tag) ?? fallback) : fallback;
}
