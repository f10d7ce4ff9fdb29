import type { QualityMetricsDto } from '../../contract/imaging.ts';
import type { QcVerdict } from '../../contract/qc.ts';

/** The analysis models of the Analysis page (SPEC §2) and the measurements each one reports. */
export const ANALYSIS_MODELS = ['Artifact Detection v1.2', 'SNR & CNR Measurement', 'Motion Blur Assessment'] as const;
export type AnalysisModel = (typeof ANALYSIS_MODELS)[number];

/** One column of the results table: a heading and how to read and format it from the metrics. */
export interface MetricColumn {
  label: string;
  value: (m: QualityMetricsDto) => number;
  format: (v: number) => string;
}

const percent = (v: number) => `${(v * 100).toFixed(1)}%`;
const fixed = (digits: number) => (v: number) => v.toFixed(digits);

/** Columns per model: artefacts (ghosting, clipping, EFC), noise (SNR, CNR, sigma), blur (sharpness, ghosting, EFC). */
export const MODEL_COLUMNS: Record<AnalysisModel, MetricColumn[]> = {
  'Artifact Detection v1.2': [
    { label: 'Ghosting', value: (m) => m.ghostRatio, format: percent },
    { label: 'Clipped', value: (m) => m.clippedFraction, format: (v) => `${(v * 100).toFixed(2)}%` },
    { label: 'EFC', value: (m) => m.efc, format: fixed(3) },
  ],
  'SNR & CNR Measurement': [
    { label: 'SNR', value: (m) => m.snr, format: fixed(1) },
    { label: 'CNR', value: (m) => m.cnr, format: fixed(1) },
    { label: 'Noise σ', value: (m) => m.noiseSigma, format: (v) => v.toPrecision(3) },
  ],
  'Motion Blur Assessment': [
    { label: 'Sharpness', value: (m) => m.sharpness, format: fixed(2) },
    { label: 'Ghosting', value: (m) => m.ghostRatio, format: percent },
    { label: 'FBER', value: (m) => m.fber, format: (v) => (v >= 1000 ? v.toExponential(1) : v.toFixed(1)) },
  ],
};

/** The label a verdict is shown with. */
export const VERDICT_LABEL: Record<QcVerdict, string> = { pass: 'Pass', review: 'Review', fail: 'Fail' };

/**
 * The run button's label, saying how many images there really are (at most five).
 * @example runLabel(12) // 'Run Analysis on 5 Images' (the SPEC's label, with five or more)
 * @example runLabel(2) // 'Run Analysis on 2 Images'
 */
export function runLabel(available: number): string {
  const n = Math.min(5, available);
  return `Run Analysis on ${n} Image${n === 1 ? '' : 's'}`;
}

/** One analysed image as a results row. */
export interface AnalysisRow {
  name: string;
  storedFilename: string;
  verdict?: QcVerdict;
  confidence?: number;
  metrics?: QualityMetricsDto;
  issues: string[];
  error?: string;
}

function csvCell(value: string): string {
  // A text cell starting like a formula would run in a spreadsheet; numbers such as -1.5 are left alone.
  const safe = /^[=+\-@]/.test(value) && Number.isNaN(Number(value)) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * The results as CSV (RFC 4180; cells that a spreadsheet would run as formulas are neutralised).
 * @example analysisCsv('SNR & CNR Measurement', []) // 'Image,Verdict,Confidence,SNR,CNR,Noise σ,Issues\r\n'
 */
export function analysisCsv(model: AnalysisModel, rows: AnalysisRow[]): string {
  const columns = MODEL_COLUMNS[model];
  const head = ['Image', 'Verdict', 'Confidence', ...columns.map((c) => c.label), 'Issues'];
  const lines = rows.map((row) => [
    row.name,
    row.verdict ? VERDICT_LABEL[row.verdict] : 'Error',
    row.confidence === undefined ? '' : String(row.confidence),
    ...columns.map((c) => (row.metrics ? String(Number(c.value(row.metrics).toPrecision(6))) : '')),
    row.error ?? row.issues.join('; '),
  ]);
  return [head, ...lines].map((cells) => cells.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
