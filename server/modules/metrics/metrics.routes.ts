import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../contract/errors.ts';
import { activityResponse, metricsResponse } from '../../../contract/metrics.ts';
import { currentMembership } from '../workspaces/workspace.guard.ts';

/** GET /dashboard/metrics and GET /dashboard/activity: the Overview of the workspace the request acts in. */
export default async function metricsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const repo = app.repos.metrics;

  app.get(
    '/dashboard/metrics',
    {
      preHandler: app.inWorkspace('read'),
      schema: { response: { 200: metricsResponse, 401: errorResponse, 404: errorResponse } },
    },
    async (request) => repo.forWorkspace(currentMembership(request).workspaceId),
  );

  app.get(
    '/dashboard/activity',
    {
      preHandler: app.inWorkspace('read'),
      schema: { response: { 200: activityResponse, 401: errorResponse, 404: errorResponse } },
    },
    async (request) => repo.recentActivity(currentMembership(request).workspaceId),
  );
}
