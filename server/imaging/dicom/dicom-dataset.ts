import dicomParser from 'dicom-parser';
import { inflateSync } from 'fflate';
import { UndecodableImageError } from '../volume.ts';

/** A parsed DICOM data set as dicom-parser gives it. */
export type DicomDataSet = dicomParser.DataSet;

/** True when the bytes carry the Part 10 preamble: 128 bytes, then "DICM". */
export function hasDicomPreamble(bytes: Uint8Array): boolean {
  return bytes.length > 132 && bytes[128] === 0x44 && bytes[129] === 0x49 && bytes[130] === 0x43 && bytes[131] === 0x4d;
}

// Deflated transfer syntax: dicom-parser hands us the file and where the deflated stream starts.
function inflate(bytes: Uint8Array, position: number): Uint8Array {
  const inflated = inflateSync(bytes.subarray(position));
  const out = new Uint8Array(position + inflated.length);
  out.set(bytes.subarray(0, position));
  out.set(inflated, position);
  return out;
}

/**
 * Parses a DICOM file, with or without the Part 10 preamble (a bare data set is read as implicit VR
 * little endian, as PS3.5 defines the default). `vrOf` gives the VR of a tag in implicit-VR data sets
 * (a data dictionary), so their sequences and UIDs are known for what they are.
 */
export function parseDicom(bytes: Uint8Array, vrOf?: (tag: string) => string | undefined): DicomDataSet {
  const options = hasDicomPreamble(bytes) ? { inflater: inflate } : { TransferSyntaxUID: '1.2.840.10008.1.2' };
  try {
    return dicomParser.parseDicom(bytes, { ...options, vrCallback: vrOf } as dicomParser.ParseDicomOptions);
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
