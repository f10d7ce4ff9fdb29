import { stringValue, ushortValue, type DicomDataSet } from './dicom-dataset.ts';
import { readFrame, type PixelLayout } from './dicom-pixels.ts';
import { transferSyntax } from './transfer-syntax.ts';
import { assertDecodable } from '../volume.ts';

/** Where the samples of a file's pixel data sit, as far as blanking them needs to know. */
export interface SampleLayout {
  rows: number;
  columns: number;
  samples: number;
  bytesPerSample: number;
  frames: number;
  /** True when each frame holds its samples plane by plane (Planar Configuration 1). */
  planar: boolean;
  little: boolean;
}

/** The pixel data of a file as samples in memory, decoded when it was compressed. */
export interface SampleFrames {
  layout: SampleLayout;
  /** Every frame, one after the other. */
  bytes: Uint8Array;
  /**
   * Photometric Interpretation of `bytes`: a JPEG or JPEG 2000 codec hands back RGB from YBR data, and 4:2:2
   * data comes back one sample set per pixel.
   */
  photometric: string;
  /** True when the file's pixel data was compressed, so writing `bytes` changes its transfer syntax. */
  decoded: boolean;
}

/** The native transfer syntaxes, whose pixel data are the samples themselves. */
const NATIVE = new Set(['1.2.840.10008.1.2', '1.2.840.10008.1.2.1', '1.2.840.10008.1.2.2', '1.2.840.10008.1.2.1.99']);

/** Whether pixel data in `syntax` is stored as plain samples. */
export const isNativeSyntax = (syntax: string) => NATIVE.has(syntax);

/**
 * The layout of a file's samples, or undefined when it is none this can blank: 8 or 16 bits allocated, one
 * or three samples per pixel, and no 4:2:2 subsampling left in native data.
 */
export function sampleLayoutOf(dataSet: DicomDataSet, syntax: string): SampleLayout | undefined {
  const rows = ushortValue(dataSet, 'x00280010', 0);
  const columns = ushortValue(dataSet, 'x00280011', 0);
  const samples = ushortValue(dataSet, 'x00280002', 1);
  const bits = ushortValue(dataSet, 'x00280100', 0);
  const frames = Math.max(1, Number.parseInt(stringValue(dataSet, 'x00280008') ?? '1', 10) || 1);
  const native = isNativeSyntax(syntax);
  const subsampled = stringValue(dataSet, 'x00280004')?.startsWith('YBR_FULL_422') || false;
  if (!rows || !columns || (bits !== 8 && bits !== 16) || (samples !== 1 && samples !== 3)) return undefined;
  if (native && subsampled) return undefined;
  return {
    rows,
    columns,
    samples,
    bytesPerSample: bits / 8,
    frames,
    // Codecs hand back interleaved samples whatever the attribute says.
    planar: native && ushortValue(dataSet, 'x00280006', 0) === 1,
    little: syntax !== '1.2.840.10008.1.2.2',
  };
}

const frameBytesOf = (l: SampleLayout) => l.rows * l.columns * l.samples * l.bytesPerSample;

/** The photometric interpretation of decoded samples, given the file's and whether the codec turned them to RGB. */
function decodedPhotometric(photometric: string, samples: number, rgb: boolean): string {
  if (samples !== 3) return photometric;
  if (rgb) return 'RGB';
  // Full-resolution YBR stays YBR_FULL; the JPEG 2000 component transforms are undone by the codec.
  if (photometric.startsWith('YBR_FULL')) return 'YBR_FULL';
  if (photometric === 'YBR_ICT' || photometric === 'YBR_RCT') return 'RGB';
  return photometric;
}

/**
 * Reads frames `which` (all by default) of a file's pixel data as samples: native data as it is stored,
 * compressed data decoded by the codec its transfer syntax names (see dicom-pixels.ts). Throws the codec's
 * error for damaged or undecodable data; undefined when the layout is none sampleLayoutOf accepts.
 */
export async function readSampleFrames(
  dataSet: DicomDataSet,
  syntax: string,
  which?: number[],
): Promise<SampleFrames | undefined> {
  const layout = sampleLayoutOf(dataSet, syntax);
  const element = dataSet.elements.x7fe00010;
  if (!layout || !element) return undefined;
  const frameBytes = frameBytesOf(layout);
  const frames = which ?? Array.from({ length: layout.frames }, (_, i) => i);
  const photometric = stringValue(dataSet, 'x00280004') ?? (layout.samples === 3 ? 'RGB' : 'MONOCHROME2');
  if (isNativeSyntax(syntax) && !element.encapsulatedPixelData) {
    if (element.length < frameBytes * layout.frames) return undefined;
    const bytes = new Uint8Array(frames.length * frameBytes);
    frames.forEach((frame, i) => {
      const start = element.dataOffset + frame * frameBytes;
      bytes.set(dataSet.byteArray.subarray(start, start + frameBytes), i * frameBytes);
    });
    return { layout, bytes, photometric, decoded: false };
  }
  // Refused before allocating: a header may claim far more samples than any real image holds.
  assertDecodable(frames.length * layout.rows * layout.columns * layout.samples);
  const pixelLayout: PixelLayout = {
    rows: layout.rows,
    columns: layout.columns,
    frames: layout.frames,
    samplesPerPixel: layout.samples,
    bitsAllocated: layout.bytesPerSample * 8,
    planarConfiguration: ushortValue(dataSet, 'x00280006', 0),
    photometric,
  };
  const bytes = new Uint8Array(frames.length * frameBytes);
  let rgb = false;
  for (const [i, frame] of frames.entries()) {
    const decoded = await readFrame(dataSet, transferSyntax(syntax), pixelLayout, frame);
    if (decoded.bytes.length !== frameBytes) throw new Error(`frame ${frame} decoded to ${decoded.bytes.length} bytes`);
    bytes.set(decoded.bytes, i * frameBytes);
    rgb ||= decoded.rgb;
  }
  return {
    layout: { ...layout, planar: false, little: true },
    bytes,
    photometric: decodedPhotometric(photometric, layout.samples, rgb),
    decoded: true,
  };
}
