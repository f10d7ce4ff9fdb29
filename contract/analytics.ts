import { z } from './zod.ts';

/** Body of POST /api/v1/analytics/page-views: the path and referrer only, nothing that identifies a person. */
export const pageViewRequest = z.object({
  path: z
    .string()
    .min(1)
    .max(512)
    .regex(/^\/[^\s]*$/, 'path must start with /')
    .describe('Path of the page viewed, without origin'),
  referrer: z.string().max(2048).nullish().describe('The referring URL as the browser gave it; stored without query'),
});
export type PageViewRequest = z.infer<typeof pageViewRequest>;
