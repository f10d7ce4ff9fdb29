import type { QcBatchResult } from '../../contract/qc-batch.ts';
import { MEASURE_LABELS } from '../../contract/qc-measures.ts';
import type { QcVerdict } from '../../contract/qc.ts';

/**
 * The metric sets of the Analysis page (SPEC §2 names them as models). They are honest views of one engine:
 * every image is checked once, with every measurement and one verdict; a set chooses the columns shown.
 */
export const METRIC_SETS = ['Artifact Detection v1.2', 'SNR & CNR Measurement', 'Motion Blur Assessment'] as const;
export type MetricSet = (typeof METRIC_SETS)[number];

/** One measurement: where it is in a stored result's metrics, its unit, and how the table shows it. */
export interface MetricColumn {
  label: string;
  /** Column heading of the CSV, with the unit. */
  csv: string;
  read: (m: Record<string, unknown>) => number | undefined;
  format: (v: number) => string;
}

const numberAt =
  (...path: string[]) =>
  (m: Record<string, unknown>): number | undefined => {
    let value: unknown = m;
    for (const key of path) value = (value as Record<string, unknown> | undefined)?.[key];
    return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  };
const percent = (digits: number) => (v: number) => `${(v * 100).toFixed(digits)}%`;
const fixed = (digits: number) => (v: number) => v.toFixed(digits);
const large = (v: number) => (v >= 1000 ? v.toExponential(1) : v.toFixed(1));

const COLUMNS = {
  snr: { label: 'SNR', csv: 'snr (ratio)', read: numberAt('snr'), format: fixed(1) },
  cnr: { label: 'CNR', csv: 'cnr (ratio)', read: numberAt('cnr'), format: fixed(1) },
  noise: {
    label: 'Noise σ',
    csv: 'noise_sigma (image intensity units; HU for CT)',
    read: numberAt('noiseSigma'),
    format: (v: number) => v.toPrecision(3),
  },
  efc: { label: 'EFC', csv: 'efc (0-1)', read: numberAt('efc'), format: fixed(3) },
  fber: { label: 'FBER', csv: 'fber (ratio)', read: numberAt('fber'), format: large },
  sharpness: {
    label: 'Sharpness',
    csv: 'sharpness (Laplacian variance x1000; arbitrary units)',
    read: numberAt('sharpness'),
    format: fixed(2),
  },
  clipped: { label: 'Clipped', csv: 'clipped_fraction (0-1)', read: numberAt('clippedFraction'), format: percent(2) },
  ghosting: { label: 'Ghosting', csv: 'ghost_ratio (0-1)', read: numberAt('ghostRatio'), format: percent(1) },
  range: {
    label: 'Range used',
    csv: 'dynamic_range_used (0-1)',
    read: numberAt('dynamicRangeUsed'),
    format: percent(1),
  },
  foreground: {
    label: 'Foreground',
    csv: 'foreground_fraction (0-1)',
    read: numberAt('foregroundFraction'),
    format: percent(1),
  },
  focus: {
    label: 'Tissue focus',
    csv: 'tissue_focus (Laplacian variance x1000; arbitrary units)',
    read: numberAt('colour', 'focus'),
    format: fixed(2),
  },
  coverage: {
    label: 'Tissue coverage',
    csv: 'tissue_coverage (0-1)',
    read: numberAt('colour', 'tissueCoverage'),
    format: percent(0),
  },
  cast: { label: 'Colour cast', csv: 'colour_cast (0-1)', read: numberAt('colour', 'colourCast'), format: percent(1) },
} satisfies Record<string, MetricColumn>;

/** The columns each metric set shows: artefacts, noise, blur. */
export const SET_COLUMNS: Record<MetricSet, MetricColumn[]> = {
  'Artifact Detection v1.2': [COLUMNS.ghosting, COLUMNS.clipped, COLUMNS.efc, COLUMNS.cast],
  'SNR & CNR Measurement': [COLUMNS.snr, COLUMNS.cnr, COLUMNS.noise],
  'Motion Blur Assessment': [COLUMNS.sharpness, COLUMNS.ghosting, COLUMNS.fber, COLUMNS.focus],
};

/** The label a verdict is shown with. */
export const VERDICT_LABEL: Record<QcVerdict, string> = { pass: 'Pass', review: 'Review', fail: 'Fail' };

/**
 * The run button's label for the images chosen.
 * @example runLabel(5) // 'Run Analysis on 5 Images' (the SPEC's button, five images chosen)
 * @example runLabel(0) // 'Run Analysis'
 */
export function runLabel(chosen: number): string {
  if (chosen === 0) return 'Run Analysis';
  return `Run Analysis on ${chosen} Image${chosen === 1 ? '' : 's'}`;
}

function csvCell(value: string): string {
  // A text cell starting like a formula would run in a spreadsheet; numbers such as -1.5 are left alone.
  const safe = /^[=+\-@\t\r]/.test(value) && Number.isNaN(Number(value)) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * The engine's per-modality measurements (CT noise in HU, MR CJV…) as one cell, when the result has them.
 * @example familyMeasures({ noise_hu: 12.34, cnr: 3 }) // 'noise_hu=12.34; cnr=3'
 */
export function familyMeasures(measures: unknown): string {
  if (!measures || typeof measures !== 'object') return '';
  return Object.entries(measures as Record<string, unknown>)
    .filter((entry): entry is [string, number] => typeof entry[1] === 'number' && Number.isFinite(entry[1]))
    .map(([name, value]) => `${name}=${Number(value.toPrecision(6))}`)
    .join('; ');
}

/** The cohort's "unusual for this cohort" sentences of a stored result, when it was compared with one. */
function cohortUnusual(cohort: unknown): string {
  const unusual = (cohort as { unusual?: unknown } | undefined)?.unusual;
  return Array.isArray(unusual) ? unusual.filter((u) => typeof u === 'string').join('; ') : '';
}

/** Every column of the export: identity of the file, the verdict, the engine and date, then every measurement. */
const CSV_METRICS = Object.values(COLUMNS);
/** The engine's per-modality measurements, a column each with its unit; blank where the family has none. */
const MEASURE_KEYS = Object.keys(MEASURE_LABELS);
const CSV_HEAD = [
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
  'slices',
  ...CSV_METRICS.map((c) => c.csv),
  ...MEASURE_KEYS.map((key) => `${key} (${MEASURE_LABELS[key]!.csv})`),
  'cohort_unusual (measurements unusual among the owner’s images of the family)',
  'issues',
  'error',
];

/**
 * The results of a batch as CSV (RFC 4180; formula-like cells neutralised), with units in the headings.
 * @example analysisCsv([]) // 'file,sha256,stored_filename,status,verdict,…\r\n'
 */
export function analysisCsv(rows: readonly QcBatchResult[]): string {
  const lines = rows.map((row) => {
    const m = row.metrics ?? {};
    const dims = Array.isArray(m.dimensions) ? (m.dimensions as unknown[]) : [];
    return [
      row.name,
      row.sha256,
      row.stored_filename,
      row.status,
      row.verdict ? VERDICT_LABEL[row.verdict] : '',
      row.confidence === null ? '' : String(row.confidence),
      row.model ?? '',
      row.checked_at ?? '',
      typeof m.modality === 'string' ? m.modality : '',
      typeof m.family === 'string' ? m.family : '',
      ...[0, 1, 2].map((i) => (typeof dims[i] === 'number' ? String(dims[i]) : '')),
      ...CSV_METRICS.map((c) => {
        const v = c.read(m);
        return v === undefined ? '' : String(Number(v.toPrecision(6)));
      }),
      ...MEASURE_KEYS.map((key) => {
        const v = numberAt('measures', key)(m);
        return v === undefined ? '' : String(Number(v.toPrecision(6)));
      }),
      cohortUnusual(m.cohort),
      row.issues.join('; '),
      row.error ?? '',
    ];
  });
  return [CSV_HEAD, ...lines].map((cells) => cells.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/**
 * The export's file name, dated.
 * @example csvFileName(new Date('2026-11-24T12:00:00Z')) // 'lumenqc-batch-2026-11-24.csv'
 */
export function csvFileName(now: Date): string {
  return `lumenqc-batch-${now.toISOString().slice(0, 10)}.csv`;
}
