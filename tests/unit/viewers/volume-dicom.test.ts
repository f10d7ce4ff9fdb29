import * as nifti from 'nifti-reader-js';
import { describe, expect, it } from 'vitest';
import { knownSamples, makeDicomImage } from '../../fixtures/dicom-fixtures.ts';
import { writeDicomFile } from '../../fixtures/dicom-writer.ts';
import { dicomArchiveToNifti, dicomToNifti } from '../../../src/stores/volume-dicom.ts';
import { seriesFiles } from '../../fixtures/dicom-series.ts';
import { volumeFileName } from '../../../src/stores/volume-viewer.ts';

const buffer = (bytes: Uint8Array) => bytes.slice().buffer as ArrayBuffer;

function slice(z: number, fill: number, geometry?: { orientation: string; position: string }): ArrayBuffer {
  const pixels = new Uint8Array(4 * 3 * 2);
  new DataView(pixels.buffer).setUint16(0, fill, true);
  for (let i = 0; i < 12; i++) new DataView(pixels.buffer).setUint16(i * 2, fill + i, true);
  return buffer(
    writeDicomFile({
      syntax: 'explicit-le',
      elements: [
        { tag: '00200032', vr: 'DS', value: geometry?.position ?? `0\\0\\${z}` },
        ...(geometry ? [{ tag: '00200037', vr: 'DS', value: geometry.orientation }] : []),
        { tag: '00280002', vr: 'US', value: [1] },
        { tag: '00280004', vr: 'CS', value: 'MONOCHROME2' },
        { tag: '00280010', vr: 'US', value: [3] },
        { tag: '00280011', vr: 'US', value: [4] },
        { tag: '00280030', vr: 'DS', value: '0.8\\0.8' },
        { tag: '00180050', vr: 'DS', value: '2.5' },
        { tag: '00280100', vr: 'US', value: [16] },
        { tag: '00280101', vr: 'US', value: [12] },
        { tag: '00280102', vr: 'US', value: [11] },
        { tag: '00280103', vr: 'US', value: [0] },
        { tag: '7FE00010', vr: 'OW', value: pixels },
      ],
    }),
  );
}

describe('dicomToNifti', () => {
  it('keeps the samples, spacing and rescale of a multi-frame DICOM', async () => {
    const dicom = await makeDicomImage({ width: 16, height: 12, frames: 3, signed: true, slope: 2, intercept: -1024 });
    const out = dicomToNifti([buffer(dicom)]);
    expect(nifti.isNIFTI1(out)).toBe(true);
    const header = nifti.readHeader(out) as nifti.NIFTI1;
    expect(header.dims.slice(0, 4)).toEqual([3, 16, 12, 3]);
    expect(header.datatypeCode).toBe(4); // signed 16-bit
    expect(header.pixDims.slice(1, 4)).toEqual([0.75, 0.5, 2.5]); // columns, rows (0028,0030 is row\\column), slices
    expect([header.scl_slope, header.scl_inter]).toEqual([2, -1024]);
    const samples = Array.from(new Int16Array(nifti.readImage(header, out)));
    expect(samples).toEqual(knownSamples(16 * 12 * 3, 16, true));
  });

  it('stacks the slices of a series by position, whatever order they come in', () => {
    const out = dicomToNifti([slice(5, 3000), slice(0, 1000), slice(2.5, 2000)]);
    const header = nifti.readHeader(out) as nifti.NIFTI1;
    expect(header.dims.slice(0, 4)).toEqual([3, 4, 3, 3]);
    const voxels = new Uint16Array(nifti.readImage(header, out));
    expect([voxels[0], voxels[12], voxels[24], voxels[35]]).toEqual([1000, 2000, 3000, 3011]);
  });

  it('places a series in scanner space from its geometry, so NiiVue shows anterior up and labels sides truly', () => {
    // An axial CT: rows run to the patient's left, columns to the back, slices upwards 2.5 mm apart.
    const files = seriesFiles({ slices: 4, size: 8 });
    const header = nifti.readHeader(dicomToNifti(files.map((f) => buffer(f.bytes)))) as nifti.NIFTI1;
    expect(header.sform_code).toBe(1);
    // NIfTI is RAS: the left-going rows are -x, the backward columns -y; the first voxel sits at LPS (-16, -16, 0).
    expect(header.affine.slice(0, 3).map((row) => row.map((v) => v + 0))).toEqual([
      [-1, 0, 0, 16],
      [0, -1, 0, 16],
      [0, 0, 2.5, 0],
    ]);
  });

  it('stacks a sagittal series along its normal, not along z', () => {
    const sagittal = (x: number, value: number) =>
      slice(0, value, { orientation: '0\\1\\0\\0\\0\\-1', position: `${x}\\-10\\10` });
    // The normal of rows to the back and columns downwards points to the patient's right (-x in LPS).
    const out = dicomToNifti([sagittal(-5, 3000), sagittal(5, 1000), sagittal(0, 2000)]);
    const header = nifti.readHeader(out) as nifti.NIFTI1;
    const voxels = new Uint16Array(nifti.readImage(header, out));
    expect([voxels[0], voxels[12], voxels[24]]).toEqual([1000, 2000, 3000]);
    // Slices step 5 mm towards the right: +x in RAS.
    expect(header.affine[0]![2]).toBeCloseTo(5);
  });

  it('refuses compressed pixel data with a clear message', async () => {
    const rle = await makeDicomImage({ syntax: 'rle' });
    expect(() => dicomToNifti([buffer(rle)])).toThrow('compressed pixels');
  });
});

describe('volumeFileName', () => {
  it('names the bytes so NiiVue recognises the format', () => {
    expect(volumeFileName({ stored_filename: 'a.nii.gz', extension: '.nii.gz' })).toBe('volume.nii.gz');
    expect(volumeFileName({ stored_filename: 'b.nrrd', extension: '.nrrd' })).toBe('volume.nrrd');
    expect(volumeFileName({ stored_filename: 'c.dcm', extension: '.dcm' })).toBe('c.dcm.nii');
    expect(volumeFileName({ stored_filename: 'd.zip', extension: '.zip' })).toBe('d.zip.nii');
  });
});

describe('dicomArchiveToNifti', () => {
  it('opens a series item (a zip of slices) as one volume in slice order', async () => {
    const { zipSync } = await import('fflate');
    const archive = zipSync({
      'slice-0002.dcm': new Uint8Array(slice(2.5, 2000)),
      'slice-0001.dcm': new Uint8Array(slice(0, 1000)),
      'notes.txt': new TextEncoder().encode('not a slice'),
    });
    const out = dicomArchiveToNifti(buffer(archive));
    const header = nifti.readHeader(out) as nifti.NIFTI1;
    expect(header.dims.slice(0, 4)).toEqual([3, 4, 3, 2]);
    expect(Array.from(new Uint16Array(nifti.readImage(header, out))).filter((_, i) => i % 12 === 0)).toEqual([
      1000, 2000,
    ]);
  });
});
