import { clamp, finiteOr } from './metrics/finite.ts';
import type { QualityMetrics } from './metrics/quality-metrics.ts';
import { type ConfidenceStep, DETECTORS, formatMeasure, judges, MEASURE_LABELS, type QcModel } from './qc-detectors.ts';
import { QC_MODEL } from './qc-model.ts';

/** The outcome of a check. */
export type Verdict = 'pass' | 'review' | 'fail';

/** One measurement as reported: its value, the range expected of a good image, and how it fared. */
export interface MeasureReport {
  key: string;
  label: string;
  value: number;
  /** The value as written, with its unit. */
  text: string;
  /** The range a good image of this modality falls in ('≤ 18.0 HU'), when the measurement is checked. */
  expected?: string;
  status: 'ok' | Exclude<Verdict, 'pass'> | 'info';
}

/** A verdict with its reasons, ready to be written up. */
export interface QualityAssessment {
  verdict: Verdict;
  /** 0–100: the calibrated probability, in percent, that the verdict (pass, or flagged) is right. */
  confidence: number;
  issues: string[];
  fixes: string[];
  /** Every measurement of the image's family with its expected range. */
  measures: MeasureReport[];
}

/** Limits are on the oriented scale: a 'low' detector's measure is negated so that higher is always worse. */
const oriented = (direction: 'high' | 'low', value: number) => (direction === 'high' ? value : -value);

/** The distance past the review limit, in units of the limit's distance from the clean median; capped. */
function score(x: number, review: number, center: number): number {
  return clamp((x - review) / Math.max(1e-9, Math.abs(review - center)), -4, 4);
}

/**
 * The probability that a verdict is right, read from its side's fitted table at its margin (how far the worst
 * score is from the limit); one half when the table is empty or the margin is not a number.
 */
function rightProbability(table: readonly ConfidenceStep[], margin: number): number {
  return table.findLast((step) => step.from <= margin)?.p ?? table[0]?.p ?? 0.5;
}

/**
 * Turns measurements into a verdict: each of the family's detectors compares one measurement with limits
 * fitted on the development corpus (qc-model.ts); the worst decides. The confidence is the calibrated
 * probability that the verdict is right, from how far the worst measurement is past (flagged) or short of
 * (pass) its limit, read from that side's table: a pass is judged on the images the limits passed, a flagged
 * verdict on those they flagged.
 * @example assessQuality(measureQuality(volume)).verdict // 'pass'
 */
export function assessQuality(m: QualityMetrics, model: QcModel = QC_MODEL): QualityAssessment {
  const params = model.families[m.family];
  const issues: string[] = [];
  const fixes: string[] = [];
  const status = new Map<string, MeasureReport['status']>();
  const expected = new Map<string, string[]>();
  let verdict: Verdict = 'pass';
  let worst = -4;
  for (const d of DETECTORS[m.family]) {
    const limits = params.limits[d.id];
    // A detector for part of the family (fluoroscopy, radiographs) leaves the other part's images alone.
    if (!limits || !judges(d, m.modality)) continue;
    const bound = `${d.direction === 'high' ? '≤' : '≥'} ${formatMeasure(d.measure, Math.abs(limits.review))}`;
    expected.set(d.measure, [...(expected.get(d.measure) ?? []), bound]);
    // A measurement the image does not allow (no background to see a ghost in) is passed over, not judged as 0.
    if (m.measures[d.measure] === undefined) continue;
    const value = finiteOr(m.measures[d.measure]!);
    const x = oriented(d.direction, value);
    worst = Math.max(worst, score(x, limits.review, limits.center));
    if (x < limits.review) continue;
    const level: Verdict = x >= limits.fail ? 'fail' : 'review';
    if (level === 'fail' || verdict === 'pass') verdict = level;
    status.set(d.measure, level === 'fail' || status.get(d.measure) === 'fail' ? 'fail' : 'review');
    const label = MEASURE_LABELS[d.measure]?.label ?? d.measure;
    issues.push(`${d.issue} (${label} ${formatMeasure(d.measure, value)}; expected ${bound})`);
    fixes.push(d.fix);
  }
  const right = rightProbability(params.confidence[verdict === 'pass' ? 'pass' : 'flagged'], Math.abs(worst));
  const measures: MeasureReport[] = Object.entries(m.measures).map(([key, value]) => ({
    key,
    label: MEASURE_LABELS[key]?.label ?? key,
    value,
    text: formatMeasure(key, value),
    expected: expected.get(key)?.join(' and '),
    status: status.get(key) ?? (expected.has(key) ? 'ok' : 'info'),
  }));
  // Checked measurements this image could not give are said so, with what a good image gives.
  for (const [key, bounds] of expected)
    if (m.measures[key] === undefined)
      measures.push({
        key,
        label: MEASURE_LABELS[key]?.label ?? key,
        value: 0,
        text: 'not measurable on this image',
        expected: bounds.join(' and '),
        status: 'info',
      });
  // A blank image is no image, whatever its measurements say (a CT slice of -1024 HU throughout has no noise,
  // calibration error or blur to flag, and its own detectors would pass it): it fails, for that reason alone.
  if (m.uniformValue !== undefined)
    return { verdict: 'fail', confidence: CERTAIN, issues: [blankIssue(m)], fixes: [BLANK_FIX], measures };
  // A series with slices missing, or blank ones inside, is incomplete however good its other slices are.
  const incomplete: [string, string][] = [];
  if (m.missingSlices)
    incomplete.push([
      `Missing slices (${m.missingSlices} missing from the series, by its slice positions)`,
      'Send the series again from the scanner or archive: some of its slices did not arrive.',
    ]);
  if (m.blankSlices)
    incomplete.push([
      `Blank slices (${m.blankSlices} of the ${m.dimensions[2]} hold no image, between slices that do)`,
      'Export or convert the volume again from the original images: some of its slices were filled with one value.',
    ]);
  if (incomplete.length)
    return {
      verdict: 'fail',
      confidence: CERTAIN,
      issues: [...issues, ...incomplete.map(([issue]) => issue)],
      fixes: [...fixes, ...incomplete.map(([, fix]) => fix)],
      measures,
    };
  return {
    verdict,
    confidence: Math.round(clamp(finiteOr(right * 100, 50), 0, 100)),
    issues,
    fixes,
    measures,
  };
}

/**
 * The confidence of a failure that needs no fitted limit (a blank image, slices missing or blank): it is
 * never wrong about what it says, but the check sees sampled voxels only (a pixel off the grid may differ) and
 * reads positions as the file gives them, so it claims no more than the fitted verdicts' best.
 */
const CERTAIN = 99;

const BLANK_FIX =
  'Check the export or the acquisition: the file holds no picture. Send it again from the scanner or archive.';

/** The blank image's issue, with the value every pixel holds (in HU for CT). */
function blankIssue(m: QualityMetrics): string {
  const value = Number(m.uniformValue!.toPrecision(6));
  return `Blank image (every pixel holds ${value}${m.family === 'CT' ? ' HU' : ''})`;
}
