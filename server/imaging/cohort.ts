import type { QualityMetrics } from './metrics/quality-metrics.ts';
import { selectInPlace } from './metrics/image-stats.ts';
import { MEASURE_LABELS } from './qc-detectors.ts';

/** Fewest images of the same family (and protocol, when known) before a cohort is compared against. */
export const MIN_COHORT = 20;
/** |robust z| beyond which a measurement is unusual for its cohort (MRIQC's group reports flag 3.5 MAD). */
export const UNUSUAL_Z = 3.5;

/** Where one image sits among its cohort, measurement by measurement. */
export interface CohortContext {
  /** Images compared against (not counting this one). */
  size: number;
  /** Robust z-score of each measurement: (value − median) / (1.4826 · MAD). */
  z: Record<string, number>;
  /** Sentences for the measurements beyond ±3.5, e.g. "SNR unusual for this cohort (z = -4.2)". */
  unusual: string[];
}

/** The median, by selection in a typed copy (a batch computes a dozen per image, over hundreds of peers). */
function median(values: ArrayLike<number>): number {
  const copy = Float64Array.from(values);
  const n = copy.length;
  const upper = selectInPlace(copy, n >> 1);
  if (n % 2) return upper;
  // The largest of the lower half is the other middle value.
  let lower = -Infinity;
  for (let i = 0; i < n >> 1; i++) if (copy[i]! > lower) lower = copy[i]!;
  return (lower + upper) / 2;
}

/**
 * The spread a z-score divides by: 1.4826 · MAD; where more than half the cohort shares one value (MAD 0, as
 * wrap-around or background structure of clean images often are), 1.2533 · the mean absolute deviation, the
 * usual fallback of the modified z-score. Never below the smallest difference the summary shows for the
 * measurement, nor 1% of the median: a difference nobody can see is not unusual.
 */
function robustSpread(values: number[], mid: number, key: string): number {
  const deviations = values.map((v) => Math.abs(v - mid));
  const mad = median(deviations) * 1.4826;
  const meanDeviation = (deviations.reduce((sum, d) => sum + d, 0) / deviations.length) * 1.2533;
  const label = MEASURE_LABELS[key];
  const shown = label ? 10 ** -label.digits / (label.percent ? 100 : 1) : 0;
  return Math.max(mad > 0 ? mad : meanDeviation, shown, Math.abs(mid) * 0.01, 1e-9);
}

/**
 * The image's place among earlier images of the same family: a robust z-score per measurement (median and
 * MAD, so a few bad images in the cohort do not hide another), and the measurements that are unusual for
 * this cohort. Undefined below MIN_COHORT comparable images.
 */
export function cohortContext(image: QualityMetrics, cohort: QualityMetrics[]): CohortContext | undefined {
  // Where DICOM names the protocol, only images of that protocol compare (a head and a chest CT do not).
  const peers = cohort.filter(
    (m) => m.family === image.family && m.measures && (!image.protocol || m.protocol === image.protocol),
  );
  if (peers.length < MIN_COHORT) return undefined;
  const z: Record<string, number> = {};
  const unusual: string[] = [];
  for (const [key, value] of Object.entries(image.measures)) {
    const values = peers.map((m) => m.measures[key]).filter((v): v is number => Number.isFinite(v));
    if (values.length < MIN_COHORT) continue;
    const mid = median(values);
    const spread = robustSpread(values, mid, key);
    const score = Math.max(-99, Math.min(99, (value - mid) / spread));
    z[key] = Number(score.toFixed(2));
    if (Math.abs(score) > UNUSUAL_Z)
      unusual.push(`${MEASURE_LABELS[key]?.label ?? key} unusual for this cohort (z = ${score.toFixed(1)})`);
  }
  return { size: peers.length, z, unusual };
}
