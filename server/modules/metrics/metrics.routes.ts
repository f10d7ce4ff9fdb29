import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../contract/errors.ts';
import { activityResponse, metricsResponse } from '../../../contract/metrics.ts';
import { currentUser } from '../../plugins/auth-guard.ts';
import { createMetricsRepository } from './metrics.repository.ts';

/** GET /dashboard/metrics and GET /dashboard/activity: the signed-in user's Overview. */
export default async function metricsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const repo = createMetricsRepository({ db: app.db });

  app.get(
    '/dashboard/metrics',
    { preHandler: app.authenticate, schema: { response: { 200: metricsResponse, 401: errorResponse } } },
    async (request) => repo.forOwner(currentUser(request).id),
  );

  app.get(
    '/dashboard/activity',
    { preHandler: app.authenticate, schema: { response: { 200: activityResponse, 401: errorResponse } } },
    async (request) => repo.recentActivity(currentUser(request).id),
  );
}
