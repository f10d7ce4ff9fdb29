import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../../contract/errors.ts';
import {
  memberList,
  memberParams,
  memberUpdate,
  workspaceBody,
  workspaceItem,
  workspaceList,
  workspaceParams,
} from '../../../contract/workspaces.ts';
import { currentUser } from '../auth/auth.guard.ts';
import { currentMembership } from './workspace.guard.ts';
import { roleForbids } from './workspaces.errors.ts';

const errors = errorResponses(400, 401, 403, 404, 409);

/** Workspaces: list and create one's own, rename, and manage members and their roles. */
export default async function workspacesRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const repo = app.workspaces;
  const audit = app.repos.audit;

  app.get(
    '/workspaces',
    // Signed in or 401, as app.authenticate, but with the session read in the same statement as the list.
    { schema: { response: { 200: workspaceList, ...errors } } },
    async (request) => app.callerWorkspaces(request),
  );

  app.post(
    '/workspaces',
    {
      preHandler: app.authenticate,
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: { body: workspaceBody, response: { 201: workspaceItem, ...errors } },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const id = await repo.createTeam(user.id, request.body.name, app.clock());
      await audit.record({ userId: user.id, action: 'workspace.create', ip: request.ip, detail: { workspace_id: id } });
      const created = (await repo.listForUser(user.id)).find((w) => w.id === id)!;
      return reply.code(201).send(created);
    },
  );

  app.patch(
    '/workspaces/:workspaceId',
    {
      preHandler: app.inWorkspace('manage', 'path'),
      schema: { params: workspaceParams, body: workspaceBody, response: { 200: workspaceItem, ...errors } },
    },
    async (request) => {
      const membership = currentMembership(request);
      await repo.rename(membership, request.body.name);
      return (await repo.listForUser(membership.userId)).find((w) => w.id === membership.workspaceId)!;
    },
  );

  app.get(
    '/workspaces/:workspaceId/members',
    {
      preHandler: app.inWorkspace('read', 'path'),
      schema: { params: workspaceParams, response: { 200: memberList, ...errors } },
    },
    async (request) => repo.members(currentMembership(request).workspaceId),
  );

  app.patch(
    '/workspaces/:workspaceId/members/:userId',
    {
      preHandler: app.inWorkspace('manage', 'path'),
      schema: { params: memberParams, body: memberUpdate, response: { 200: memberList, ...errors } },
    },
    async (request) => {
      const { workspaceId, userId: adminId } = currentMembership(request);
      const { role, permissions } = request.body;
      await repo.updateMember(workspaceId, request.params.userId, {
        ...(role ? { role } : {}),
        ...(permissions ? { datasetWrite: permissions.includes('dataset.write') } : {}),
      });
      await audit.record({
        userId: adminId,
        action: 'workspace.member_update',
        ip: request.ip,
        detail: { workspace_id: workspaceId, member_id: request.params.userId, role, permissions },
      });
      return repo.members(workspaceId);
    },
  );

  app.delete(
    '/workspaces/:workspaceId/members/:userId',
    {
      // Anyone may leave; only an admin may remove someone else (checked below).
      preHandler: app.inWorkspace('read', 'path'),
      schema: { params: memberParams, response: { 204: z.null(), ...errors } },
    },
    async (request, reply) => {
      const membership = currentMembership(request);
      const leaving = request.params.userId === membership.userId;
      if (!leaving && membership.role !== 'admin') throw roleForbids();
      await repo.removeMember(membership.workspaceId, request.params.userId);
      await audit.record({
        userId: membership.userId,
        action: leaving ? 'workspace.leave' : 'workspace.member_remove',
        ip: request.ip,
        detail: { workspace_id: membership.workspaceId, member_id: request.params.userId },
      });
      return reply.code(204).send(null);
    },
  );
}
