import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  COMMENT_NOT_FOUND,
  COMMENT_NOT_YOURS,
  commentCreate,
  commentParams,
  commentThread,
  commentThreadList,
  commentUpdate,
  type CommentThread,
} from '../../../contract/comments.ts';
import { errorResponses } from '../../../contract/errors.ts';
import { storedFilenameParams } from '../../../contract/uploads.ts';
import { badRequest, forbidden, notFound } from '../../http-errors.ts';
import { currentUser } from '../auth/auth.guard.ts';
import { currentMembership } from '../workspaces/workspace.guard.ts';
import type { UploadRow } from '../uploads/uploads.repository.ts';
import type { Membership } from '../workspaces/workspaces.repository.ts';
import { roleAllows } from '../workspaces/workspace-roles.ts';
import { imageLink, mentionMail, replyMail } from './comments.mail.ts';
import type { CommentViewer } from './comments.repository.ts';
import { mentionedIn } from './mentions.ts';

const errors = errorResponses(400, 401, 403, 404, 429);

function viewerOf(membership: Membership): CommentViewer {
  return {
    userId: membership.userId,
    canComment: roleAllows(membership.role, 'comment'),
    isAdmin: membership.role === 'admin',
  };
}

/** Shared comments on an image: every member reads them; admins, members and reviewers write. */
export default async function commentsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const uploads = app.repos.uploads;
  const repo = app.repos.comments;
  // Mention mails go out after the answer, so an SMTP outage never loses a comment; close waits for them.
  const sending = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...sending]);
  });

  async function imageOf(request: FastifyRequest<{ Params: { stored_filename: string } }>): Promise<UploadRow> {
    return uploads.findInWorkspace(currentMembership(request).workspaceId, request.params.stored_filename);
  }

  /** The image's thread that holds comment `id`, as the caller sees it. */
  async function threadOf(upload: UploadRow, membership: Membership, id: string): Promise<CommentThread> {
    const threads = await repo.threads(upload.id, viewerOf(membership));
    const thread = threads.find((t) => t.id === id || t.replies.some((r) => r.id === id));
    if (!thread) throw notFound(COMMENT_NOT_FOUND);
    return thread;
  }

  /** Whom the text mentions among the workspace's members (never its author). */
  async function mentionsOf(membership: Membership, text: string) {
    const members = await app.workspaces.members(membership.workspaceId);
    const ids = mentionedIn(
      text,
      members.map((m) => ({ userId: m.user_id, name: m.name })),
    ).filter((id) => id !== membership.userId);
    return { ids, members };
  }

  /**
   * Mails each newly mentioned member, and the thread's author when `threadAuthor` is given, after the answer;
   * a failure is logged, never sent.
   */
  function notify(
    request: FastifyRequest,
    upload: UploadRow,
    text: string,
    recipients: { email: string }[],
    workspaceId: string,
    threadAuthor?: { email: string },
  ): void {
    if (recipients.length === 0 && !threadAuthor) return;
    const author = currentUser(request);
    const work = async () => {
      const workspace = (await app.workspaces.listForUser(author.id)).find((w) => w.id === workspaceId);
      const fields = {
        authorName: author.name,
        workspaceName: workspace?.name ?? '',
        imageName: upload.originalName,
        text,
        link: imageLink(app.config.publicSiteUrl, workspaceId, upload.storedFilename),
      };
      for (const recipient of recipients) await app.mailer.send(mentionMail({ to: recipient.email, ...fields }));
      if (threadAuthor) await app.mailer.send(replyMail({ to: threadAuthor.email, ...fields }));
    };
    const sent = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((error: unknown) => request.log.error({ err: error }, 'comment mail not sent'))
      .finally(() => sending.delete(sent));
    sending.add(sent);
  }

  app.get(
    '/uploads/:stored_filename/comments',
    {
      preHandler: app.inWorkspace('read'),
      schema: { params: storedFilenameParams, response: { 200: commentThreadList, ...errors } },
    },
    async (request) => {
      const upload = await imageOf(request);
      return repo.threads(upload.id, viewerOf(currentMembership(request)));
    },
  );

  app.post(
    '/uploads/:stored_filename/comments',
    {
      preHandler: app.inWorkspace('comment'),
      // Each comment may mail the members it mentions: bounded so comments cannot flood inboxes.
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: { params: storedFilenameParams, body: commentCreate, response: { 201: commentThread, ...errors } },
    },
    async (request, reply) => {
      const membership = currentMembership(request);
      const upload = await imageOf(request);
      let parentId: string | null = null;
      let threadAuthorId: string | null = null;
      if (request.body.parent_id) {
        const parent = await repo.find(upload.id, request.body.parent_id);
        if (!parent) throw badRequest('The comment you reply to no longer exists');
        // One reply level: answering a reply joins the thread it belongs to.
        parentId = parent.parentId ?? parent.id;
        // A deleted first comment has no author left to tell; the engine's has none at all.
        const root = parent.parentId ? await repo.find(upload.id, parent.parentId) : parent;
        threadAuthorId = root?.authorId ?? null;
      }
      const { text } = request.body;
      const { ids, members } = await mentionsOf(membership, text);
      const id = await repo.insert(
        { uploadId: upload.id, parentId, authorId: membership.userId, text, createdAt: app.clock() },
        ids,
      );
      // The thread's author hears of a reply once (a mention already tells them), never of their own, and
      // only while still a member of the workspace.
      const threadAuthor =
        threadAuthorId && threadAuthorId !== membership.userId && !ids.includes(threadAuthorId)
          ? members.find((m) => m.user_id === threadAuthorId)
          : undefined;
      notify(
        request,
        upload,
        text,
        members.filter((m) => ids.includes(m.user_id)),
        membership.workspaceId,
        threadAuthor,
      );
      return reply.code(201).send(await threadOf(upload, membership, id));
    },
  );

  app.patch(
    '/uploads/:stored_filename/comments/:commentId',
    {
      preHandler: app.inWorkspace('comment'),
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: { params: commentParams, body: commentUpdate, response: { 200: commentThread, ...errors } },
    },
    async (request) => {
      const membership = currentMembership(request);
      const upload = await imageOf(request);
      const comment = await repo.find(upload.id, request.params.commentId);
      if (!comment) throw notFound(COMMENT_NOT_FOUND);
      if (comment.authorId !== membership.userId) throw forbidden(COMMENT_NOT_YOURS);
      const { text } = request.body;
      const { ids, members } = await mentionsOf(membership, text);
      const added = await repo.update(comment.id, text, app.clock(), ids);
      notify(
        request,
        upload,
        text,
        members.filter((m) => added.includes(m.user_id)),
        membership.workspaceId,
      );
      return threadOf(upload, membership, comment.id);
    },
  );

  app.delete(
    '/uploads/:stored_filename/comments/:commentId',
    {
      preHandler: app.inWorkspace('comment'),
      schema: { params: commentParams, response: { 204: z.null(), ...errors } },
    },
    async (request, reply) => {
      const membership = currentMembership(request);
      const upload = await imageOf(request);
      const comment = await repo.find(upload.id, request.params.commentId);
      if (!comment) throw notFound(COMMENT_NOT_FOUND);
      // Admins may remove anyone's comment (and the engine's), to keep a shared library's threads clean.
      if (comment.authorId !== membership.userId && membership.role !== 'admin') throw forbidden(COMMENT_NOT_YOURS);
      await repo.remove(comment, app.clock());
      return reply.code(204).send(null);
    },
  );
}
