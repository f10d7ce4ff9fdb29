import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { deidentificationReport } from '../../../contract/deidentification.ts';
import { errorResponse } from '../../../contract/errors.ts';
import { storedFilenameParams } from '../../../contract/uploads.ts';
import { notFound } from '../../http-errors.ts';
import { currentMembership } from '../workspaces/workspace.guard.ts';
import { toReportBody } from './deidentification.repository.ts';

/** GET /uploads/{stored_filename}/deidentification: what de-identifying an upload of the workspace did. */
export default async function deidentificationRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const uploads = app.repos.uploads;
  const reports = app.repos.deidentification;
  app.get(
    '/uploads/:stored_filename/deidentification',
    {
      preHandler: app.inWorkspace('read'),
      schema: {
        params: storedFilenameParams,
        response: { 200: deidentificationReport, 401: errorResponse, 403: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      // An upload of another workspace is not found, exactly like one that does not exist.
      const upload = await uploads.findInWorkspace(
        currentMembership(request).workspaceId,
        request.params.stored_filename,
      );
      const report = await reports.find(upload.id);
      if (!report) throw notFound('This image has no de-identification report');
      return toReportBody(report);
    },
  );
}
