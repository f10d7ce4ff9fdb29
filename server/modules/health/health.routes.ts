import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../contract/errors.ts';
import { healthResponse } from '../../../contract/health.ts';

/** How long one probe of the database and storage stands for every health request. */
const PROBE_TTL_MS = 1000;

/** GET /health: 200 once the database answers and the storage accepts a write, 503 otherwise. */
export default async function healthRoutes(app: FastifyInstance): Promise<void> {
  let probe: { at: number; result: Promise<void> } | undefined;
  // Load balancers poll this route hard; one shared probe per second keeps it cheap under load.
  const probeOnce = () => {
    const now = Date.now();
    if (!probe || now - probe.at > PROBE_TTL_MS) {
      const result = Promise.all([app.db.execute(sql`select 1`), app.storage.check()]).then(() => undefined);
      probe = { at: now, result };
      result.catch(() => {
        probe = undefined;
      });
    }
    return probe.result;
  };

  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/health', { schema: { response: { 200: healthResponse, 503: errorResponse } } }, async (request, reply) => {
      try {
        await probeOnce();
      } catch (error) {
        request.log.error({ err: error }, 'health check failed');
        return reply.code(503).send({ detail: 'Service unavailable' });
      }
      return { status: 'ok' as const };
    });
}
