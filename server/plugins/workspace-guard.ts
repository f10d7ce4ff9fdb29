import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { WORKSPACE_HEADER } from '../../contract/workspaces.ts';
import { roleAllows, type WorkspaceAction } from '../modules/workspaces/workspace-roles.ts';
import { roleForbids, workspaceNotFound } from '../modules/workspaces/workspaces.errors.ts';
import {
  createWorkspacesRepository,
  type Membership,
  type WorkspacesRepository,
} from '../modules/workspaces/workspaces.repository.ts';

/** Where a route finds the workspace it acts in. */
type WorkspaceSource = 'header' | 'path';

declare module 'fastify' {
  interface FastifyInstance {
    workspaces: WorkspacesRepository;
    /**
     * preHandler: 401 without a live session, 404 unless the caller is a member of the workspace (named by
     * the x-workspace-id header, or the path's workspaceId; the personal one when the header is absent),
     * 403 when their role does not allow `action`. Sets request.membership.
     */
    inWorkspace: (action: WorkspaceAction, source?: WorkspaceSource) => (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    membership: Membership | undefined;
  }
}

function workspaceIdOf(request: FastifyRequest, source: WorkspaceSource): string | undefined {
  if (source === 'path') return (request.params as { workspaceId: string }).workspaceId;
  const header = request.headers[WORKSPACE_HEADER];
  // Sent twice, the header names no one workspace: treated like an unknown one.
  if (Array.isArray(header)) return '';
  return header;
}

/** The workspace guard: membership and role are read from the database on every request, never cached. */
export default fp(async function workspaceGuard(app: FastifyInstance) {
  app.decorate('workspaces', createWorkspacesRepository({ db: app.db }));
  app.decorateRequest('membership', undefined);
  app.decorate('inWorkspace', (action: WorkspaceAction, source: WorkspaceSource = 'header') => {
    return async (request: FastifyRequest) => {
      await app.authenticate(request);
      const membership = await app.workspaces.resolve(request.user!.id, workspaceIdOf(request, source));
      if (!membership) throw workspaceNotFound();
      if (!roleAllows(membership.role, action)) throw roleForbids();
      request.membership = membership;
    };
  });
});

/** The caller's membership in a route guarded by `app.inWorkspace`. */
export function currentMembership(request: FastifyRequest): Membership {
  if (!request.membership) throw workspaceNotFound();
  return request.membership;
}
