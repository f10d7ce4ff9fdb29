import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../contract/errors.ts';
import { uploadList, uploadQuery } from '../../../contract/uploads.ts';
import { currentMembership } from '../workspaces/workspace.guard.ts';
import { SERIES_MAX_BYTES, SERIES_MAX_FILES } from '../ingest/series-files.ts';
import { fromMultipart } from './multipart-source.ts';
import { toUploadItem } from './uploads.repository.ts';

const errors = errorResponses(400, 401, 403, 404, 413, 415, 422, 429, 503);

/**
 * `POST /uploads/series`: DICOM files (many, or in one .zip) grouped by Study and Series Instance UID
 * into one item per series, named from its modality and description; a file of no series with others
 * stays an item of its own, named as if uploaded alone (see ingest/).
 */
export default async function seriesRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = Math.min(app.config.uploadMaxBytes, SERIES_MAX_BYTES);
  await app.register(multipart, { limits: { fileSize: limit, files: SERIES_MAX_FILES, fields: 20 } });

  app.post(
    '/uploads/series',
    {
      preHandler: [app.inWorkspace('upload'), app.uploadRateLimit],
      schema: { querystring: uploadQuery, response: { 201: uploadList, ...errors } },
    },
    async (request, reply) => {
      const { workspaceId, userId } = currentMembership(request);
      const options = { workspaceId, userId, keepOriginal: request.query.deidentify === 'false', ip: request.ip };
      const stored = await fromMultipart(request, 'series', limit, (source) => app.ingest.ingest(source, options));
      return reply.code(201).send(stored.map(toUploadItem));
    },
  );
}
