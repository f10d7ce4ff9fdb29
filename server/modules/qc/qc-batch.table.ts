import { index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, momentColumn } from '../../db/columns.ts';
import { users } from '../auth/users.table.ts';
import { uploads } from '../uploads/uploads.table.ts';
import { workspaces } from '../workspaces/workspaces.table.ts';
import { qcResults } from './qc.table.ts';

/** A batch check: many images of one workspace's library checked as one job, resumable by any replica. */
export const qcBatches = pgTable(
  'qc_batches',
  {
    id: idColumn(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The workspace whose images it checks; only its members see the batch. */
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** queued, running, done or cancelled. */
    status: text('status').notNull(),
    /** selection, search or library. */
    scope: text('scope').notNull(),
    query: text('query'),
    /** The replica working on it holds it until then, renewing as it goes; a lapsed lease lets another resume it. */
    leaseExpiresAt: momentColumn('lease_expires_at'),
    createdAt: createdAtColumn(),
    startedAt: momentColumn('started_at'),
    finishedAt: momentColumn('finished_at'),
  },
  (t) => [
    index('qc_batches_owner_created_idx').on(t.ownerId, t.createdAt),
    index('qc_batches_workspace_created_idx').on(t.workspaceId, t.createdAt),
    index('qc_batches_status_idx').on(t.status),
  ],
);

/**
 * One image of a batch. Its name, hash and format are copied when the batch is made, so the results say
 * which bytes were checked and the batch reads no other module's table.
 */
export const qcBatchItems = pgTable(
  'qc_batch_items',
  {
    batchId: uuid('batch_id')
      .notNull()
      .references(() => qcBatches.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    uploadId: uuid('upload_id')
      .notNull()
      .references(() => uploads.id, { onDelete: 'cascade' }),
    storedFilename: text('stored_filename').notNull(),
    originalName: text('original_name').notNull(),
    sha256: text('sha256').notNull(),
    format: text('format').notNull(),
    /** pending, done or error. */
    status: text('status').notNull().default('pending'),
    resultId: uuid('result_id').references(() => qcResults.id, { onDelete: 'set null' }),
    error: text('error'),
  },
  (t) => [
    primaryKey({ name: 'qc_batch_items_pk', columns: [t.batchId, t.position] }),
    index('qc_batch_items_pending_idx').on(t.batchId, t.status, t.position),
    index('qc_batch_items_upload_idx').on(t.uploadId),
  ],
);
