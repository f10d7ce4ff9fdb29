import compress from '@fastify/compress';
import etag from '@fastify/etag';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse, errorResponses } from '../../../contract/errors.ts';
import {
  SHARE_LINK_TTL_MS,
  shareLinkList,
  shareLinkParams,
  shareLinkResponse,
  shareTokenParams,
  storedFilenameParams,
  uploadItem,
  uploadQuery,
} from '../../../contract/uploads.ts';
import { notFound } from '../../http-errors.ts';
import { currentMembership } from '../workspaces/workspace.guard.ts';
import { createAuditRepository } from '../audit/audit.repository.ts';
import { deletePreviews } from '../previews/preview-cleanup.ts';
import { sendUpload } from './file-delivery.ts';
import { fromMultipart } from './multipart-source.ts';
import { createUploadsRepository, toUploadItem, uploadStorageKey } from './uploads.repository.ts';

const errors = errorResponses(400, 401, 403, 404, 413, 415, 422, 429, 503);

/** The image library of a workspace: upload, list, download, delete and share its images. */
export default async function uploadsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const repo = createUploadsRepository({ db: app.db });
  const audit = createAuditRepository({ db: app.db });
  const limit = app.config.uploadMaxBytes;
  // The list is the one large JSON answer: compressed when the client accepts it, and answered 304 while
  // unchanged. The tag is weak because the same list goes out in several encodings.
  await app.register(compress, { global: false, threshold: 1024 });
  await app.register(etag, { weak: true });
  await app.register(multipart, {
    // The storage layer enforces the real limit (and removes the partial file); this only stops busboy first.
    limits: { fileSize: limit + 1, files: 2, fields: 20, parts: 30, fieldSize: 64 * 1024, headerPairs: 100 },
  });
  // Reading is every member's; changing the library (and handing out links to it) is for admins and members.
  const reading = { preHandler: app.inWorkspace('read') };
  const writing = { preHandler: app.inWorkspace('upload') };

  app.post(
    '/uploads',
    {
      preHandler: [app.inWorkspace('upload'), app.uploadRateLimit],
      schema: { querystring: uploadQuery, response: { 201: uploadItem, ...errors } },
    },
    async (request, reply) => {
      const { workspaceId, userId } = currentMembership(request);
      const options = { workspaceId, userId, keepOriginal: request.query.deidentify === 'false', ip: request.ip };
      const [stored] = await fromMultipart(request, 'file', limit, (source) => app.ingest.ingest(source, options));
      return reply.code(201).send(toUploadItem(stored!));
    },
  );

  app.get(
    '/uploads/:stored_filename',
    { ...reading, schema: { params: storedFilenameParams, response: { 404: errorResponse, 416: errorResponse } } },
    async (request, reply) => {
      const member = currentMembership(request);
      const upload = await repo.findInWorkspace(member.workspaceId, request.params.stored_filename);
      if (!request.headers.range) {
        await audit.record({
          userId: member.userId,
          workspaceId: member.workspaceId,
          action: 'upload.download',
          ip: request.ip,
          detail: { stored_filename: upload.storedFilename, original_name: upload.originalName },
        });
      }
      return sendUpload(reply, app.storage, upload, request.headers.range);
    },
  );

  app.delete(
    '/uploads/:stored_filename',
    {
      ...writing,
      schema: { params: storedFilenameParams, response: { 204: z.null(), 403: errorResponse, 404: errorResponse } },
    },
    async (request, reply) => {
      const member = currentMembership(request);
      const upload = await repo.findInWorkspace(member.workspaceId, request.params.stored_filename);
      // The row goes first: a crash before the file is removed leaves a file no row names, which the
      // sweep (upload-sweep.ts) removes, never a listed upload without its bytes.
      await repo.delete(upload.id);
      await app.storage
        .delete(uploadStorageKey(upload.storedFilename))
        .catch((error: unknown) => request.log.error({ err: error }, 'file left for the sweep'));
      deletePreviews(app, upload.storedFilename);
      await audit.record({
        userId: member.userId,
        workspaceId: member.workspaceId,
        action: 'upload.delete',
        ip: request.ip,
        detail: { stored_filename: upload.storedFilename, original_name: upload.originalName },
      });
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/uploads/:stored_filename/share-links',
    {
      ...writing,
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        params: storedFilenameParams,
        response: { 201: shareLinkResponse, 403: errorResponse, 404: errorResponse },
      },
    },
    async (request, reply) => {
      const member = currentMembership(request);
      const upload = await repo.findInWorkspace(member.workspaceId, request.params.stored_filename);
      const now = app.clock();
      const expiresAt = new Date(now.getTime() + SHARE_LINK_TTL_MS);
      const token = await repo.createShareLink(upload.id, expiresAt, now);
      await audit.record({
        userId: member.userId,
        workspaceId: member.workspaceId,
        action: 'share_link.create',
        ip: request.ip,
        detail: {
          stored_filename: upload.storedFilename,
          original_name: upload.originalName,
          expires_at: expiresAt.toISOString(),
        },
      });
      const url = `${app.config.publicSiteUrl}/api/v1/shared/${token}`;
      return reply.code(201).send({ url, expires_at: expiresAt.toISOString() });
    },
  );

  app.get(
    '/uploads/:stored_filename/share-links',
    {
      ...writing,
      schema: {
        params: storedFilenameParams,
        response: { 200: shareLinkList, 403: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const upload = await repo.findInWorkspace(currentMembership(request).workspaceId, request.params.stored_filename);
      const links = await repo.listShareLinks(upload.id, app.clock());
      return links.map((link) => ({
        id: link.id,
        created_at: link.createdAt.toISOString(),
        expires_at: link.expiresAt.toISOString(),
      }));
    },
  );

  app.delete(
    '/uploads/:stored_filename/share-links/:id',
    {
      ...writing,
      schema: { params: shareLinkParams, response: { 204: z.null(), 403: errorResponse, 404: errorResponse } },
    },
    async (request, reply) => {
      const member = currentMembership(request);
      const upload = await repo.findInWorkspace(member.workspaceId, request.params.stored_filename);
      if (!(await repo.revokeShareLink(upload.id, request.params.id))) throw notFound('Share link not found');
      await audit.record({
        userId: member.userId,
        workspaceId: member.workspaceId,
        action: 'share_link.revoke',
        ip: request.ip,
        detail: { stored_filename: upload.storedFilename, share_link_id: request.params.id },
      });
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/shared/:token',
    {
      // Unthrottled, a wrong-token 404 would let anyone probe for live links.
      config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
      schema: { params: shareTokenParams, response: { 404: errorResponse, 416: errorResponse } },
    },
    async (request, reply) => {
      const upload = await repo.findByShareToken(request.params.token, app.clock());
      if (!upload) throw notFound('This link is invalid or has expired');
      if (!request.headers.range) {
        await audit.record({
          userId: null,
          workspaceId: upload.workspaceId,
          action: 'share_link.download',
          ip: request.ip,
          detail: { stored_filename: upload.storedFilename, owner_id: upload.ownerId },
        });
      }
      return sendUpload(reply, app.storage, upload, request.headers.range);
    },
  );
}
