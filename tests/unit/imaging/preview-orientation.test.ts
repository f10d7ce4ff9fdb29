import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../../../server/imaging/decode-image.ts';
import { edgeMarkers, extractSlice, renderSlicePng, sliceCount } from '../../../server/imaging/preview-render.ts';
import type { ImageVolume } from '../../../server/imaging/volume.ts';
import { writeDicomFile } from '../../fixtures/dicom-writer.ts';
import { writeNifti } from '../../fixtures/nifti-writer.ts';

type Vec = [number, number, number];

/**
 * A patient in LPS millimetres: a body (a sphere of 100) with a bright marker (1000) on the patient's
 * left, front and top, so where the marker lands on a preview says how the preview is oriented.
 */
function patient([l, p, s]: Vec): number {
  if (Math.hypot(l - 15, p + 15, s - 15) <= 8) return 1000;
  return Math.hypot(l, p, s) <= 34 ? 100 : 0;
}

/** A scan of the patient: voxel axes x, y, z along `directions` (LPS unit vectors), centred on the patient. */
interface Geometry {
  directions: [Vec, Vec, Vec];
  size: number;
  spacing: number;
}

const N = 40;
const SPACING = 2;

function origin(g: Geometry): Vec {
  const half = ((g.size - 1) / 2) * g.spacing;
  return [0, 1, 2].map((a) => -g.directions.reduce((sum, d) => sum + d[a]! * half, 0)) as Vec;
}

function sample(g: Geometry): Int16Array {
  const o = origin(g);
  const out = new Int16Array(g.size ** 3);
  for (let k = 0; k < g.size; k++)
    for (let j = 0; j < g.size; j++)
      for (let i = 0; i < g.size; i++) {
        const point = [0, 1, 2].map(
          (a) => o[a]! + (i * g.directions[0][a]! + j * g.directions[1][a]! + k * g.directions[2][a]!) * g.spacing,
        ) as Vec;
        out[i + j * g.size + k * g.size * g.size] = patient(point);
      }
  return out;
}

/** A multi-frame DICOM file of the scan, its geometry in Image Orientation/Position (Patient). */
function dicomOf(g: Geometry): Uint8Array {
  const [row, column] = g.directions;
  const ds = (values: number[]) => values.map((v) => Number(v.toFixed(6))).join('\\');
  return writeDicomFile({
    syntax: 'explicit-le',
    elements: [
      { tag: '00080016', vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.4' },
      { tag: '00080060', vr: 'CS', value: 'MR' },
      { tag: '00180088', vr: 'DS', value: String(g.spacing) },
      { tag: '00200032', vr: 'DS', value: ds(origin(g)) },
      { tag: '00200037', vr: 'DS', value: ds([...row, ...column]) },
      { tag: '00280002', vr: 'US', value: [1] },
      { tag: '00280004', vr: 'CS', value: 'MONOCHROME2' },
      { tag: '00280008', vr: 'IS', value: String(g.size) },
      { tag: '00280010', vr: 'US', value: [g.size] },
      { tag: '00280011', vr: 'US', value: [g.size] },
      { tag: '00280030', vr: 'DS', value: `${g.spacing}\\${g.spacing}` },
      { tag: '00280100', vr: 'US', value: [16] },
      { tag: '00280101', vr: 'US', value: [16] },
      { tag: '00280102', vr: 'US', value: [15] },
      { tag: '00280103', vr: 'US', value: [1] },
      { tag: '7FE00010', vr: 'OW', value: new Uint8Array(sample(g).buffer) },
    ],
  });
}

/** A NIfTI-1 file of the scan with its geometry in the sform (RAS, as NIfTI stores it). */
function niftiOf(g: Geometry): Uint8Array {
  const bytes = writeNifti({
    dims: [g.size, g.size, g.size],
    values: sample(g),
    spacing: [g.spacing, g.spacing, g.spacing],
  });
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const o = origin(g);
  const ras = (v: Vec): Vec => [-v[0], -v[1], v[2]];
  const columns = g.directions.map((d) => ras(d).map((v) => v * g.spacing));
  const translation = ras(o);
  view.setInt16(254, 1, true); // sform_code: scanner
  for (let r = 0; r < 3; r++)
    [columns[0]![r]!, columns[1]![r]!, columns[2]![r]!, translation[r]!].forEach((v, c) =>
      view.setFloat32(280 + r * 16 + c * 4, v, true),
    );
  return bytes;
}

/** The middle of the bright marker in the slice along `axis` that shows most of it, as fractions of width and height. */
function markerAt(volume: ImageVolume, axis: 'axial' | 'coronal' | 'sagittal'): { x: number; y: number } {
  let best = { count: 0, x: 0, y: 0 };
  for (let index = 0; index < sliceCount(volume, axis); index++) {
    const slice = extractSlice(volume, axis, index);
    let [count, sx, sy] = [0, 0, 0];
    for (let y = 0; y < slice.height; y++)
      for (let x = 0; x < slice.width; x++)
        if (slice.values[y * slice.width + x]! > 500) [count, sx, sy] = [count + 1, sx + x, sy + y];
    if (count > best.count) best = { count, x: sx / count / slice.width, y: sy / count / slice.height };
  }
  expect(best.count).toBeGreaterThan(10);
  return best;
}

const tilt = (degrees: number): [Vec, Vec, Vec] => {
  const [c, s] = [Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180)];
  return [
    [c, s, 0],
    [-s, c, 0],
    [0, 0, 1],
  ];
};

const scans: Record<string, [Vec, Vec, Vec]> = {
  // Rows run to the patient's left, columns to the back: the usual axial scan.
  axial: [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
  // Rows to the left, columns downwards, slices from front to back.
  coronal: [
    [1, 0, 0],
    [0, 0, -1],
    [0, 1, 0],
  ],
  // Rows to the back, columns downwards, slices from left to right.
  sagittal: [
    [0, 1, 0],
    [0, 0, -1],
    [-1, 0, 0],
  ],
  // An axial scan tilted by 20 degrees about the long axis.
  oblique: tilt(20),
  // Voxels stored the NIfTI way, x to the right, y to the front.
  ras: [
    [-1, 0, 0],
    [0, -1, 0],
    [0, 0, 1],
  ],
};

describe('preview geometry: radiological display from the file’s own geometry', () => {
  for (const [name, directions] of Object.entries(scans)) {
    for (const format of ['dcm', 'nii'] as const) {
      it(`shows a ${name} ${format === 'dcm' ? 'DICOM' : 'NIfTI'} scan with the marker where the patient has it`, async () => {
        const geometry = { directions, size: N, spacing: SPACING };
        const bytes = format === 'dcm' ? dicomOf(geometry) : niftiOf(geometry);
        const volume = await decodeImage(bytes, format);
        // Axial: anterior at the top, the patient's left on the viewer's right.
        const axial = markerAt(volume, 'axial');
        expect(axial.x).toBeGreaterThan(0.55);
        expect(axial.y).toBeLessThan(0.45);
        // Coronal: superior at the top, left on the right.
        const coronal = markerAt(volume, 'coronal');
        expect(coronal.x).toBeGreaterThan(0.55);
        expect(coronal.y).toBeLessThan(0.45);
        // Sagittal: superior at the top, anterior on the left.
        const sagittal = markerAt(volume, 'sagittal');
        expect(sagittal.x).toBeLessThan(0.45);
        expect(sagittal.y).toBeLessThan(0.45);
        expect(edgeMarkers(volume, 'axial')).toEqual({ left: 'R', right: 'L', top: 'A', bottom: 'P' });
        expect(edgeMarkers(volume, 'coronal')).toEqual({ left: 'R', right: 'L', top: 'S', bottom: 'I' });
        expect(edgeMarkers(volume, 'sagittal')).toEqual({ left: 'A', right: 'P', top: 'S', bottom: 'I' });
      });
    }
  }

  it('draws the markers on the preview: white letters at the middle of each edge', async () => {
    const volume = await decodeImage(dicomOf({ directions: scans.axial!, size: 128, spacing: 1 }), 'dcm');
    const png = await renderSlicePng(volume, 'axial', 64);
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect((await sharp(png).metadata()).channels).toBe(1);
    const brightIn = (x0: number, y0: number, w: number, h: number) => {
      let bright = 0;
      for (let y = y0; y < y0 + h; y++)
        for (let x = x0; x < x0 + w; x++) if (data[(y * info.width + x) * info.channels]! > 160) bright += 1;
      return bright;
    };
    // The patient is 100 against a window of 0-1000: nothing else near the edges is white.
    const middle = Math.round(info.height / 2) - 8;
    expect(brightIn(0, middle, 16, 16)).toBeGreaterThan(5); // R
    expect(brightIn(info.width - 16, middle, 16, 16)).toBeGreaterThan(5); // L
    expect(brightIn(Math.round(info.width / 2) - 8, 0, 16, 16)).toBeGreaterThan(5); // A
  });

  it('shows a file without geometry as stored, without markers', async () => {
    const volume = await decodeImage(writeNifti({ dims: [4, 4, 2], values: new Array(32).fill(1) }), 'nii');
    delete volume.directions;
    expect(edgeMarkers({ ...volume }, 'axial')).toBeUndefined();
  });
});
