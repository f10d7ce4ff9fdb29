import { index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn } from '../../db/columns.ts';
import { users } from '../auth/users.table.ts';
import { uploads } from '../uploads/uploads.table.ts';

/** One quality-control check of one upload. */
export const qcResults = pgTable(
  'qc_results',
  {
    id: idColumn(),
    uploadId: uuid('upload_id')
      .notNull()
      .references(() => uploads.id, { onDelete: 'cascade' }),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    model: text('model').notNull(),
    promptVersion: text('prompt_version').notNull(),
    /** pass, review or fail. */
    verdict: text('verdict').notNull(),
    confidence: integer('confidence').notNull(),
    text: text('text').notNull(),
    metrics: jsonb('metrics').$type<Record<string, unknown>>(),
    createdAt: createdAtColumn(),
  },
  (t) => [index('qc_results_upload_idx').on(t.uploadId), index('qc_results_owner_idx').on(t.ownerId)],
);
