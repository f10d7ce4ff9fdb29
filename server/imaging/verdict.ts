import { clamp } from './metrics/finite.ts';
import type { QualityMetrics } from './metrics/quality-metrics.ts';

/** The outcome of a check. */
export type Verdict = 'pass' | 'review' | 'fail';

/** A verdict with its reasons, ready to be written up. */
export interface QualityAssessment {
  verdict: Verdict;
  /** 0–100: how sure the engine is of the verdict (low near a threshold or with a shaky noise estimate). */
  confidence: number;
  issues: string[];
  fixes: string[];
}

interface Limits {
  snr: [fail: number, review: number];
  ghost: [review: number, fail: number];
  clipped: [review: number, fail: number];
  sharpness: [fail: number, review: number];
}

/** Per-modality limits; radiography and ultrasound are judged on lower SNR than tomography. */
const limits: Record<string, Limits> = {
  MR: { snr: [5, 12], ghost: [0.03, 0.08], clipped: [0.005, 0.05], sharpness: [0.5, 3] },
  CT: { snr: [4, 10], ghost: [0.05, 0.12], clipped: [0.01, 0.05], sharpness: [0.5, 3] },
  PT: { snr: [3, 6], ghost: [0.05, 0.15], clipped: [0.01, 0.05], sharpness: [0.05, 0.3] },
  NM: { snr: [3, 6], ghost: [0.05, 0.15], clipped: [0.01, 0.05], sharpness: [0.05, 0.3] },
  US: { snr: [2, 5], ghost: [0.1, 0.2], clipped: [0.02, 0.08], sharpness: [0.3, 2] },
  CR: { snr: [4, 10], ghost: [0.05, 0.12], clipped: [0.01, 0.05], sharpness: [0.5, 3] },
  OT: { snr: [4, 10], ghost: [0.05, 0.12], clipped: [0.01, 0.05], sharpness: [0.5, 3] },
};
const aliases: Record<string, string> = { DX: 'CR', XA: 'CR', RF: 'CR', MG: 'CR', ST: 'NM', SPECT: 'NM', PET: 'PT' };

/** The limits used for a modality code. */
export function limitsFor(modality: string): Limits {
  return limits[aliases[modality] ?? modality] ?? limits.OT!;
}

const round = (v: number, digits = 1) => Number(v.toFixed(digits));

/**
 * Turns measurements into a verdict, the issues found and what to do about them.
 * @example assessQuality(measureQuality(volume)).verdict // 'pass'
 */
export function assessQuality(m: QualityMetrics): QualityAssessment {
  if (m.colour) return assessHistology(m);
  const l = limitsFor(m.modality);
  const issues: string[] = [];
  const fixes: string[] = [];
  let worst: Verdict = 'pass';
  const margins: number[] = [];
  const flag = (level: Verdict, issue: string, fix: string) => {
    issues.push(issue);
    fixes.push(fix);
    if (level === 'fail' || worst === 'pass') worst = level;
  };
  // Closeness to the nearest threshold, on a log scale: 0 on a threshold, 1 far from it.
  const margin = (value: number, thresholds: number[]) =>
    margins.push(Math.min(1, ...thresholds.map((t) => Math.abs(Math.log(Math.max(value, 1e-9) / t)) / Math.log(2))));

  margin(m.snr, l.snr);
  if (m.snr < l.snr[1])
    flag(
      m.snr < l.snr[0] ? 'fail' : 'review',
      `Low SNR (${round(m.snr)}; at least ${l.snr[1]} expected for ${m.modality})`,
      'Increase averages or voxel size, or check the receive coil and its connection.',
    );
  margin(m.ghostRatio + 1e-3, l.ghost);
  if (m.ghostRatio > l.ghost[0])
    flag(
      m.ghostRatio > l.ghost[1] ? 'fail' : 'review',
      `Ghosting artefact (ghost-to-signal ${round(m.ghostRatio * 100)}%)`,
      'Immobilise the patient, use motion correction or saturation bands, and check gradient calibration.',
    );
  margin(m.clippedFraction + 1e-4, l.clipped);
  if (m.clippedFraction > l.clipped[0])
    flag(
      m.clippedFraction > l.clipped[1] ? 'fail' : 'review',
      `Clipped intensities (${round(m.clippedFraction * 100)}% of voxels at the extremes)`,
      'Lower the receiver gain or exposure, or export with a wider bit depth.',
    );
  // Blur cannot be told from noise in a noisy image, so it is judged only when SNR is adequate.
  if (m.snr >= l.snr[1]) {
    margin(m.sharpness + 1e-3, l.sharpness);
    if (m.sharpness < l.sharpness[1])
      flag(
        m.sharpness < l.sharpness[0] ? 'fail' : 'review',
        `Blurred image (sharpness ${round(m.sharpness, 2)})`,
        'Repeat with shorter acquisition or breath-hold, check focus and reconstruction kernel.',
      );
  }
  if (m.dimensions[2] === 1 && m.dynamicRangeUsed < 0.2 && m.modality !== 'MR' && m.modality !== 'CT') {
    flag(
      'review',
      `Narrow dynamic range (${round(m.dynamicRangeUsed * 100)}% of the available range used)`,
      'Adjust window or exposure so the signal spans more of the range.',
    );
  }
  const base = m.noiseModel === 'laplacian' ? 75 : 95;
  const confidence = Math.round(clamp(base - 40 * (1 - Math.min(...margins)), 30, 99));
  return { verdict: worst, confidence, issues, fixes };
}

function assessHistology(m: QualityMetrics): QualityAssessment {
  const c = m.colour!;
  const issues: string[] = [];
  const fixes: string[] = [];
  let verdict: Verdict = 'pass';
  const flag = (level: Verdict, issue: string, fix: string) => {
    issues.push(issue);
    fixes.push(fix);
    if (level === 'fail' || verdict === 'pass') verdict = level;
  };
  if (c.focus < 0.2)
    flag(
      c.focus < 0.05 ? 'fail' : 'review',
      `Out of focus (focus ${round(c.focus, 2)})`,
      'Rescan with autofocus on more focus points.',
    );
  if (c.tissueCoverage < 0.1)
    flag(
      c.tissueCoverage < 0.02 ? 'fail' : 'review',
      `Little tissue (${round(c.tissueCoverage * 100)}% of the image)`,
      'Check the scan area covers the section.',
    );
  if (c.colourCast > 0.08)
    flag(
      c.colourCast > 0.2 ? 'fail' : 'review',
      `Colour cast (${round(c.colourCast * 100)}% off neutral)`,
      'Recalibrate the white balance of the scanner.',
    );
  if (m.clippedFraction > 0.05)
    flag('review', `Clipped intensities (${round(m.clippedFraction * 100)}%)`, 'Lower the exposure.');
  return { verdict, confidence: issues.length ? 80 : 90, issues, fixes };
}
