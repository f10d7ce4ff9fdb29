import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isEmailAddress, normalizeEmail } from '../../../contract/auth.ts';
import { errorResponses } from '../../../contract/errors.ts';
import {
  INVITE_INVALID,
  INVITE_OTHER_ADDRESS,
  inviteAccepted,
  inviteItem,
  inviteList,
  inviteParams,
  invitePreview,
  inviteRequest,
  inviteTokenParams,
} from '../../../contract/invites.ts';
import { workspaceParams } from '../../../contract/workspaces.ts';
import { badRequest, forbidden, notFound } from '../../http-errors.ts';
import { currentUser } from '../auth/auth.guard.ts';
import { currentMembership } from './workspace.guard.ts';
import { inviteMail } from './invites.mail.ts';
import { personalWorkspace } from './workspaces.errors.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 429);

/** Invitations by e-mail: admins invite, withdraw and list; the invited address joins through the link. */
export default async function invitesRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const invites = app.repos.invites;
  const users = app.repos.users;
  const audit = app.repos.audit;
  // Mail goes out after the answer, so an SMTP outage never fails the invitation; close waits for it.
  const sending = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...sending]);
  });

  app.post(
    '/workspaces/:workspaceId/invites',
    {
      preHandler: app.inWorkspace('manage', 'path'),
      // Each invitation sends a mail: bounded so a workspace cannot be used to flood inboxes.
      config: { rateLimit: { max: 30, timeWindow: '1 hour' } },
      schema: { params: workspaceParams, body: inviteRequest, response: { 201: inviteItem, ...errors } },
    },
    async (request, reply) => {
      const membership = currentMembership(request);
      if (membership.personal) throw personalWorkspace();
      const email = normalizeEmail(request.body.email);
      if (!isEmailAddress(email)) throw badRequest('Enter a valid email address.');
      const now = app.clock();
      const { invite, token } = await invites.create(
        { workspaceId: membership.workspaceId, email, role: request.body.role, invitedBy: membership.userId },
        now,
      );
      const workspace = (await app.workspaces.listForUser(membership.userId)).find(
        (w) => w.id === membership.workspaceId,
      )!;
      const inviter = currentUser(request);
      const message = inviteMail({
        to: email,
        inviterName: inviter.name,
        workspaceName: workspace.name,
        role: request.body.role,
        siteUrl: app.config.publicSiteUrl,
        token,
      });
      const sent = app.mailer
        .send(message)
        .catch((error: unknown) => request.log.error({ err: error }, 'invitation mail not sent'))
        .finally(() => sending.delete(sent));
      sending.add(sent);
      await audit.record({
        userId: membership.userId,
        action: 'workspace.invite',
        ip: request.ip,
        detail: { workspace_id: membership.workspaceId, email, role: request.body.role },
      });
      return reply.code(201).send(invite);
    },
  );

  app.get(
    '/workspaces/:workspaceId/invites',
    {
      preHandler: app.inWorkspace('manage', 'path'),
      schema: { params: workspaceParams, response: { 200: inviteList, ...errors } },
    },
    async (request) => invites.pending(currentMembership(request).workspaceId, app.clock()),
  );

  app.delete(
    '/workspaces/:workspaceId/invites/:inviteId',
    {
      preHandler: app.inWorkspace('manage', 'path'),
      schema: { params: inviteParams, response: { 204: z.null(), ...errors } },
    },
    async (request, reply) => {
      const membership = currentMembership(request);
      if (!(await invites.revoke(membership.workspaceId, request.params.inviteId)))
        throw notFound('Invitation not found');
      await audit.record({
        userId: membership.userId,
        action: 'workspace.invite_revoke',
        ip: request.ip,
        detail: { workspace_id: membership.workspaceId, invite_id: request.params.inviteId },
      });
      return reply.code(204).send(null);
    },
  );

  /** The live invitation of a link, for the signed-in user it was sent to. */
  async function inviteFor(token: string, userId: string) {
    const invite = await invites.findLive(token, app.clock());
    if (!invite) throw notFound(INVITE_INVALID);
    const user = await users.findById(userId);
    if (!user || user.email !== invite.email) throw forbidden(INVITE_OTHER_ADDRESS);
    return invite;
  }

  const byToken = {
    preHandler: app.authenticate,
    // Unthrottled, a wrong-token 404 would let anyone probe for live links.
    config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
  };

  app.get(
    '/invites/:token',
    { ...byToken, schema: { params: inviteTokenParams, response: { 200: invitePreview, ...errors } } },
    async (request) => {
      const invite = await inviteFor(request.params.token, currentUser(request).id);
      return {
        workspace_name: invite.workspaceName,
        role: invite.role,
        email: invite.email,
        invited_by: invite.invitedByName,
        expires_at: invite.expiresAt.toISOString(),
      };
    },
  );

  app.post(
    '/invites/:token/accept',
    { ...byToken, schema: { params: inviteTokenParams, response: { 200: inviteAccepted, ...errors } } },
    async (request) => {
      const user = currentUser(request);
      const invite = await inviteFor(request.params.token, user.id);
      if (!(await invites.accept(invite, user.id, app.clock()))) throw notFound(INVITE_INVALID);
      await audit.record({
        userId: user.id,
        action: 'workspace.join',
        ip: request.ip,
        detail: { workspace_id: invite.workspaceId, invite_id: invite.id, role: invite.role },
      });
      return (await app.workspaces.listForUser(user.id)).find((w) => w.id === invite.workspaceId)!;
    },
  );
}
