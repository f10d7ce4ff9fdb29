import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../contract/errors.ts';
import { workspaceUsage } from '../../../contract/usage.ts';
import { workspaceParams } from '../../../contract/workspaces.ts';
import { currentMembership } from '../workspaces/workspace.guard.ts';

/** `GET /workspaces/{workspaceId}/usage`: what the workspace's images take in storage, and its quota. */
export default async function usageRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/workspaces/:workspaceId/usage',
    {
      preHandler: app.inWorkspace('read', 'path'),
      schema: { params: workspaceParams, response: { 200: workspaceUsage, ...errorResponses(401, 404) } },
    },
    async (request) => {
      const { usedBytes, quotaBytes } = await app.ingest.usage(currentMembership(request).workspaceId);
      return { used_bytes: usedBytes, quota_bytes: quotaBytes, left_bytes: Math.max(0, quotaBytes - usedBytes) };
    },
  );
}
