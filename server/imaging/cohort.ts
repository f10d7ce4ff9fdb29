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
 * The image's place among earlier images of the same family: a robust z-score per measurement (median and
 * MAD, so a few bad images in the cohort do not hide another), and the measurements that are unusual for
 * this cohort. Undefined below MIN_COHORT comparable images. A measurement on which the whole cohort agrees
 * (MAD 0) is compared against a spread of 1% of its median, so exact repeats are not outliers.
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
    const mad = median(values.map((v) => Math.abs(v - mid))) * 1.4826;
    const spread = mad > 0 ? mad : Math.max(Math.abs(mid) * 0.01, 1e-9);
    const score = Math.max(-99, Math.min(99, (value - mid) / spread));
    z[key] = Number(score.toFixed(2));
    if (Math.abs(score) > UNUSUAL_Z)
      unusual.push(`${MEASURE_LABELS[key]?.label ?? key} unusual for this cohort (z = ${score.toFixed(1)})`);
  }
  return { size: peers.length, z, unusual };
}
