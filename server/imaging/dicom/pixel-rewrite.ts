import { UndecodableImageError } from '../volume.ts';
import { parseDicom, stringValue, type DicomDataSet } from './dicom-dataset.ts';
import { fileMeta } from './dicom-writer.ts';
import { blankRegions, type PixelRect } from './blank-regions.ts';
import { isNativeSyntax, readSampleFrames, sampleLayoutOf, type SampleFrames } from './pixel-frames.ts';

const EXPLICIT_LE = '1.2.840.10008.1.2.1';
const DEFLATED = '1.2.840.10008.1.2.1.99';
const LONG_VRS = new Set(['OB', 'OD', 'OF', 'OL', 'OV', 'OW', 'SQ', 'UC', 'UN', 'UR', 'UT', 'SV', 'UV']);

/** The pixel data could not be read, decoded or rewritten here; the message is meant for the user. */
export class UnblankableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnblankableError';
  }
}

/** A rectangle does not fit inside the image; the message is meant for the user. */
export class RegionOutsideError extends UnblankableError {
  constructor(message: string) {
    super(message);
    this.name = 'RegionOutsideError';
  }
}

function element(tag: number, vr: string, value: Uint8Array): Uint8Array {
  const long = LONG_VRS.has(vr);
  const out = new Uint8Array((long ? 12 : 8) + value.length);
  const view = new DataView(out.buffer);
  view.setUint16(0, tag >>> 16, true);
  view.setUint16(2, tag & 0xffff, true);
  out[4] = vr.charCodeAt(0);
  out[5] = vr.charCodeAt(1);
  if (long) view.setUint32(8, value.length, true);
  else view.setUint16(6, value.length, true);
  out.set(value, long ? 12 : 8);
  return out;
}

const text = (value: string) => new TextEncoder().encode(value.length % 2 ? `${value} ` : value);

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  parts.reduce((at, part) => (out.set(part, at), at + part.length), 0);
  return out;
}

/** Lossy transfer syntaxes and the Lossy Image Compression Method (0028,2114) term of each (PS3.3 C.7.6.1.1.5.1). */
const LOSSY_METHODS: Record<string, string> = {
  '1.2.840.10008.1.2.4.50': 'ISO_10918_1',
  '1.2.840.10008.1.2.4.51': 'ISO_10918_1',
  '1.2.840.10008.1.2.4.81': 'ISO_14495_1',
  '1.2.840.10008.1.2.4.91': 'ISO_15444_1',
  '1.2.840.10008.1.2.4.203': 'ISO_15444_15',
};

/**
 * The file `dataSet` was parsed from, rewritten in Explicit VR Little Endian with `frames` (decoded samples) as
 * its native pixel data: Photometric Interpretation as the codec left the samples, Planar Configuration 0 for
 * colour, and every other attribute's bytes as they were (compressed syntaxes are all explicit little endian,
 * so they need no re-encoding). Pixels that went through a lossy codec say so once stored uncompressed: Lossy
 * Image Compression (0028,2110) "01" and its method (0028,2114), when the file did not already.
 *
 * Uncompressed rather than compressed again: a lossy codec would degrade the image a second time, one path
 * serves all eight codecs read here, and every toolkit reads Explicit VR Little Endian. The file grows.
 */
export function withNativePixelData(dataSet: DicomDataSet, frames: SampleFrames): Uint8Array {
  const bytes = dataSet.byteArray;
  const sopClass = stringValue(dataSet, 'x00020002') ?? stringValue(dataSet, 'x00080016') ?? '';
  const sopInstance = stringValue(dataSet, 'x00020003') ?? stringValue(dataSet, 'x00080018') ?? '';
  const syntax = stringValue(dataSet, 'x00020010') ?? '';
  // Every top-level attribute by tag, then the ones that change or join; written out in tag order.
  const out = new Map<string, Uint8Array>();
  for (const tag of Object.keys(dataSet.elements)) {
    // File meta is written anew; group lengths of the data set (retired) would be stale.
    if (tag.startsWith('x0002') || tag.endsWith('0000')) continue;
    const el = dataSet.elements[tag]!;
    // Kept whole, header and value, as the parser found it.
    const header = LONG_VRS.has(el.vr ?? 'UN') ? 12 : 8;
    out.set(tag, bytes.subarray(el.dataOffset - header, el.dataOffset + el.length));
  }
  out.set('x00280004', element(0x00280004, 'CS', text(frames.photometric)));
  if (frames.layout.samples === 3) out.set('x00280006', element(0x00280006, 'US', Uint8Array.from([0, 0])));
  else out.delete('x00280006');
  const method = LOSSY_METHODS[syntax];
  if (method && stringValue(dataSet, 'x00282110') !== '01') {
    out.set('x00282110', element(0x00282110, 'CS', text('01')));
    if (!stringValue(dataSet, 'x00282114')) out.set('x00282114', element(0x00282114, 'CS', text(method)));
  }
  const pixels = frames.bytes.length % 2 ? concat([frames.bytes, new Uint8Array(1)]) : frames.bytes;
  out.set('x7fe00010', element(0x7fe00010, frames.layout.bytesPerSample === 1 ? 'OB' : 'OW', pixels));
  const body = [...out.keys()].sort().map((tag) => out.get(tag)!);
  return concat([fileMeta(sopClass, sopInstance, EXPLICIT_LE), ...body]);
}

/** A stored file with rectangles blanked in every frame, and whether its pixel data had to be decoded to do it. */
export interface BlankedFile {
  bytes: Uint8Array;
  decoded: boolean;
}

/**
 * Blanks `regions` in every frame of a stored DICOM file. Native pixel data is blanked in place (the file
 * keeps its transfer syntax and length); compressed pixel data is decoded, blanked and written as Explicit
 * VR Little Endian (see withNativePixelData). Throws UnblankableError when the pixels cannot be read.
 */
export async function blankStoredDicom(file: Uint8Array, regions: PixelRect[]): Promise<BlankedFile> {
  let dataSet: DicomDataSet;
  try {
    dataSet = parseDicom(file);
  } catch {
    throw new UnblankableError('This DICOM file could not be read.');
  }
  const syntax = stringValue(dataSet, 'x00020010') ?? '1.2.840.10008.1.2';
  const pixel = dataSet.elements.x7fe00010;
  if (!pixel) throw new UnblankableError('This DICOM file has no pixel data to blank.');
  const layout = sampleLayoutOf(dataSet, syntax);
  // Checked before any frame is decoded: a wrong rectangle costs nothing.
  regions.forEach((r, i) => {
    if (layout && (r.x + r.width > layout.columns || r.y + r.height > layout.rows)) {
      throw new RegionOutsideError(`Region ${i + 1} lies outside the ${layout.columns} × ${layout.rows} image.`);
    }
  });
  let frames: SampleFrames | undefined;
  try {
    frames = await readSampleFrames(dataSet, syntax);
  } catch (error) {
    // The decoder's own reason when it gives one meant for the user (too large, a codec this server lacks).
    const reason = error instanceof UndecodableImageError ? ` ${error.message}` : '';
    throw new UnblankableError(
      `The pixel data of this DICOM file could not be decoded, so it cannot be blanked.${reason}`,
    );
  }
  if (!frames) {
    throw new UnblankableError(
      'Only 8- or 16-bit pixel data with one or three samples per pixel can be blanked (not 4:2:2 native data).',
    );
  }
  blankRegions(frames.bytes, frames.layout, regions);
  // A deflated file was inflated by the parser: written back inflated, like a compressed one.
  if (frames.decoded || !isNativeSyntax(syntax) || syntax === DEFLATED) {
    return { bytes: withNativePixelData(dataSet, frames), decoded: frames.decoded };
  }
  // Same length, same place: the file (as the parser normalised it) with its pixel data overwritten.
  const out = dataSet.byteArray.slice();
  out.set(frames.bytes, pixel.dataOffset);
  return { bytes: out, decoded: false };
}

/**
 * The stored file with Burned In Annotation (0028,0301) set to NO, once a member confirmed no burned-in text
 * remains. A value already there is overwritten in place, padded with spaces to its length (CS padding, so the
 * file keeps its length and transfer syntax); an absent one is inserted in tag order. Deflated files are never
 * met here: blanking by hand, which confirming requires, stores them inflated.
 */
export function withBurnedInAnnotationNo(file: Uint8Array): Uint8Array {
  let dataSet: DicomDataSet;
  try {
    dataSet = parseDicom(file);
  } catch {
    throw new UnblankableError('This DICOM file could not be read.');
  }
  const syntax = stringValue(dataSet, 'x00020010') ?? '1.2.840.10008.1.2';
  if (syntax === DEFLATED) throw new UnblankableError('A deflated DICOM file cannot be marked here.');
  const bytes = dataSet.byteArray;
  const present = dataSet.elements.x00280301;
  if (present && present.length >= 2) {
    const out = bytes.slice();
    out.set(new TextEncoder().encode('NO'.padEnd(present.length, ' ')), present.dataOffset);
    return out;
  }
  const implicit = syntax === '1.2.840.10008.1.2';
  const value = text('NO');
  let added: Uint8Array;
  if (implicit) {
    added = new Uint8Array(8 + value.length);
    const view = new DataView(added.buffer);
    view.setUint16(0, 0x0028, true);
    view.setUint16(2, 0x0301, true);
    view.setUint32(4, value.length, true);
    added.set(value, 8);
  } else {
    added = element(0x00280301, 'CS', value);
  }
  // Where the element goes: before the first top-level element with a larger tag, replacing an empty one.
  const headerOf = (tag: string) => {
    const el = dataSet.elements[tag]!;
    return el.dataOffset - (implicit ? 8 : LONG_VRS.has(el.vr ?? 'UN') ? 12 : 8);
  };
  const tags = Object.keys(dataSet.elements).sort();
  const next = tags.find((tag) => tag > 'x00280301');
  const at = next ? headerOf(next) : bytes.length;
  const from = present ? headerOf('x00280301') : at;
  return concat([bytes.subarray(0, from), added, bytes.subarray(at)]);
}
