import { z } from './zod.ts';

/** Answer of GET /api/v1/health. */
export const healthResponse = z.object({ status: z.literal('ok').describe('Database and storage both answer') });
