import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { WORKSPACE_HEADER, type WorkspaceItem } from '../../../contract/workspaces.ts';
import { unauthorized } from '../../http-errors.ts';
import { createSessionMembershipReader } from './session-membership.ts';
import { roleAllows, type WorkspaceAction } from './workspace-roles.ts';
import { roleForbids, workspaceNotFound } from './workspaces.errors.ts';
import { bearerToken } from '../auth/auth.guard.ts';
import { createWorkspacesRepository, type Membership, type WorkspacesRepository } from './workspaces.repository.ts';

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
    /**
     * The caller's workspaces (the personal one first, then teams by name), read with their session in one
     * statement: 401 without a live session. Sets request.user. For GET /workspaces, in place of app.authenticate.
     */
    callerWorkspaces: (request: FastifyRequest) => Promise<WorkspaceItem[]>;
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

/** The workspace guard: session, membership and role are read from the database on every request, never cached. */
export default fp(async function workspaceGuard(app: FastifyInstance) {
  app.decorate('workspaces', createWorkspacesRepository({ db: app.db }));
  app.decorateRequest('membership', undefined);
  const reader = createSessionMembershipReader({ db: app.db });
  app.decorate('inWorkspace', (action: WorkspaceAction, source: WorkspaceSource = 'header') => {
    return async (request: FastifyRequest) => {
      // The same checks as app.authenticate and then app.workspaces.resolve, with the session and the
      // membership read in one statement instead of two.
      const token = bearerToken(request);
      if (!token) throw unauthorized();
      const now = app.clock();
      const workspaceId = workspaceIdOf(request, source);
      const read = await reader.read(token, workspaceId, now);
      const user = await app.sessions.accept(read?.session, now);
      if (!user) throw unauthorized();
      request.user = user;
      // A user signed in before their personal workspace was made gets it now (once).
      const membership =
        read!.membership ?? (workspaceId === undefined ? await app.workspaces.resolve(user.id, undefined) : undefined);
      if (!membership) throw workspaceNotFound();
      if (!roleAllows(membership.role, action)) throw roleForbids();
      request.membership = membership;
    };
  });
  app.decorate('callerWorkspaces', async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) throw unauthorized();
    const now = app.clock();
    const read = await reader.workspacesOf(token, now);
    const user = await app.sessions.accept(read?.session, now);
    if (!user) throw unauthorized();
    request.user = user;
    // Read first: making the personal workspace is a write transaction, needed once per user, not per read.
    if (read!.items.some((item) => item.personal)) return read!.items;
    return app.workspaces.listForUser(user.id);
  });
});

/** The caller's membership in a route guarded by `app.inWorkspace`. */
export function currentMembership(request: FastifyRequest): Membership {
  if (!request.membership) throw workspaceNotFound();
  return request.membership;
}
