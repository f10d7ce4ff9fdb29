import { z } from './zod.ts';
import { qcVerdict } from './qc.ts';

/** Most images one batch check takes. */
export const BATCH_MAX_IMAGES = 10_000;

/** Text the database can store: no NUL character and no unpaired surrogate. */
const storableText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !s.includes('\u0000') && s.isWellFormed(), 'must not contain NUL or unpaired surrogates');

/** Body of POST /qc/batches: which of the caller's images to check. */
export const qcBatchRequest = z
  .discriminatedUnion('scope', [
    z.object({
      scope: z.literal('selection').describe('The images named'),
      stored_filenames: z
        .array(storableText(300))
        .min(1)
        .max(BATCH_MAX_IMAGES)
        .describe('stored_filename of each image; an unknown or foreign one answers 404'),
    }),
    z.object({
      scope: z.literal('search').describe('Every image whose name contains the query'),
      query: storableText(200)
        .transform((s) => s.trim())
        .pipe(z.string().min(1, 'must not be empty'))
        .describe('Case-insensitive text looked for in the original name (as the My Images search)'),
    }),
    z.object({ scope: z.literal('library').describe('Every image of the caller') }),
  ])
  .describe('Which images the batch checks');
export type QcBatchRequest = z.infer<typeof qcBatchRequest>;

/** Where a batch check stands. */
export const qcBatchStatus = z.enum(['queued', 'running', 'done', 'cancelled']);
export type QcBatchStatus = z.infer<typeof qcBatchStatus>;

/** One batch check with its progress. */
export const qcBatch = z.object({
  id: z.string().describe('Id of the batch'),
  status: qcBatchStatus.describe('queued, running, done or cancelled'),
  scope: z.enum(['selection', 'search', 'library']).describe('How its images were chosen'),
  query: z.string().nullable().describe('The search text, for a search'),
  engine: z
    .string()
    .describe('The engine that checks each image, with its fitted model (lumenqc-builtin-1+qc-model-2.1a2b3c4d)'),
  total: z.number().int().nonnegative().describe('Images in the batch (an image deleted meanwhile leaves it)'),
  checked: z.number().int().nonnegative().describe('Images checked so far, with a stored result'),
  errors: z.number().int().nonnegative().describe('Images that could not be read or measured'),
  pass: z.number().int().nonnegative().describe('Checked images with a Pass verdict'),
  review: z.number().int().nonnegative().describe('Checked images with a Review verdict'),
  fail: z.number().int().nonnegative().describe('Checked images with a Fail verdict'),
  created_at: z.string().describe('ISO 8601'),
  started_at: z.string().nullable().describe('ISO 8601; when checking began'),
  finished_at: z.string().nullable().describe('ISO 8601; when it was done or cancelled'),
});
export type QcBatch = z.infer<typeof qcBatch>;

/** Answer of GET /qc/batches: the caller's batches, newest first. */
export const qcBatchList = z.array(qcBatch);

/** Path parameter naming one batch. */
export const qcBatchParams = z.object({ id: z.uuid().describe('Id of a batch of the caller') });

/** Query of GET /qc/batches/{id}/results: a page of results in the batch's order. */
export const qcBatchResultsQuery = z.object({
  offset: z.coerce.number().int().min(0).max(BATCH_MAX_IMAGES).default(0).describe('Results to skip'),
  limit: z.coerce.number().int().min(1).max(1000).default(1000).describe('Results to answer, at most 1000'),
});

/** One image of a batch and, once checked, its result. */
export const qcBatchResult = z.object({
  stored_filename: z.string(),
  name: z.string().describe('Original file name'),
  sha256: z.string().describe('SHA-256 of the stored file, hex'),
  status: z.enum(['pending', 'done', 'error']).describe('pending until checked; error when it could not be'),
  error: z.string().nullable().describe('Why it could not be checked'),
  result_id: z.string().nullable().describe('The stored result, also listed in the image’s own history'),
  model: z.string().nullable().describe('Engine and version that checked it'),
  verdict: qcVerdict.nullable(),
  confidence: z.number().int().nullable(),
  issues: z.array(z.string()).describe('Problems found'),
  metrics: z.record(z.string(), z.unknown()).nullable().describe('Every measurement, as stored with the result'),
  checked_at: z.string().nullable().describe('ISO 8601'),
});
export type QcBatchResult = z.infer<typeof qcBatchResult>;

/** Answer of GET /qc/batches/{id}/results. */
export const qcBatchResults = z.object({
  total: z.number().int().nonnegative().describe('Images in the batch'),
  items: z.array(qcBatchResult),
});
export type QcBatchResults = z.infer<typeof qcBatchResults>;
