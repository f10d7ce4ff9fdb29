import dicomParser from 'dicom-parser';
import { UndecodableImageError } from '../volume.ts';
import type { DicomDataSet } from './dicom-dataset.ts';
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
  if ((element.basicOffsetTable ?? []).length > 0)
    return dicomParser.readEncapsulatedImageFrame(dataSet, element, frame);
  if (fragments.length === frames)
    return dicomParser.readEncapsulatedPixelDataFromFragments(dataSet, element, frame, 1);
  // No offset table and several fragments per frame: find frame starts from JPEG markers.
  const table = dicomParser.createJPEGBasicOffsetTable(dataSet, element);
  return dicomParser.readEncapsulatedImageFrame(dataSet, element, frame, table);
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
  const frameLength = (layout.rows * layout.columns * layout.samplesPerPixel * layout.bitsAllocated) / 8;
  if (syntax.codec === 'native') {
    const start = element.dataOffset + frame * frameLength;
    if (start + frameLength > dataSet.byteArray.length)
      throw new UndecodableImageError('The DICOM pixel data is shorter than its header says.');
    return { bytes: dataSet.byteArray.subarray(start, start + frameLength), rgb: false, bigEndian: syntax.bigEndian };
  }
  if (syntax.codec === 'unsupported') {
    throw new UndecodableImageError(`Pixel data in ${syntax.name} (${syntax.uid}) cannot be decoded by this server.`);
  }
  const encoded = encapsulatedFrame(dataSet, element, frame, layout.frames);
  try {
    if (syntax.codec === 'rle') {
      const bytes = decodeRleFrame(
        encoded,
        layout.rows * layout.columns,
        layout.samplesPerPixel,
        layout.bitsAllocated / 8,
      );
      return { bytes, rgb: false, bigEndian: false };
    }
    const decode = {
      'jpeg-baseline': decodeJpegBaseline,
      'jpeg-lossless': decodeJpegLossless,
      'jpeg-ls': decodeJpegLs,
      'jpeg-2000': decodeJpeg2000,
    }[syntax.codec];
    const decoded = await decode(encoded);
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
    return { bytes, rgb: decoded.components === 3 && layout.samplesPerPixel === 3, bigEndian: false };
  } catch (error) {
    if (error instanceof UndecodableImageError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new UndecodableImageError(`The ${syntax.name} pixel data of this DICOM file is damaged (${reason}).`);
  }
}
