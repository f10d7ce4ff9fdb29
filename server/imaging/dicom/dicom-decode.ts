import { dicomDirections } from '../orientation.ts';
import { assertDecodable, integerRange, UndecodableImageError, type ImageVolume } from '../volume.ts';
import { numberValue, parseDicom, stringValue, ushortValue, type DicomDataSet } from './dicom-dataset.ts';
import { describeDicomObject, hasPixelData, noImageReason } from './dicom-object.ts';
import { applyPalette, readPalette } from './palette.ts';
import { readFrame, type FrameBytes, type PixelLayout } from './dicom-pixels.ts';
import { rescaleOf } from './rescale.ts';
import { transferSyntax } from './transfer-syntax.ts';

function layoutOf(dataSet: DicomDataSet): PixelLayout {
  const samplesPerPixel = ushortValue(dataSet, 'x00280002', 1);
  const layout = {
    rows: ushortValue(dataSet, 'x00280010', 0),
    columns: ushortValue(dataSet, 'x00280011', 0),
    frames: Math.max(1, Math.round(numberValue(dataSet, 'x00280008', 1))),
    samplesPerPixel,
    bitsAllocated: ushortValue(dataSet, 'x00280100', 16),
    planarConfiguration: ushortValue(dataSet, 'x00280006', 0),
    photometric: stringValue(dataSet, 'x00280004') ?? (samplesPerPixel === 3 ? 'RGB' : 'MONOCHROME2'),
  };
  if (!layout.rows || !layout.columns)
    throw new UndecodableImageError('This DICOM file has no image (Rows or Columns missing).');
  if (![1, 8, 16, 32].includes(layout.bitsAllocated)) {
    throw new UndecodableImageError(`DICOM pixel data with ${layout.bitsAllocated} bits allocated is not supported.`);
  }
  return layout;
}

/** Describes the slice plane from Image Orientation (Patient): the axis its normal points along. */
export function orientationLabel(cosines: number[]): string | undefined {
  if (cosines.length !== 6 || cosines.some((c) => !Number.isFinite(c))) return undefined;
  const [a, b, c, d, e, f] = cosines as [number, number, number, number, number, number];
  const normal = [b * f - c * e, c * d - a * f, a * e - b * d].map(Math.abs);
  const plane = ['sagittal', 'coronal', 'axial'][normal.indexOf(Math.max(...normal))];
  return `${plane} (${cosines.map((v) => Number(v.toFixed(4))).join('\\')})`;
}

/**
 * `samples` into real values at `out[at…]`: the bits of `mask` (-1: all), the sign from the top one of them
 * (`shift` is 32 less Bits Stored), then slope and intercept. One loop for each case, with no call per
 * sample: through a closure per sample, a 12-bit 512×512 slice took 1.2 to 1.7 ms, in its own loop 0.3 ms.
 */
function convertSamples(
  out: Float32Array,
  at: number,
  samples: Uint8Array | Uint16Array,
  mask: number,
  shift: number,
  signed: boolean,
  slope: number,
  intercept: number,
) {
  const count = samples.length;
  if (!signed && mask === -1 && slope === 1 && intercept === 0) out.set(samples, at);
  else if (signed && mask === -1) {
    for (let i = 0; i < count; i++) out[at + i] = ((samples[i]! << shift) >> shift) * slope + intercept;
  } else if (signed) {
    for (let i = 0; i < count; i++) out[at + i] = (((samples[i]! & mask) << shift) >> shift) * slope + intercept;
  } else {
    // The samples' own bits are all kept when the mask is none (-1).
    const kept = mask & 0xffff;
    for (let i = 0; i < count; i++) out[at + i] = (samples[i]! & kept) * slope + intercept;
  }
}

// Turns stored samples into real values: sign from Bits Stored, then slope and intercept.
function writeSamples(
  out: Float32Array,
  at: number,
  frame: FrameBytes,
  count: number,
  bits: number,
  signed: boolean,
  bitsStored: number,
  slope: number,
  intercept: number,
) {
  const little = !frame.bigEndian;
  // A Bits Stored beyond Bits Allocated (a malformed file) reads as all of the allocated bits.
  const stored = Math.min(bitsStored, bits);
  const shift = 32 - stored;
  const mask = stored < bits ? 2 ** stored - 1 : -1;
  if (bits === 8) {
    if (frame.bytes.length < count)
      throw new UndecodableImageError('The DICOM pixel data is shorter than its header says.');
    convertSamples(out, at, frame.bytes.subarray(0, count), mask, shift, signed, slope, intercept);
    return;
  }
  if (bits === 16 && little) {
    // Little-endian words read through a typed view: several times faster than a DataView per sample.
    const bytes = frame.bytes.byteOffset % 2 === 0 ? frame.bytes : frame.bytes.slice();
    convertSamples(
      out,
      at,
      new Uint16Array(bytes.buffer, bytes.byteOffset, count),
      mask,
      shift,
      signed,
      slope,
      intercept,
    );
    return;
  }
  const view = new DataView(frame.bytes.buffer, frame.bytes.byteOffset, frame.bytes.byteLength);
  for (let i = 0; i < count; i++) {
    let s = bits === 16 ? view.getUint16(i * 2, little) : view.getUint32(i * 4, little);
    if (mask !== -1) s &= mask;
    if (signed) s = (s << shift) >> shift;
    out[at + i] = s * slope + intercept;
  }
}

// Colour planes stored one after another (Planar Configuration 1) become interleaved RGB.
function interleave(values: Float32Array, at: number, pixels: number) {
  const planes = values.slice(at, at + pixels * 3);
  for (let p = 0; p < pixels; p++) for (let c = 0; c < 3; c++) values[at + p * 3 + c] = planes[c * pixels + p]!;
}

// YBR_FULL to RGB (PS3.3 C.7.6.3.1.2), rounded and clamped to the stored range as toolkits do.
function ybrToRgb(values: Float32Array, at: number, pixels: number, bits: number) {
  const max = 2 ** bits - 1;
  const half = 2 ** (bits - 1);
  const clamp = (v: number) => Math.min(max, Math.max(0, Math.round(v)));
  for (let p = at; p < at + pixels * 3; p += 3) {
    const y = values[p]!,
      cb = values[p + 1]! - half,
      cr = values[p + 2]! - half;
    values[p] = clamp(y + 1.402 * cr);
    values[p + 1] = clamp(y - 0.344136 * cb - 0.714136 * cr);
    values[p + 2] = clamp(y + 1.772 * cb);
  }
}

/** ROW or COL, as (0018,1312) names the phase-encoding axis; anything else is not known. */
function phaseEncoding(value: string | undefined): 'ROW' | 'COL' | undefined {
  const v = value?.trim().toUpperCase();
  return v === 'ROW' || v === 'COL' ? v : undefined;
}

/** Decodes a DICOM file (any transfer syntax with a codec, any frame count) into a volume. */
export async function decodeDicom(bytes: Uint8Array): Promise<ImageVolume> {
  const dataSet = parseDicom(bytes);
  if (!hasPixelData(dataSet)) throw new UndecodableImageError(noImageReason(describeDicomObject(dataSet)));
  const syntax = transferSyntax(stringValue(dataSet, 'x00020010') ?? '1.2.840.10008.1.2');
  const layout = layoutOf(dataSet);
  const photometric = layout.photometric;
  // A PALETTE COLOR image stores one index per pixel; its lookup tables turn each into RGB.
  const palette = photometric === 'PALETTE COLOR' ? readPalette(dataSet) : undefined;
  const channels = layout.samplesPerPixel === 3 || palette ? 3 : 1;
  const signed = ushortValue(dataSet, 'x00280103', 0) === 1;
  const bitsStored = ushortValue(dataSet, 'x00280101', layout.bitsAllocated);
  const { slope, intercept } = palette ? { slope: 1, intercept: 0 } : rescaleOf(dataSet, 0);
  const pixels = layout.rows * layout.columns;
  assertDecodable(pixels * channels * layout.frames);
  const data = new Float32Array(pixels * channels * layout.frames);
  const indices = palette ? new Float32Array(pixels) : undefined;
  for (let f = 0; f < layout.frames; f++) {
    const frame = await readFrame(dataSet, syntax, layout, f);
    const at = f * pixels * channels;
    // Packed 1-bit frames arrive unpacked, one byte per sample.
    const bits = layout.bitsAllocated === 1 ? 8 : layout.bitsAllocated;
    if (palette && indices) {
      writeSamples(indices, 0, frame, pixels, bits, false, bitsStored, 1, 0);
      applyPalette(palette, indices, pixels, data, at);
      continue;
    }
    const rescale = f === 0 ? { slope, intercept } : rescaleOf(dataSet, f);
    writeSamples(data, at, frame, pixels * channels, bits, signed, bitsStored, rescale.slope, rescale.intercept);
    if (channels === 3 && !frame.rgb && syntax.codec === 'native' && layout.planarConfiguration === 1)
      interleave(data, at, pixels);
    if (channels === 3 && !frame.rgb && photometric.startsWith('YBR_FULL'))
      ybrToRgb(data, at, pixels, Math.min(bitsStored, 16));
  }
  const [rowSpacing, columnSpacing] = [
    numberValue(dataSet, 'x00280030', 1, 0),
    numberValue(dataSet, 'x00280030', 1, 1),
  ];
  const sliceSpacing = numberValue(dataSet, 'x00180088', numberValue(dataSet, 'x00180050', 1));
  const center = numberValue(dataSet, 'x00281050', NaN);
  const width = numberValue(dataSet, 'x00281051', NaN);
  const cosines = [0, 1, 2, 3, 4, 5].map((i) => numberValue(dataSet, 'x00200037', NaN, i));
  const origin = [0, 1, 2].map((i) => numberValue(dataSet, 'x00200032', NaN, i)) as [number, number, number];
  return {
    format: 'dcm',
    width: layout.columns,
    height: layout.rows,
    depth: layout.frames,
    channels,
    data,
    spacing: [columnSpacing, rowSpacing, sliceSpacing],
    bitDepth: palette ? palette.bits : bitsStored,
    storedRange: palette ? [0, 2 ** palette.bits - 1] : integerRange(bitsStored, signed, slope, intercept),
    photometric: channels === 3 ? 'RGB' : photometric,
    invert: photometric === 'MONOCHROME1',
    window: Number.isFinite(center) && width > 0 ? { center, width } : undefined,
    modality: stringValue(dataSet, 'x00080060'),
    orientation: stringValue(dataSet, 'x00200037') ? orientationLabel(cosines) : undefined,
    directions: stringValue(dataSet, 'x00200037') ? dicomDirections(cosines) : undefined,
    studyDescription: stringValue(dataSet, 'x00081030'),
    origin: origin.every(Number.isFinite) ? origin : undefined,
    seriesDescription: stringValue(dataSet, 'x0008103e'),
    imageType: stringValue(dataSet, 'x00080008'),
    protocol: stringValue(dataSet, 'x00181030'),
    phaseEncoding: phaseEncoding(stringValue(dataSet, 'x00181312')),
    sopClassUid: stringValue(dataSet, 'x00080016') ?? stringValue(dataSet, 'x00020002'),
  };
}
