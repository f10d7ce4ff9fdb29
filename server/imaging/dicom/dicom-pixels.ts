import dicomParser from 'dicom-parser';
import { UndecodableImageError } from '../volume.ts';
import type { DicomDataSet } from './dicom-dataset.ts';
import { decodeSequentialJpeg } from './jpeg12.ts';
import { decodeRleFrame } from './rle.ts';
import type { TransferSyntax } from './transfer-syntax.ts';
import { decodeJpeg2000, decodeJpegBaseline, decodeJpegLossless, decodeJpegLs } from './wasm-codecs.ts';

/** What the image pixel module says about the samples. */
export interface PixelLayout {
  rows: number;
  columns: number;
  frames: number;
  samplesPerPixel: number;
  bitsAllocated: number;
  planarConfiguration: number;
  photometric: string;
}

/** One frame's samples as bytes in little-endian order (big-endian for native big-endian files). */
export interface FrameBytes {
  bytes: Uint8Array;
  /** True when the codec already produced RGB whatever the photometric interpretation said. */
  rgb: boolean;
  bigEndian: boolean;
}

function encapsulatedFrame(
  dataSet: DicomDataSet,
  element: dicomParser.Element,
  frame: number,
  frames: number,
): Uint8Array {
  const fragments = element.fragments ?? [];
  if (frames === 1) return dicomParser.readEncapsulatedPixelDataFromFragments(dataSet, element, 0, fragments.length);
  // One fragment per frame needs no offset table, and is right even where the table is wrong (GDCM's example
  // 00191113.dcm has odd-length fragments its table does not count), as pydicom and dcmtk read it.
  if (fragments.length === frames)
    return dicomParser.readEncapsulatedPixelDataFromFragments(dataSet, element, frame, 1);
  if ((element.basicOffsetTable ?? []).length > 0)
    return dicomParser.readEncapsulatedImageFrame(dataSet, element, frame);
  // No offset table and several fragments per frame: find frame starts from JPEG markers.
  const table = dicomParser.createJPEGBasicOffsetTable(dataSet, element);
  return dicomParser.readEncapsulatedImageFrame(dataSet, element, frame, table);
}

const pixelsOf = (layout: PixelLayout) => layout.rows * layout.columns;

// Native pixel data: the bytes are the samples, except for packed 1-bit frames and 4:2:2 subsampled YBR.
function nativeFrame(
  dataSet: DicomDataSet,
  element: dicomParser.Element,
  syntax: TransferSyntax,
  layout: PixelLayout,
  frame: number,
): FrameBytes {
  const pixels = pixelsOf(layout);
  const bytes = dataSet.byteArray;
  const short = () => new UndecodableImageError('The DICOM pixel data is shorter than its header says.');
  if (layout.bitsAllocated === 1) {
    // Frames of 1-bit data follow each other bit by bit, least significant bit first (PS3.5 8.1.1).
    const count = pixels * layout.samplesPerPixel;
    const first = frame * count;
    if (element.dataOffset + Math.ceil((first + count) / 8) > bytes.length) throw short();
    const out = new Uint8Array(count);
    for (let i = 0; i < count; i++) {
      const bit = first + i;
      out[i] = (bytes[element.dataOffset + (bit >> 3)]! >> (bit & 7)) & 1;
    }
    return { bytes: out, rgb: false, bigEndian: false };
  }
  const subsampled = layout.photometric === 'YBR_FULL_422' && layout.samplesPerPixel === 3;
  const sampleBytes = layout.bitsAllocated / 8;
  const frameLength = pixels * (subsampled ? 2 : layout.samplesPerPixel) * sampleBytes;
  const start = element.dataOffset + frame * frameLength;
  if (start + frameLength > bytes.length) throw short();
  const stored = bytes.subarray(start, start + frameLength);
  if (!subsampled) return { bytes: stored, rgb: false, bigEndian: syntax.bigEndian };
  return { bytes: expandYbr422(stored, pixels, sampleBytes), rgb: false, bigEndian: syntax.bigEndian };
}

// YBR_FULL_422 stores two pixels as Y1 Y2 Cb Cr (PS3.3 C.7.6.3.1.2); each pixel gets the pair's Cb and Cr.
function expandYbr422(stored: Uint8Array, pixels: number, sampleBytes: number): Uint8Array {
  const out = new Uint8Array(pixels * 3 * sampleBytes);
  const b = sampleBytes;
  for (let pair = 0; pair < pixels / 2; pair++) {
    const from = pair * 4 * b;
    for (let k = 0; k < 2; k++) {
      const to = (pair * 2 + k) * 3 * b;
      out.set(stored.subarray(from + k * b, from + (k + 1) * b), to);
      out.set(stored.subarray(from + 2 * b, from + 4 * b), to + b);
    }
  }
  return out;
}

/** The sample precision a JPEG stream's start-of-frame marker declares (8 when none is found). */
export function jpegPrecision(jpeg: Uint8Array): number {
  for (let p = 2; p + 4 < jpeg.length && jpeg[p] === 0xff;) {
    const marker = jpeg[p + 1]!;
    // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) return jpeg[p + 4]!;
    if (marker === 0xda || marker === 0xd9) break;
    p += 2 + ((jpeg[p + 2]! << 8) | jpeg[p + 3]!);
  }
  return 8;
}

/**
 * The JPEG stream with an Adobe APP14 marker saying "no colour transform" when it has no full APP14 of its own,
 * and without its JFIF APP0 marker, which would make libjpeg assume YCbCr whatever APP14 says.
 */
export function withoutColourTransform(jpeg: Uint8Array): Uint8Array {
  let jfif: [number, number] | undefined;
  for (let p = 2; p + 4 <= jpeg.length && jpeg[p] === 0xff;) {
    const marker = jpeg[p + 1]!;
    const end = p + 2 + ((jpeg[p + 2]! << 8) | jpeg[p + 3]!);
    // An APP14 too short to carry its transform byte counts for nothing, for Pillow (pydicom) as for libjpeg.
    if (marker === 0xee && end - p >= 16) return jpeg;
    if (marker === 0xe0 && String.fromCharCode(...jpeg.subarray(p + 4, p + 8)) === 'JFIF') jfif = [p, end];
    if (marker === 0xda || marker === 0xd9) break;
    p = end;
  }
  // FF EE, length 14, "Adobe", version 100, flags 0 and 0, transform 0 (components are RGB as stored).
  const app14 = Uint8Array.from([0xff, 0xee, 0, 14, 0x41, 0x64, 0x6f, 0x62, 0x65, 0, 100, 0, 0, 0, 0, 0]);
  const [from, to] = jfif ?? [2, 2];
  const parts = [jpeg.subarray(0, 2), app14, jpeg.subarray(2, from), jpeg.subarray(to)];
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  parts.reduce((at, part) => (out.set(part, at), at + part.length), 0);
  return out;
}

/** The samples of one frame, decoded by the codec the transfer syntax names. */
export async function readFrame(
  dataSet: DicomDataSet,
  syntax: TransferSyntax,
  layout: PixelLayout,
  frame: number,
): Promise<FrameBytes> {
  const element = dataSet.elements.x7fe00010 ?? dataSet.elements.x7fe00008 ?? dataSet.elements.x7fe00009;
  if (!element) throw new UndecodableImageError('This DICOM file has no pixel data.');
  if (syntax.codec === 'native') return nativeFrame(dataSet, element, syntax, layout, frame);
  if (syntax.codec === 'unsupported') {
    throw new UndecodableImageError(`Pixel data in ${syntax.name} (${syntax.uid}) cannot be decoded by this server.`);
  }
  try {
    let encoded = encapsulatedFrame(dataSet, element, frame, layout.frames);
    if (syntax.codec === 'rle') {
      const bytes = decodeRleFrame(encoded, pixelsOf(layout), layout.samplesPerPixel, layout.bitsAllocated / 8);
      return { bytes, rgb: false, bigEndian: false };
    }
    const decode = {
      'jpeg-baseline': decodeJpegBaseline,
      'jpeg-lossless': decodeJpegLossless,
      'jpeg-ls': decodeJpegLs,
      'jpeg-2000': decodeJpeg2000,
    }[syntax.codec];
    // pydicom's rule: an RGB JPEG without an Adobe marker was stored without a colour transform.
    if (syntax.codec === 'jpeg-baseline' && layout.photometric === 'RGB') encoded = withoutColourTransform(encoded);
    // libjpeg-turbo's WebAssembly build reads 8-bit JPEG only; 12-bit JPEG Extended goes to jpeg12.ts.
    const twelveBit = syntax.codec === 'jpeg-baseline' && jpegPrecision(encoded) > 8;
    const decoded = twelveBit ? decodeSequentialJpeg(encoded) : await decode(encoded);
    if (decoded.width !== layout.columns || decoded.height !== layout.rows) {
      throw new Error(`frame is ${decoded.width}x${decoded.height}, header says ${layout.columns}x${layout.rows}`);
    }
    // Codecs hand back 8-bit samples as one byte each; widen them when the header allocates 16 bits.
    let bytes = decoded.bytes;
    // A greyscale image some encoders stored as three identical components: keep the first.
    if (decoded.components === 3 && layout.samplesPerPixel === 1) bytes = bytes.filter((_, i) => i % 3 === 0);
    if (decoded.bitsPerSample <= 8 && layout.bitsAllocated === 16) {
      const wide = new Uint16Array(decoded.bytes.length);
      wide.set(decoded.bytes);
      bytes = new Uint8Array(wide.buffer);
    }
    const rgb = decoded.components === 3 && layout.samplesPerPixel === 3 && decoded.colourTransformed !== false;
    return { bytes, rgb, bigEndian: false };
  } catch (error) {
    if (error instanceof UndecodableImageError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new UndecodableImageError(`The ${syntax.name} pixel data of this DICOM file is damaged (${reason}).`);
  }
}
