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
  /** Image Orientation (Patient): the row and column directions in LPS, when the file gives them. */
  cosines?: number[];
  /** Image Position (Patient) of the first voxel, in LPS millimetres. */
  position?: number[];
  pixels: Uint8Array;
}

const cross = (a: number[], b: number[]) => [
  a[1]! * b[2]! - a[2]! * b[1]!,
  a[2]! * b[0]! - a[0]! * b[2]!,
  a[0]! * b[1]! - a[1]! * b[0]!,
];
const dot = (a: number[], b: number[]) => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;

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
  const cosines = numbers(set, 'x00200037');
  const oriented = cosines.length === 6;
  return {
    rows: set.uint16('x00280010') ?? 0,
    columns: set.uint16('x00280011') ?? 0,
    frames: Number(set.string('x00280008') ?? 1) || 1,
    bits,
    signed: set.uint16('x00280103') === 1,
    slope: numbers(set, 'x00281053')[0] ?? 1,
    intercept: numbers(set, 'x00281052')[0] ?? 0,
    spacing: [columnSpacing, rowSpacing, between],
    // Slices stack along their normal (PS3.3 C.7.6.2): the position projected on it, else the instance number.
    order:
      oriented && position.length === 3
        ? dot(position, cross(cosines.slice(0, 3), cosines.slice(3)))
        : (position[2] ?? Number(set.string('x00200013') ?? 0)),
    cosines: oriented ? cosines : undefined,
    position: position.length === 3 ? position : undefined,
    pixels: new Uint8Array(buffer, pixel.dataOffset, pixel.length),
  };
}

/**
 * The NIfTI sform (RAS rows x, y, z of the voxel-to-millimetre affine) of a DICOM stack: x along a row
 * (the first direction of Image Orientation (Patient)), y down the columns, z along the stack from the
 * first slice's Image Position to the last's. DICOM's LPS becomes NIfTI's RAS by negating x and y, so
 * NiiVue shows the scan the standard way and labels its sides truly. Without orientation the voxel grid
 * scaled by its spacing.
 */
function sformOf(first: Slice, last: Slice, depth: number): number[][] {
  const [sx, sy, sz] = first.spacing;
  if (!first.cosines || !first.position)
    return [
      [sx, 0, 0, 0],
      [0, sy, 0, 0],
      [0, 0, sz, 0],
    ];
  const row = first.cosines.slice(0, 3);
  const column = first.cosines.slice(3);
  const normal = cross(row, column);
  // The stack's step: the distance between first and last slice shared out, else the normal times the spacing.
  const step =
    last.position && depth > 1 && last !== first
      ? last.position.map((v, i) => (v - first.position![i]!) / (depth - 1))
      : normal.map((n) => n * sz);
  const lps = [row.map((v) => v * sx), column.map((v) => v * sy), step, first.position];
  return [0, 1, 2].map((axis) => lps.map((vector) => (axis < 2 ? -vector[axis]! : vector[axis]!)));
}

/**
 * Builds one NIfTI-1 volume from uncompressed greyscale DICOM: one multi-frame file, or the slices
 * of one series in any order. Samples, rescale slope/intercept and voxel spacing are kept; the
 * orientation and position come from the slices' geometry (see sformOf).
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
  view.setInt16(254, 1, true); // sform_code: scanner coordinates
  sformOf(first, slices.at(-1)!, depth).forEach((row, r) =>
    row.forEach((v, c) => view.setFloat32(280 + r * 16 + c * 4, v, true)),
  );
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
