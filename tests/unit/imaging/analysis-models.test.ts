import { describe, expect, it } from 'vitest';
import type { QualityMetricsDto } from '../../../contract/imaging.ts';
import type { QcBatchResult } from '../../../contract/qc-batch.ts';
import { analysisCsv, csvFileName, familyMeasures, runLabel, SET_COLUMNS } from '../../../src/lib/analysis-models.ts';
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
  it('says how many images a run covers, and nothing when none is chosen', () => {
    expect(runLabel(1200)).toBe('Run Analysis on 1200 Images');
    expect(runLabel(2)).toBe('Run Analysis on 2 Images');
    // The SPEC's button, with five images chosen.
    expect(runLabel(5)).toBe('Run Analysis on 5 Images');
    expect(runLabel(1)).toBe('Run Analysis on 1 Image');
    expect(runLabel(0)).toBe('Run Analysis');
  });

  it('shows each metric set as its own measurements of the one check', () => {
    const m = metrics as unknown as Record<string, unknown>;
    expect(SET_COLUMNS['SNR & CNR Measurement'].map((c) => c.format(c.read(m)!))).toEqual(['42.0', '40.2', '12.3']);
    expect(SET_COLUMNS['Artifact Detection v1.2'].map((c) => c.label)).toEqual([
      'Ghosting',
      'Clipped',
      'EFC',
      'Colour cast',
    ]);
    expect(SET_COLUMNS['Motion Blur Assessment'][0]!.format(metrics.sharpness)).toBe('12.50');
    // A measurement the engine did not make (or that is not a finite number) is left blank.
    expect(SET_COLUMNS['Motion Blur Assessment'][3]!.read(m)).toBeUndefined();
    expect(SET_COLUMNS['SNR & CNR Measurement'][0]!.read({ snr: 'NaN' })).toBeUndefined();
  });

  const row = (fields: Partial<QcBatchResult>): QcBatchResult => ({
    stored_filename: 's.dcm',
    name: 'scan.dcm',
    sha256: 'ab'.repeat(32),
    status: 'done',
    error: null,
    result_id: 'r1',
    model: 'lumenqc-builtin-1',
    verdict: 'pass',
    confidence: 91,
    issues: [],
    metrics: metrics as unknown as Record<string, unknown>,
    checked_at: '2026-11-24T10:00:00.000Z',
    ...fields,
  });

  it('exports CSV with units, engine, date and SHA-256, quoted and without spreadsheet formulas', () => {
    const csv = analysisCsv([
      row({ name: 'a,b "c".dcm' }),
      row({
        name: '=HYPERLINK("x")',
        status: 'error',
        verdict: null,
        confidence: null,
        metrics: null,
        model: null,
        checked_at: null,
        error: 'Not decodable',
      }),
    ]);
    const [head, first, second, end] = csv.split('\r\n');
    const columns = head!.split(',');
    expect(columns.slice(0, 12)).toEqual([
      'file',
      'sha256',
      'stored_filename',
      'status',
      'verdict',
      'confidence (0-100)',
      'engine',
      'checked_at (ISO 8601 UTC)',
      'modality',
      'family',
      'width (px)',
      'height (px)',
    ]);
    expect(columns).toContain('snr (ratio)');
    expect(columns).toContain('noise_sigma (image intensity units; HU for CT)');
    expect(columns.at(-1)).toBe('error');
    const cells = first!.split(',');
    expect(
      first!.startsWith(
        `"a,b ""c"".dcm",${'ab'.repeat(32)},s.dcm,done,Pass,91,lumenqc-builtin-1,2026-11-24T10:00:00.000Z,MR,,64,64,1,`,
      ),
    ).toBe(true);
    expect(cells[columns.indexOf('snr (ratio)') + 1]).toBe('42.04');
    expect(cells[columns.indexOf('clipped_fraction (0-1)') + 1]).toBe('0.0012');
    expect(second).toBe(
      `"'=HYPERLINK(""x"")",${'ab'.repeat(32)},s.dcm,error${','.repeat(columns.length - 4)}Not decodable`,
    );
    // Each per-modality measurement has its own column, headed with its unit.
    expect(columns).toContain('noise_hu (HU)');
    expect(columns).toContain('edge_width (px)');
    expect(columns).toContain('stain_hue_offset (degrees)');
    expect(columns).toContain('clipped (fraction 0-1)');
    const ct = analysisCsv([
      row({
        metrics: {
          ...metrics,
          family: 'CT',
          measures: { noise_hu: 12.3456789, edge_width: 0.8, rings: Number.NaN },
          cohort: { size: 24, z: {}, unusual: ['noise (SD in homogeneous tissue) unusual for this cohort (z = 5.1)'] },
        },
      }),
    ]).split('\r\n')[1]!;
    const cell = (heading: string) => ct.split(',')[columns.indexOf(heading)];
    expect(cell('noise_hu (HU)')).toBe('12.3457');
    expect(cell('edge_width (px)')).toBe('0.8');
    expect(cell('rings (HU)')).toBe('');
    expect(ct).toContain('noise (SD in homogeneous tissue) unusual for this cohort (z = 5.1)');
    expect(end).toBe('');
    expect(familyMeasures({ noise_hu: 12.345678, cjv: 0.4, bad: 'x', nan: NaN })).toBe('noise_hu=12.3457; cjv=0.4');
    expect(familyMeasures(undefined)).toBe('');
    expect(csvFileName(new Date('2026-11-24T23:59:00Z'))).toBe('lumenqc-batch-2026-11-24.csv');
  });

  it('asks the server for previews of DICOM, NIfTI, NRRD and TIFF only', () => {
    expect(['.dcm', '.zip', '.nii', '.NII.GZ', '.nrrd', '.tif', '.TIFF'].every(isServerPreviewed)).toBe(true);
    expect(isServerPreviewed('.png')).toBe(false);
    expect(previewPath('a b.nii', 'coronal', 3)).toBe('/uploads/a%20b.nii/preview.png?axis=coronal&slice=3');
  });
});
