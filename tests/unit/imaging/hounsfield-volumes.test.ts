import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../../../server/imaging/decode-image.ts';
import { histogram } from '../../../server/imaging/metrics/histogram.ts';
import { modalityFamily, readsAsHounsfield } from '../../../server/imaging/metrics/modality.ts';
import { measureQuality } from '../../../server/imaging/metrics/quality-metrics.ts';
import { assessQuality } from '../../../server/imaging/verdict.ts';
import type { ImageVolume } from '../../../server/imaging/volume.ts';
import { int16NiftiOf } from '../../fixtures/nifti-writer.ts';
import { gaussian, seededRandom } from '../../fixtures/phantoms.ts';

const CT_SMALL = '/usr/lib/python3/dist-packages/pydicom/data/test_files/CT_small.dcm';
const MR_SMALL = '/usr/lib/python3/dist-packages/pydicom/data/test_files/MR_small.dcm';

/** A decoded slice saved as a NIfTI of 16-bit integers, as dcm2niix converts it (no modality in the file), and read back. */
async function asNifti(v: ImageVolume, change?: (x: number) => number): Promise<ImageVolume> {
  return decodeImage(int16NiftiOf(v, { change }), '.nii');
}

const readsAsHu = (values: Float32Array) => readsAsHounsfield(histogram(values));

describe('a NIfTI or NRRD volume of Hounsfield units is judged as CT', () => {
  it.skipIf(!existsSync(CT_SMALL))(
    'passes pydicom’s CT_small as a NIfTI, and finds its noise in HU, not a low SNR',
    async () => {
      const ct = await decodeImage(new Uint8Array(readFileSync(CT_SMALL)), '.dcm');
      const clean = measureQuality(await asNifti(ct));
      expect(clean.family).toBe('CT');
      expect(clean.modality).toBe('CT');
      expect(assessQuality(clean).verdict).toBe('pass');
      const normal = gaussian(seededRandom(3));
      const noisy = assessQuality(measureQuality(await asNifti(ct, (x) => x + 80 * normal())));
      expect(noisy.verdict).toBe('fail');
      expect(noisy.issues.join('\n')).toContain('High image noise');
      expect(noisy.issues.join('\n')).not.toContain('SNR');
      const offset = measureQuality(await asNifti(ct, (x) => x + 250));
      expect(offset.family).toBe('CT');
      expect(assessQuality(offset).issues.join('\n')).toContain('calibration');
    },
  );

  it.skipIf(!existsSync(MR_SMALL))('leaves an MR volume MR: magnitude, a phase map, z-scores', async () => {
    const mr = await decodeImage(new Uint8Array(readFileSync(MR_SMALL)), '.dcm');
    expect(measureQuality(await asNifti(mr)).family).toBe('MR');
    const random = seededRandom(5);
    const phase = Float32Array.from({ length: 65_536 }, () => Math.round(random() * 8191 - 4096));
    expect(readsAsHu(phase)).toBe(false);
    const normal = gaussian(seededRandom(6));
    const zScores = Float32Array.from({ length: 65_536 }, () => normal());
    expect(readsAsHu(zScores)).toBe(false);
  });

  it('needs both air below -500 HU and soft tissue, and a DICOM modality always wins', () => {
    const body = Float32Array.from({ length: 10_000 }, (_, i) => (i < 3_000 ? -1000 : 40 + (i % 50)));
    expect(readsAsHu(body)).toBe(true);
    expect(readsAsHu(body.map((x) => (x < 0 ? 0 : x)))).toBe(false);
    expect(readsAsHu(body.map((x) => (x < 0 ? x : 900)))).toBe(false);
    const h = histogram(body);
    const volume = { width: 100, height: 100, depth: 1, channels: 1, format: 'nii', data: body } as ImageVolume;
    expect(modalityFamily(volume, h)).toBe('CT');
    expect(modalityFamily({ ...volume, format: 'nrrd' }, h)).toBe('CT');
    expect(modalityFamily({ ...volume, modality: 'MR' }, h)).toBe('MR');
    expect(modalityFamily(volume)).toBe('MR');
  });
});
