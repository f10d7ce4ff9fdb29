import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createIngest, type Ingest } from './ingest.usecase.ts';
import { createMemoryBudget } from './memory-budget.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The one way an image comes in (see ingest.usecase.ts), shared by every door. */
    ingest: Ingest;
  }
}

/** Decorates the app with its ingest use case and the one memory budget all of its doors share. */
export default fp(async function ingestPlugin(app: FastifyInstance) {
  app.decorate(
    'ingest',
    createIngest({
      db: app.db,
      storage: app.storage,
      clock: app.clock,
      uploadMaxBytes: app.config.uploadMaxBytes,
      workspaceQuotaBytes: app.config.workspaceQuotaBytes,
      memory: createMemoryBudget(app.config.uploadMemoryBytes),
    }),
  );
});
