import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../contract/errors.ts';
import {
  qcBatch,
  qcBatchList,
  qcBatchParams,
  qcBatchRequest,
  qcBatchResults,
  qcBatchResultsQuery,
} from '../../../contract/qc-batch.ts';
import { badRequest, conflict, notFound } from '../../http-errors.ts';
import { currentUser } from '../auth/auth.guard.ts';
import { currentMembership } from '../workspaces/workspace.guard.ts';
import { WORKSPACE_HEADER } from '../../../contract/workspaces.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { createBatchRunner } from './qc-batch-runner.ts';

/** Batches one user may have queued or running at once. */
export const BATCHES_PER_USER = 1;
/** Why a second batch is refused while one is unfinished in the same workspace. */
export const BATCH_BUSY = 'You already have a batch check running. Wait for it to finish, or cancel it.';
/**
 * Why a second batch is refused while one is unfinished in another of the user's workspaces: a batch is seen and
 * cancelled only in its own workspace, so the answer says which one.
 */
export const batchBusyIn = (workspace: { name: string; personal: boolean }) =>
  `You already have a batch check running in ${workspace.personal ? 'your personal workspace' : `the workspace “${workspace.name}”`}. Switch to it to follow or cancel that batch, or wait for it to finish.`;
/** Why a batch with nothing to check is refused. */
export const BATCH_EMPTY = 'No images match: there is nothing to check.';

const errors = errorResponses(400, 401, 403, 404, 409);

/** Batch checks (many images as one job, with progress), their cancelling and their results. */
export default async function qcBatchRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const uploadsRepo = app.repos.uploads;
  const repo = app.repos.qcBatches;
  const runner = createBatchRunner(app);
  // A batch belongs to the workspace whose images it checks: its members see it, others get 404.
  const reading = { preHandler: app.inWorkspace('read') };
  app.addHook('onReady', () => runner.open());
  app.addHook('onClose', () => runner.close());

  app.post(
    '/qc/batches',
    {
      // The images come from the library of the workspace the request acts in, by those who may check them.
      preHandler: app.inWorkspace('upload'),
      schema: { body: qcBatchRequest, response: { 202: qcBatch, ...errors } },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { workspaceId } = currentMembership(request);
      const body = request.body;
      // The limit is the user's, whichever workspace each batch checks: it bounds one person's share of the
      // imaging threads. A batch in a workspace they have since left is no longer theirs to wait for or cancel.
      const mine = await app.workspaces.listForUser(user.id);
      const unfinished = (await repo.unfinishedWorkspaces(user.id))
        .map((id) => mine.find((workspace) => workspace.id === id))
        .filter((workspace) => workspace !== undefined);
      if (unfinished.length >= BATCHES_PER_USER) {
        const here = unfinished.some((workspace) => workspace.id === workspaceId);
        throw conflict(here ? BATCH_BUSY : batchBusyIn(unfinished[0]!));
      }
      const names = body.scope === 'selection' ? [...new Set(body.stored_filenames)] : undefined;
      const chosen = await uploadsRepo.listToCheck(workspaceId, {
        storedFilenames: names,
        search: body.scope === 'search' ? body.query : undefined,
      });
      // Someone else's image is not found, exactly like one that never existed.
      if (names && chosen.length !== names.length) throw notFound('Image not found');
      if (chosen.length === 0) throw badRequest(BATCH_EMPTY);
      const query = body.scope === 'search' ? body.query : null;
      const batch = await repo.create(
        { ownerId: user.id, workspaceId },
        { scope: body.scope, query },
        chosen,
        app.clock(),
      );
      await recordAudit(app, request, 'qc.batch_start', {
        batch_id: batch.id,
        scope: body.scope,
        images: chosen.length,
      });
      runner.start(batch.id);
      return reply.code(202).send(batch);
    },
  );

  app.get(
    '/qc/batches',
    { ...reading, schema: { response: { 200: qcBatchList, ...errors } } },
    async (request, reply) => {
      // The same URL lists another workspace's batches: a browser's cache must keep them apart.
      reply.header('vary', WORKSPACE_HEADER);
      return repo.listForWorkspace(currentMembership(request).workspaceId);
    },
  );

  app.get(
    '/qc/batches/:id',
    { ...reading, schema: { params: qcBatchParams, response: { 200: qcBatch, ...errors } } },
    async (request) => repo.findInWorkspace(currentMembership(request).workspaceId, request.params.id),
  );

  app.get(
    '/qc/batches/:id/results',
    {
      ...reading,
      schema: { params: qcBatchParams, querystring: qcBatchResultsQuery, response: { 200: qcBatchResults, ...errors } },
    },
    async (request) =>
      repo.results(
        currentMembership(request).workspaceId,
        request.params.id,
        request.query.offset,
        request.query.limit,
      ),
  );

  app.post(
    '/qc/batches/:id/cancel',
    {
      // Stopping a batch is for those who may start one, whoever of them started it.
      preHandler: app.inWorkspace('upload'),
      schema: { params: qcBatchParams, response: { 200: qcBatch, ...errors } },
    },
    async (request) => {
      const batch = await repo.cancel(currentMembership(request).workspaceId, request.params.id, app.clock());
      await recordAudit(app, request, 'qc.batch_cancel', { batch_id: batch.id });
      runner.cancelled(batch.id);
      return batch;
    },
  );
}
