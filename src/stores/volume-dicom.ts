import { parseDicom, type DataSet } from 'dicom-parser';
import { unzipSync } from 'fflate';

// Transfer syntaxes whose pixel data is stored as plain little-endian samples.
const UNCOMPRESSED = new Set(['1.2.840.10008.1.2', '1.2.840.10008.1.2.1']);

interface Slice {
  rows: number;
  columns: number;
  frames: number;
  bits: 8 | 16;
  signed: boolean;
  slope: number;
  intercept: number;
  spacing: [number, number, number];
  order: number;
  pixels: Uint8Array;
}

const numbers = (set: DataSet, tag: string): number[] =>
  (set.string(tag) ?? '')
    .split('\\')
    .filter((part) => part.trim() !== '')
    .map(Number)
    .filter((n) => Number.isFinite(n));

function readSlice(buffer: ArrayBuffer): Slice {
  const set = parseDicom(new Uint8Array(buffer));
  const syntax = set.string('x00020010') ?? '1.2.840.10008.1.2';
  if (!UNCOMPRESSED.has(syntax.replace(/\0/g, '').trim())) {
    throw new Error('This DICOM file stores compressed pixels; the viewer opens uncompressed DICOM only.');
  }
  if ((set.uint16('x00280002') ?? 1) !== 1) throw new Error('The viewer opens greyscale DICOM only.');
  const pixel = set.elements.x7fe00010;
  if (!pixel) throw new Error('This DICOM file holds no image.');
  const bits = set.uint16('x00280100') === 8 ? 8 : 16;
  const [rowSpacing = 1, columnSpacing = 1] = numbers(set, 'x00280030');
  const between = numbers(set, 'x00180088')[0] ?? numbers(set, 'x00180050')[0] ?? 1;
  const position = numbers(set, 'x00200032');
  return {
    rows: set.uint16('x00280010') ?? 0,
    columns: set.uint16('x00280011') ?? 0,
    frames: Number(set.string('x00280008') ?? 1) || 1,
    bits,
    signed: set.uint16('x00280103') === 1,
    slope: numbers(set, 'x00281053')[0] ?? 1,
    intercept: numbers(set, 'x00281052')[0] ?? 0,
    spacing: [columnSpacing, rowSpacing, between],
    // Slices stack along the patient axis their position moves along; the instance number breaks ties.
    order: position[2] ?? Number(set.string('x00200013') ?? 0),
    pixels: new Uint8Array(buffer, pixel.dataOffset, pixel.length),
  };
}

/**
 * Builds one NIfTI-1 volume from uncompressed greyscale DICOM: one multi-frame file, or the slices
 * of one series in any order. Samples, rescale slope/intercept and voxel spacing are kept; the
 * orientation is the scanner grid (rows × columns × slices).
 * @example await nv.loadFromArrayBuffer(dicomToNifti([bytes]), 'scan.nii')
 */
export function dicomToNifti(buffers: ArrayBuffer[]): ArrayBuffer {
  const slices = buffers.map(readSlice).sort((a, b) => a.order - b.order);
  const first = slices[0];
  if (!first) throw new Error('No DICOM slices to show.');
  if (slices.some((s) => s.rows !== first.rows || s.columns !== first.columns || s.bits !== first.bits)) {
    throw new Error('These DICOM slices do not share one image size.');
  }
  const depth = slices.reduce((sum, s) => sum + s.frames, 0);
  const frameBytes = first.rows * first.columns * (first.bits / 8);
  const out = new ArrayBuffer(352 + frameBytes * depth);
  const view = new DataView(out);
  view.setInt32(0, 348, true);
  [3, first.columns, first.rows, depth, 1, 1, 1, 1].forEach((d, i) => view.setInt16(40 + i * 2, d, true));
  const datatype = first.bits === 8 ? 2 : first.signed ? 4 : 512;
  view.setInt16(70, datatype, true);
  view.setInt16(72, first.bits, true);
  [1, ...first.spacing, 1, 1, 1, 1].forEach((p, i) => view.setFloat32(76 + i * 4, p, true));
  view.setFloat32(108, 352, true);
  view.setFloat32(112, first.slope, true);
  view.setFloat32(116, first.intercept, true);
  view.setUint8(123, 10); // millimetres and seconds
  view.setInt16(254, 1, true); // sform: the voxel grid scaled by its spacing
  first.spacing.forEach((p, i) => view.setFloat32(280 + i * 16 + i * 4, p, true));
  [...'n+1\0'].forEach((c, i) => view.setUint8(344 + i, c.charCodeAt(0)));
  const target = new Uint8Array(out, 352);
  let offset = 0;
  for (const slice of slices) {
    target.set(slice.pixels.subarray(0, frameBytes * slice.frames), offset);
    offset += frameBytes * slice.frames;
  }
  return out;
}

/** One volume from a DICOM series item: the .zip of its slices, as the series upload stores it. */
export function dicomArchiveToNifti(archive: ArrayBuffer): ArrayBuffer {
  const entries = unzipSync(new Uint8Array(archive), { filter: (entry) => entry.name.toLowerCase().endsWith('.dcm') });
  return dicomToNifti(Object.values(entries).map((bytes) => bytes.slice().buffer as ArrayBuffer));
}
