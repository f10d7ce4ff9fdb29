import { z } from './zod.ts';

/** Every error answer of the API. */
export const errorResponse = z.object({ detail: z.string().describe('Human-readable reason, safe to show') });
export type ErrorResponse = z.infer<typeof errorResponse>;

/** The response schemas of a route's error answers: every given status answers `{ detail }`. */
export function errorResponses<Status extends number>(...statuses: Status[]): Record<Status, typeof errorResponse> {
  return Object.fromEntries(statuses.map((status) => [status, errorResponse])) as Record<Status, typeof errorResponse>;
}
