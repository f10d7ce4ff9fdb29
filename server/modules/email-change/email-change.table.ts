import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, momentColumn } from '../../db/columns.ts';
import { users } from '../auth/users.table.ts';

/**
 * Requests to change a sign-in address, each waiting for its confirmation link (24 h, single use) to be
 * opened; only the SHA-256 of the link's token is kept.
 */
export const emailChanges = pgTable(
  'email_changes',
  {
    id: idColumn(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The address asked for, normalised; the account keeps its old one until the link is opened. */
    newEmail: text('new_email').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAtColumn(),
    expiresAt: momentColumn('expires_at').notNull(),
    usedAt: momentColumn('used_at'),
  },
  (t) => [uniqueIndex('email_changes_token_hash_idx').on(t.tokenHash), index('email_changes_user_idx').on(t.userId)],
);
