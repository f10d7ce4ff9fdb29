import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../contract/errors.ts';
import { healthResponse } from '../../../contract/health.ts';

/** How long one successful probe of the database and storage stands for every health request. */
const PROBE_TTL_MS = 1000;

/** GET /health: 200 once the database answers and the storage accepts a write, 503 otherwise. */
export default async function healthRoutes(app: FastifyInstance): Promise<void> {
  let healthyUntil = 0;
  let inFlight: Promise<void> | undefined;
  // Load balancers poll this route hard: one shared probe per second keeps it cheap under load, and a
  // fresh success is answered without waiting on anything.
  const probe = () => {
    inFlight ??= Promise.all([app.db.execute(sql`select 1`), app.storage.check()])
      .then(() => {
        healthyUntil = Date.now() + PROBE_TTL_MS;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };

  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/health', { schema: { response: { 200: healthResponse, 503: errorResponse } } }, (request, reply) => {
      if (Date.now() < healthyUntil) {
        reply.send({ status: 'ok' });
        return;
      }
      void probe().then(
        () => reply.send({ status: 'ok' }),
        (error: unknown) => {
          request.log.error({ err: error }, 'health check failed');
          reply.code(503).send({ detail: 'Service unavailable' });
        },
      );
    });
}
