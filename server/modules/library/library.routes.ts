import compress from '@fastify/compress';
import etag from '@fastify/etag';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../contract/errors.ts';
import {
  NEXT_CURSOR_HEADER,
  UPLOAD_LIMIT_HEADER,
  storedFilenameParams,
  uploadItem,
  uploadList,
  uploadListQuery,
} from '../../../contract/uploads.ts';
import { WORKSPACE_HEADER } from '../../../contract/workspaces.ts';
import { currentMembership } from '../workspaces/workspace.guard.ts';
import { toLibraryItem } from './library.repository.ts';

const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse };

/** The image library of a workspace as the grid reads it: the list, and one item of it. Read-only. */
export default async function libraryRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const library = app.repos.library;
  // The list is the one large JSON answer: compressed when the client accepts it, and answered 304 while
  // unchanged. The tag is weak because the same list goes out in several encodings.
  await app.register(compress, { global: false, threshold: 1024 });
  await app.register(etag, { weak: true });
  const reading = { preHandler: app.inWorkspace('read') };

  app.get(
    '/uploads',
    { ...reading, compress: {}, schema: { querystring: uploadListQuery, response: { 200: uploadList, ...errors } } },
    async (request, reply) => {
      const { limit: pageSize, cursor, search } = request.query;
      const page = await library.list(currentMembership(request).workspaceId, {
        limit: pageSize,
        after: cursor,
        search,
      });
      reply.header(UPLOAD_LIMIT_HEADER, app.config.uploadMaxBytes);
      // The same URL lists another library in another workspace: a browser's cache must keep them apart.
      reply.header('vary', WORKSPACE_HEADER);
      if (page.next) reply.header(NEXT_CURSOR_HEADER, page.next);
      return page.rows.map(toLibraryItem);
    },
  );

  // A mailed link opens one image's details though it may not be on the grid's first page: its list item alone.
  app.get(
    '/uploads/:stored_filename/item',
    { ...reading, schema: { params: storedFilenameParams, response: { 200: uploadItem, ...errors } } },
    async (request) =>
      toLibraryItem(await library.item(currentMembership(request).workspaceId, request.params.stored_filename)),
  );
}
