import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditActors, auditFilters, auditPage, auditQuery, MAX_AUDIT_EXPORT } from '../../../contract/audit.ts';
import { errorResponse } from '../../../contract/errors.ts';
import { WORKSPACE_NOT_FOUND, workspaceParams } from '../../../contract/workspaces.ts';
import { notFound } from '../../http-errors.ts';
import { auditCsv, auditCsvFileName } from './audit-csv.ts';
import { keepAuditEventsOneYear } from './audit-retention.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

/**
 * The workspace `app.inWorkspace` admitted the request to. Read from the request rather than through the
 * workspaces module, which records into this one.
 */
function workspaceOf(request: FastifyRequest): string {
  if (!request.membership) throw notFound(WORKSPACE_NOT_FOUND);
  return request.membership.workspaceId;
}

/** A workspace's audit log for its admins: one page at a time, or as a CSV file. */
export default async function auditRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const repo = app.repos.audit;
  keepAuditEventsOneYear(app);
  // The log is the admins' (WorkspaceAction 'manage'): other members get 403, strangers 404.
  const admins = { preHandler: app.inWorkspace('manage', 'path') };

  app.get(
    '/workspaces/:workspaceId/audit',
    {
      ...admins,
      schema: { params: workspaceParams, querystring: auditQuery, response: { 200: auditPage, ...errors } },
    },
    async (request) => {
      const { limit, cursor, ...filters } = request.query;
      return repo.list(workspaceOf(request), filters, { limit, cursor });
    },
  );

  app.get(
    '/workspaces/:workspaceId/audit/actors',
    { ...admins, schema: { params: workspaceParams, response: { 200: auditActors, ...errors } } },
    async (request) => repo.actors(workspaceOf(request)),
  );

  app.get(
    '/workspaces/:workspaceId/audit.csv',
    {
      ...admins,
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: { params: workspaceParams, querystring: auditFilters, response: errors },
    },
    async (request, typedReply) => {
      // The body is CSV text, not JSON: the reply is used untyped, outside the error-only response schema.
      const reply = typedReply as unknown as FastifyReply;
      const items = await repo.exportRows(workspaceOf(request), request.query, MAX_AUDIT_EXPORT);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${auditCsvFileName(app.clock())}"`)
        .header('cache-control', 'no-store')
        .send(auditCsv(items));
    },
  );
}
