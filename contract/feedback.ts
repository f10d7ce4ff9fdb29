import { z } from './zod.ts';

/** Body of POST /api/v1/feedback: the "Was this helpful?" answer of one guide section. */
export const feedbackRequest = z.object({
  page: z
    .string()
    .min(1)
    .max(200)
    .regex(/^\/[\w\-/]*$/, 'page must be a site path')
    .describe('Path of the page, such as /user-guide'),
  section: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[a-z0-9-]+$/, 'section must be a section id')
    .describe('Id of the section answered, such as troubleshooting'),
  helpful: z.boolean().describe('Yes (true) or No (false)'),
});
export type FeedbackRequest = z.infer<typeof feedbackRequest>;

/** Answer of POST /api/v1/feedback. */
export const feedbackResponse = z.object({
  status: z.literal('recorded').describe('The answer was stored'),
});
