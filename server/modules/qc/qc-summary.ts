import { createHash } from 'node:crypto';
import type { QcVerdict } from '../../../contract/qc.ts';
import type { CohortContext } from '../../imaging/cohort.ts';
import type { QualityMetrics } from '../../imaging/metrics/quality-metrics.ts';
import { formatMeasure, MEASURE_LABELS } from '../../imaging/qc-detectors.ts';
import { QC_MODEL } from '../../imaging/qc-model.ts';
import type { QualityAssessment } from '../../imaging/verdict.ts';

/**
 * Name of the built-in engine, as stored and answered in `model`, with the fitted model it judges by and a
 * fingerprint of that model's limits (`lumenqc-builtin-1+qc-model-2.1a2b3c4d`): a refit changes the name, so
 * the history, the CSV and the cohort tell results judged by different limits apart.
 */
export const BUILTIN_MODEL = `lumenqc-builtin-1+${QC_MODEL.version}.${createHash('sha256')
  .update(JSON.stringify(QC_MODEL.families))
  .digest('hex')
  .slice(0, 8)}`;
/** Version of the prompt and summary format; stored with each result so old ones can be told apart. */
export const PROMPT_VERSION = 'qc-summary-v1';

const verdictLabel: Record<QcVerdict, string> = { pass: 'Pass', review: 'Review', fail: 'Fail' };

/** The family's measurements in one line, for the upstream prompt. */
export function metricsLine(m: QualityMetrics): string {
  return Object.entries(m.measures)
    .map(([key, value]) => `${MEASURE_LABELS[key]?.label ?? key} ${formatMeasure(key, value)}`)
    .join(', ');
}

/** Each measurement with the range expected of a good image of this modality, so the verdict can be followed. */
export function measurementsLine(a: QualityAssessment): string {
  return a.measures.map((r) => `${r.label} ${r.text}${r.expected ? ` (expected ${r.expected})` : ''}`).join('; ');
}

/**
 * Where the image sits among the caller's comparable images: the measurements unusual for this cohort, or
 * that none is.
 * @example cohortLine({ size: 24, z: { snr: -4.2 }, unusual: ['SNR unusual for this cohort (z = -4.2)'] }, m)
 * // 'Cohort (24 earlier MR images): SNR unusual for this cohort (z = -4.2).'
 */
export function cohortLine(c: CohortContext, m: QualityMetrics): string {
  const of = `${c.size} earlier ${m.family} images${m.protocol ? ` of protocol ${m.protocol}` : ''}`;
  return `Cohort (${of}): ${c.unusual.length ? c.unusual.join('; ') : 'every measurement within the usual range'}.`;
}

/**
 * The built-in engine's short QC summary (SPEC §7): verdict, issues, confidence 0–100 and suggested fixes,
 * with every measurement and its expected range after the issues.
 * @example builtinSummary(metrics, assessment)
 * // 'QC verdict: Pass (MR, 256×256×1).\nIssues: none found.\nMeasurements: SNR (Rician-corrected) 41.2 (expected ≥ 9.3); …\nConfidence: 93/100\nSuggested fixes: none needed.'
 */
export function builtinSummary(m: QualityMetrics, a: QualityAssessment, cohort?: CohortContext): string {
  const [w, h, d] = m.dimensions;
  return [
    `QC verdict: ${verdictLabel[a.verdict]} (${m.modality}, ${w}×${h}×${d}).`,
    a.issues.length ? `Issues: ${a.issues.join('; ')}.` : 'Issues: none found.',
    `Measurements: ${measurementsLine(a)}.`,
    ...(cohort ? [cohortLine(cohort, m)] : []),
    `Confidence: ${a.confidence}/100`,
    a.fixes.length ? `Suggested fixes: ${a.fixes.join(' ')}` : 'Suggested fixes: none needed.',
  ].join('\n');
}

/** An answer in the OpenAI chat-completion shape. */
export function chatCompletion(id: string, model: string, content: string, created: Date) {
  return {
    id: `chatcmpl-${id}`,
    object: 'chat.completion' as const,
    created: Math.floor(created.getTime() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant' as const, content }, finish_reason: 'stop' }],
  };
}

/**
 * The confidence a model wrote ("Confidence: 80", "confidence 80/100", "80% confident"), if any.
 * @example confidenceInText('Confidence: 72/100') // 72
 */
export function confidenceInText(text: string): number | undefined {
  const match =
    /confiden\w*\D{0,12}?(\d{1,3})(?:\s*(?:\/\s*100|%))?/i.exec(text) ?? /(\d{1,3})\s*%\s*confiden/i.exec(text);
  const value = match ? Number(match[1]) : NaN;
  return value >= 0 && value <= 100 ? value : undefined;
}
