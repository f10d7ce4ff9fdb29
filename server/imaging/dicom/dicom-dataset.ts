import dicomParser from 'dicom-parser';
import { inflateSync } from 'fflate';
import { UndecodableImageError } from '../volume.ts';
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

// Deflated transfer syntax: the data set after the File Meta is one raw deflate stream.
function inflate(bytes: Uint8Array, position: number): Uint8Array {
  const inflated = inflateSync(bytes.subarray(position));
  const out = new Uint8Array(position + inflated.length);
  out.set(bytes.subarray(0, position));
  out.set(inflated, position);
  return out;
}

// dicom-parser's DataSet class is exported by the library but typed only as an interface.
const DataSet = (
  dicomParser as unknown as {
    DataSet: new (parser: dicomParser.ByteArrayParser, bytes: Uint8Array, elements: object) => DicomDataSet;
  }
).DataSet;

/**
 * Parses a DICOM file, with or without the Part 10 preamble and File Meta: the transfer syntax a file
 * does not name is inferred as toolkits do (see part10.ts). The File Meta group and the data set are
 * parsed separately with dicom-parser's own readers, because its whole-file reader takes any group
 * below 0002 (a private group 0001, say) for File Meta and runs off the end. `vrOf` gives the VR of a
 * tag in implicit-VR data sets (a data dictionary), so their sequences and UIDs are known for what they are.
 */
export function parseDicom(input: Uint8Array, vrOf?: (tag: string) => string | undefined): DicomDataSet {
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
    return dataSet;
  } catch (error) {
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
