import { z } from './zod.ts';
import { qcVerdict } from './qc.ts';

/** The three ratings of an image, as in MRIQC's rating widget. */
export const reviewRating = z
  .enum(['usable', 'questionable', 'unusable'])
  .describe('usable, questionable (sends the image to tier 2) or unusable');
export type ReviewRating = z.infer<typeof reviewRating>;

/** The artefact tags a workspace starts with: MRIQC's rating widget's list. */
export const DEFAULT_ARTEFACT_TAGS = [
  'motion',
  'ghosting',
  'noise',
  'wrap-around',
  'field inhomogeneity',
  'susceptibility',
  'coverage',
  'reconstruction',
  'other',
] as const;

const artefactTag = z
  .string()
  .trim()
  .min(1, 'A tag cannot be blank')
  .max(40, 'A tag is 40 characters at most')
  .regex(/^[^\r\n,]*$/, 'A tag is one line without commas')
  .describe('An artefact tag');

/**
 * Where an image stands in the review. unrated: no tier-1 rating yet; rated: the tier-1 ratings agree on
 * usable or unusable; tier2: a rating is questionable or the raters disagree, so a tier-2 reviewer decides;
 * decided: a tier-2 reviewer's final decision; hidden: blind reads, and the caller has not rated it yet.
 */
export const reviewStatus = z.enum(['unrated', 'rated', 'tier2', 'decided', 'hidden']);
export type ReviewStatus = z.infer<typeof reviewStatus>;

/** Body of PUT /uploads/{stored_filename}/review/rating and POST …/review/decision. */
export const ratingBody = z.object({
  rating: reviewRating,
  tags: z.array(artefactTag).max(20).default([]).describe("Artefact tags from the workspace's list"),
  note: z.string().max(2000, 'The note is 2000 characters at most').default('').describe('Free note'),
});
export type RatingBody = z.input<typeof ratingBody>;

/** One tier-1 rating of an image. */
export const ratingItem = z.object({
  rater_id: z.string().describe('User id of the rater'),
  rater_name: z.string().describe('Display name of the rater'),
  rating: reviewRating,
  tags: z.array(z.string()),
  note: z.string(),
  rated_at: z.string().describe('ISO 8601 moment of the last change'),
});
export type RatingItem = z.infer<typeof ratingItem>;

/** The final tier-2 decision on an image. */
export const decisionItem = z.object({
  rating: reviewRating,
  tags: z.array(z.string()),
  note: z.string(),
  decided_by: z.string().nullable().describe('User id of the tier-2 reviewer; null once their account is gone'),
  decided_by_name: z.string().describe('Their display name'),
  decided_at: z.string().describe('ISO 8601 moment of the decision'),
});
export type DecisionItem = z.infer<typeof decisionItem>;

/** The decision shown on cards: the tier-2 one, else the tier-1 raters' common rating. */
export const latestDecision = z.object({
  rating: reviewRating,
  tier: z.union([z.literal(1), z.literal(2)]).describe('1: tier-1 raters agree; 2: final tier-2 decision'),
});
export type LatestDecision = z.infer<typeof latestDecision>;

/** Answer of GET /uploads/{stored_filename}/review: what the caller may see of the image's review. */
export const imageReview = z.object({
  stored_filename: z.string(),
  status: reviewStatus,
  escalation: z
    .enum(['questionable', 'disagreement'])
    .nullable()
    .describe('Why the image went to tier 2, when it did (and the caller may see it)'),
  latest: latestDecision.nullable(),
  my_rating: ratingItem.nullable().describe("The caller's own tier-1 rating"),
  ratings: z.array(ratingItem).describe("Every tier-1 rating the caller may see, the caller's included"),
  hidden_ratings: z.number().int().nonnegative().describe('Ratings of others withheld by blind reads'),
  decision: decisionItem.nullable(),
  assignees: z.array(z.string()).describe('User ids the image is assigned to'),
  can_rate: z.boolean().describe('The caller may give or change a tier-1 rating now'),
  can_decide: z.boolean().describe('The caller is a tier-2 reviewer and the image awaits tier 2'),
});
export type ImageReview = z.infer<typeof imageReview>;

/** The review settings of a workspace. */
export const reviewSettings = z.object({
  blind: z.boolean().describe("Blind double reads: a rater sees others' ratings only after rating the image"),
  artefact_tags: z.array(z.string()).describe('Tags raters choose from'),
  tier2_user_ids: z.array(z.string()).describe('Members who decide images sent to tier 2'),
});
export type ReviewSettings = z.infer<typeof reviewSettings>;

/** Body of PATCH /reviews/settings (admins): fields left out keep their value. */
export const reviewSettingsUpdate = z
  .object({
    blind: z.boolean().optional(),
    artefact_tags: z
      .array(artefactTag)
      .min(1, 'Keep at least one tag')
      .max(40)
      .refine((tags) => new Set(tags).size === tags.length, 'Each tag once')
      .optional(),
    tier2_user_ids: z.array(z.string().max(100)).max(200).optional().describe('The full list of tier-2 reviewers'),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'Send at least one setting');

/** The filters of the review queue. */
export const queueFilter = z
  .enum(['all', 'unrated', 'flagged', 'disagreement', 'tier2', 'assigned'])
  .describe(
    'unrated: not yet rated by the caller (and not decided); flagged: the QC engine said Review or Fail; disagreement: tier-1 raters differ; tier2: awaiting a tier-2 decision; assigned: assigned to the caller',
  );
export type QueueFilter = z.infer<typeof queueFilter>;

/** Query of GET /reviews/queue. */
export const queueQuery = z.object({
  filter: queueFilter.default('unrated'),
  limit: z.coerce.number().int().min(1).max(500).default(200),
  after: z.string().max(300).optional().describe('The stored_filename after which the page starts'),
});

/** One image of the review queue, oldest upload first. */
export const queueItem = z.object({
  stored_filename: z.string(),
  original_name_guess: z.string(),
  extension: z.string(),
  url: z.string(),
  modified: z.number().int().describe('Upload time, epoch seconds'),
  status: reviewStatus,
  latest: latestDecision.nullable(),
  my_rating: reviewRating.nullable(),
  qc_verdict: qcVerdict.nullable().describe("The QC engine's latest verdict"),
  assigned_to_me: z.boolean(),
});
export type QueueItem = z.infer<typeof queueItem>;

/** Answer of GET /reviews/queue. */
export const queuePage = z.object({
  items: z.array(queueItem),
  total: z.number().int().nonnegative().describe('Images matching the filter'),
  next: z.string().nullable().describe('`after` of the next page, null on the last'),
});
export type QueuePage = z.infer<typeof queuePage>;

/** Answer of GET /reviews/latest: the latest decision of each image that has one the caller may see. */
export const latestList = z.array(
  z.object({ stored_filename: z.string(), status: reviewStatus, latest: latestDecision }),
);
export type LatestList = z.infer<typeof latestList>;

/** Body of PUT /uploads/{stored_filename}/review/assignees (admins). */
export const assigneesBody = z.object({
  user_ids: z.array(z.string().max(100)).max(50).describe('The full list of members the image is assigned to'),
});

const kappaValue = z.number().nullable().describe('null when undefined (no shared image, or one category only)');

/** Answer of GET /reviews/agreement. */
export const agreementReport = z.object({
  raters: z.array(z.object({ user_id: z.string(), name: z.string(), ratings: z.number().int() })),
  pairs: z.array(
    z.object({
      rater_a: z.string(),
      rater_b: z.string(),
      n: z.number().int().describe('Images both rated'),
      observed: z.number().describe('Share rated alike'),
      kappa: kappaValue.describe("Cohen's kappa"),
    }),
  ),
  workspace: z.object({
    units: z.number().int().describe('Images rated by at least two raters'),
    values: z.number().int().describe('Ratings of those images'),
    alpha: kappaValue.describe("Krippendorff's alpha (nominal)"),
  }),
  engine: z.object({
    n: z.number().int().describe('Images with both an engine verdict and a human decision'),
    observed: z.number(),
    kappa: kappaValue.describe("Cohen's kappa of pass/review/fail against usable/questionable/unusable"),
  }),
});
export type AgreementReport = z.infer<typeof agreementReport>;
