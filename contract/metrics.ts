import { z } from './zod.ts';

/** Answer of GET /dashboard/metrics (SPEC §3, Dashboard metrics). */
export const metricsResponse = z.object({
  total_images: z.number().int().nonnegative().describe("Number of the caller's uploads"),
  analyzed_images: z.number().int().nonnegative().describe('Uploads with at least one quality-control result'),
  storage_bytes: z.number().int().nonnegative().describe('Total size of those uploads in bytes'),
});
export type Metrics = z.infer<typeof metricsResponse>;

/** One line of the Overview's Recent Activity. */
export const activityItem = z.object({
  kind: z.enum(['upload', 'qc']).describe('An upload, or a quality-control check of an upload'),
  name: z.string().describe('Original name of the image concerned'),
  stored_filename: z.string().describe('The upload concerned'),
  verdict: z.string().nullable().describe('pass, review or fail for a check; null for an upload'),
  at: z.number().int().describe('When it happened, in epoch seconds'),
});
export type ActivityItem = z.infer<typeof activityItem>;

/** Answer of GET /dashboard/activity: the caller's latest uploads and checks, newest first. */
export const activityResponse = z.array(activityItem).describe('Newest first, at most 10');
