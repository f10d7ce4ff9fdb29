import { type AnyPgColumn, index, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, momentColumn } from '../../db/columns.ts';
import { users } from '../auth/users.table.ts';
import { qcResults } from '../qc/qc.table.ts';
import { uploads } from '../uploads/uploads.table.ts';

/** One comment on one image: a person's, or a quality-check result written by the engine. */
export const comments = pgTable(
  'comments',
  {
    id: idColumn(),
    uploadId: uuid('upload_id')
      .notNull()
      .references(() => uploads.id, { onDelete: 'cascade' }),
    /** The thread it replies to; null for a comment that starts a thread. One level only. */
    parentId: uuid('parent_id').references((): AnyPgColumn => comments.id, { onDelete: 'cascade' }),
    /** The person who wrote it; null for the QC engine. */
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'cascade' }),
    /** Set on the engine's comments: the check it reports. At most one comment per check. */
    qcResultId: uuid('qc_result_id').references(() => qcResults.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    createdAt: createdAtColumn(),
    editedAt: momentColumn('edited_at'),
    /** Set when its author deleted a comment that has replies: the text is gone, the thread stays. */
    deletedAt: momentColumn('deleted_at'),
  },
  (t) => [
    index('comments_upload_created_idx').on(t.uploadId, t.createdAt),
    index('comments_parent_idx').on(t.parentId),
    uniqueIndex('comments_qc_result_idx').on(t.qcResultId),
  ],
);

/** The workspace members a comment mentions with "@Name"; each is mailed once per comment. */
export const commentMentions = pgTable(
  'comment_mentions',
  {
    commentId: uuid('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ name: 'comment_mentions_pk', columns: [t.commentId, t.userId] }),
    index('comment_mentions_user_idx').on(t.userId),
  ],
);
