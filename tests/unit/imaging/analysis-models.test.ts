import { describe, expect, it } from 'vitest';
import type { QualityMetricsDto } from '../../../contract/imaging.ts';
import { analysisCsv, MODEL_COLUMNS, runLabel } from '../../../src/lib/analysis-models.ts';
import { isServerPreviewed, previewPath } from '../../../src/lib/volume-preview-types.ts';

const metrics: QualityMetricsDto = {
  modality: 'MR',
  dimensions: [64, 64, 1],
  foregroundFraction: 0.3,
  noiseSigma: 12.345,
  noiseModel: 'rayleigh',
  snr: 42.04,
  cnr: 40.2,
  efc: 0.5612,
  fber: 1234.5,
  sharpness: 12.5,
  clippedFraction: 0.0012,
  dynamicRangeUsed: 0.02,
  ghostRatio: 0.013,
};

describe('Analysis page rules', () => {
  it('says how many images a run really covers, at most five', () => {
    expect(runLabel(12)).toBe('Run Analysis on 5 Images');
    expect(runLabel(2)).toBe('Run Analysis on 2 Images');
    expect(runLabel(1)).toBe('Run Analysis on 1 Image');
  });

  it('maps each model to its own measurements', () => {
    expect(MODEL_COLUMNS['SNR & CNR Measurement'].map((c) => c.format(c.value(metrics)))).toEqual([
      '42.0',
      '40.2',
      '12.3',
    ]);
    expect(MODEL_COLUMNS['Artifact Detection v1.2'].map((c) => c.label)).toEqual(['Ghosting', 'Clipped', 'EFC']);
    expect(MODEL_COLUMNS['Motion Blur Assessment'][0]!.format(metrics.sharpness)).toBe('12.50');
  });

  it('exports CSV with quoting and without spreadsheet formulas', () => {
    const csv = analysisCsv('SNR & CNR Measurement', [
      { name: 'a,b "c".dcm', storedFilename: 'x', verdict: 'pass', confidence: 91, metrics, issues: [] },
      { name: '=HYPERLINK("x")', storedFilename: 'y', issues: [], error: 'Not decodable' },
    ]);
    expect(csv.split('\r\n')).toEqual([
      'Image,Verdict,Confidence,SNR,CNR,Noise σ,Issues',
      '"a,b ""c"".dcm",Pass,91,42.04,40.2,12.345,',
      `"'=HYPERLINK(""x"")",Error,,,,,Not decodable`,
      '',
    ]);
  });

  it('asks the server for previews of DICOM, NIfTI, NRRD and TIFF only', () => {
    expect(['.dcm', '.zip', '.nii', '.NII.GZ', '.nrrd', '.tif', '.TIFF'].every(isServerPreviewed)).toBe(true);
    expect(isServerPreviewed('.png')).toBe(false);
    expect(previewPath('a b.nii', 'coronal', 3)).toBe('/uploads/a%20b.nii/preview.png?axis=coronal&slice=3');
  });
});
