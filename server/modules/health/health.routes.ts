import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../contract/errors.ts';
import { healthResponse } from '../../../contract/health.ts';

/** GET /health: 200 once the database answers and the storage accepts a write, 503 otherwise. */
export default async function healthRoutes(app: FastifyInstance): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/health', { schema: { response: { 200: healthResponse, 503: errorResponse } } }, (request, reply) => {
      if (app.healthProbe.isFresh()) {
        reply.send({ status: 'ok' });
        return;
      }
      void app.healthProbe.run().then(
        () => reply.send({ status: 'ok' }),
        (error: unknown) => {
          request.log.error({ err: error }, 'health check failed');
          reply.code(503).send({ detail: 'Service unavailable' });
        },
      );
    });
}
