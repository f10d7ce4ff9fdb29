import { HttpError } from '../../http-errors.ts';
import type { CohortContext } from '../../imaging/cohort.ts';
import { UnmeasurableImageError } from '../../imaging/metrics/finite.ts';
import { unmeasurableReason } from '../../imaging/metrics/modality.ts';
import { measureQuality, type QualityMetrics } from '../../imaging/metrics/quality-metrics.ts';
import type { ImageVolume } from '../../imaging/volume.ts';
import { assessQuality, type QualityAssessment } from '../../imaging/verdict.ts';
import type { qcResults } from './qc.table.ts';
import { BUILTIN_MODEL, builtinSummary, PROMPT_VERSION } from './qc-summary.ts';

/** What the built-in engine says about one image: its measurements and the verdict drawn from them. */
export interface BuiltinCheck {
  metrics: QualityMetrics;
  assessment: QualityAssessment;
}

/** The text a language model wrote in place of the built-in summary, and the confidence it gave. */
export interface ModelAnswer {
  model: string;
  content: string;
  confidence: number;
}

/**
 * Runs the built-in engine on a decoded image: the one entry point for single and batch checks alike.
 * @example checkVolume(volume).assessment.verdict // 'pass'
 */
export function checkVolume(volume: ImageVolume): BuiltinCheck {
  const reason = unmeasurableReason(volume);
  if (reason) throw new HttpError(422, reason);
  let metrics: QualityMetrics;
  try {
    metrics = measureQuality(volume);
  } catch (error) {
    // An image the engine cannot measure is the client's image, not a server fault: 422 with the reason.
    if (error instanceof UnmeasurableImageError) throw new HttpError(422, error.message);
    throw error;
  }
  return { metrics, assessment: assessQuality(metrics) };
}

/**
 * The row a check is stored as, written by the built-in engine unless a model answered instead; the cohort
 * context, when the caller has enough comparable images, is stored and summarised with it.
 */
export function checkRow(
  owner: { uploadId: string; ownerId: string },
  { metrics, assessment }: BuiltinCheck,
  createdAt: Date,
  answer?: ModelAnswer,
  cohort?: CohortContext,
): typeof qcResults.$inferInsert {
  return {
    ...owner,
    model: answer?.model ?? BUILTIN_MODEL,
    promptVersion: PROMPT_VERSION,
    verdict: assessment.verdict,
    confidence: answer?.confidence ?? assessment.confidence,
    text: answer?.content ?? builtinSummary(metrics, assessment, cohort),
    metrics: {
      ...metrics,
      // The engine that measured, whoever wrote the text: a cohort compares only measurements of one engine.
      engine: BUILTIN_MODEL,
      issues: assessment.issues,
      fixes: assessment.fixes,
      measurements: assessment.measures,
      ...(cohort ? { cohort } : {}),
    },
    createdAt,
  };
}
