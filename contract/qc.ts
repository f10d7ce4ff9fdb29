import { z } from './zod.ts';
import { qualityMetrics } from './imaging.ts';

const textPart = z.object({ type: z.literal('text'), text: z.string().max(20_000) });
const imagePart = z.object({
  type: z.literal('image_url'),
  image_url: z.object({ url: z.string().max(2_000).describe("URL of one of the caller's own uploads") }),
});

/** Body of POST /llm/generate-messages: an OpenAI-style chat request about one image (SPEC §7). */
export const generateMessagesRequest = z.object({
  model: z.string().max(200).describe('Vision model asked for; the configured upstream model wins'),
  messages: z
    .array(
      z.object({
        role: z.enum(['system', 'user', 'assistant']),
        content: z.union([z.string().max(20_000), z.array(z.union([textPart, imagePart])).max(20)]),
      }),
    )
    .min(1)
    .max(20)
    .describe('Chat messages; exactly one image_url part, naming an upload of the caller'),
  max_tokens: z.number().int().positive().max(4096).optional(),
  temperature: z.number().min(0).max(2).optional(),
});
export type GenerateMessagesRequest = z.infer<typeof generateMessagesRequest>;

/** The verdicts of a check. */
export const qcVerdict = z.enum(['pass', 'review', 'fail']);
export type QcVerdict = z.infer<typeof qcVerdict>;

/** Where one image sits among earlier images of the same modality family (and protocol), MRIQC-style. */
export const qcCohort = z.object({
  size: z.number().int().describe('Comparable images the image was compared with (20 or more)'),
  z: z.record(z.string(), z.number()).describe('Robust z-score of each measurement: (value − median) / (1.4826 MAD)'),
  unusual: z.array(z.string()).describe('Measurements beyond ±3.5, e.g. "SNR unusual for this cohort (z = -4.2)"'),
});

/** The stored summary of one check. */
export const qcSummary = z.object({
  result_id: z.string().describe('Id of the stored result'),
  stored_filename: z.string().describe('The upload checked'),
  verdict: qcVerdict.describe('Pass, Review or Fail from the per-modality thresholds'),
  confidence: z.number().int().min(0).max(100).describe('Confidence of the verdict, 0–100'),
  issues: z.array(z.string()).describe('Problems found'),
  fixes: z.array(z.string()).describe('Suggested fixes, one per issue'),
  measurements: z
    .array(
      z.object({
        key: z.string(),
        label: z.string(),
        value: z.number(),
        text: z.string().describe('The value with its unit'),
        expected: z.string().optional().describe('Range a good image of this modality falls in'),
        status: z.enum(['ok', 'review', 'fail', 'info']).describe('info: reported, not judged'),
      }),
    )
    .describe('Every measurement of the image with its expected range'),
  metrics: qualityMetrics,
  cohort: qcCohort
    .optional()
    .describe('Where the image sits among the caller’s earlier images of its modality (and protocol); from 20 on'),
});
export type QcSummary = z.infer<typeof qcSummary>;

/** Answer of POST /llm/generate-messages: the chat-completion shape, plus the structured result. */
export const chatCompletionResponse = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number().int().describe('Epoch seconds'),
  model: z.string().describe('Model that wrote the text (lumenqc-builtin-1+<fitted model> for the built-in engine)'),
  choices: z
    .array(
      z.object({
        index: z.number().int(),
        message: z.object({ role: z.literal('assistant'), content: z.string().describe('The short QC summary') }),
        finish_reason: z.string(),
      }),
    )
    .min(1),
  qc: qcSummary,
});
export type ChatCompletionResponse = z.infer<typeof chatCompletionResponse>;

/** One stored check, as listed in an image's history. */
export const qcResultItem = z.object({
  id: z.string(),
  model: z.string(),
  prompt_version: z.string(),
  verdict: qcVerdict,
  confidence: z.number().int(),
  text: z.string(),
  metrics: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string().describe('ISO 8601'),
});
export type QcResultItem = z.infer<typeof qcResultItem>;

/** Answer of GET /uploads/{stored_filename}/qc-results: newest first. */
export const qcResultList = z.array(qcResultItem);
