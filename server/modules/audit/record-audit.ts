import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Records what a request did in the audit log of the workspace it acts in (from `app.inWorkspace`), as its
 * user, from its address, at the app's clock. `action` is `module.verb` (rating.create…); `detail` names what
 * was acted on and never holds a secret. Rejects when the request passed no workspace guard.
 * @example await recordAudit(app, request, 'rating.create', { stored_filename, rating: 'usable' })
 */
export async function recordAudit(
  app: FastifyInstance,
  request: FastifyRequest,
  action: string,
  detail?: Record<string, unknown>,
): Promise<void> {
  const membership = request.membership;
  if (!membership) throw new Error(`recordAudit(${action}) outside a workspace route`);
  await app.repos.audit.record({
    userId: membership.userId,
    workspaceId: membership.workspaceId,
    action,
    ip: request.ip,
    detail,
    at: app.clock(),
  });
}
