import { z } from './zod.ts';

/** Every error answer of the API. */
export const errorResponse = z.object({ detail: z.string().describe('Human-readable reason, safe to show') });
export type ErrorResponse = z.infer<typeof errorResponse>;
