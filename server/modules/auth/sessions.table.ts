import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, momentColumn, nowColumn } from '../../db/columns.ts';
import { users } from './users.table.ts';

/** Bearer-token sessions; only the SHA-256 of the token is kept. */
export const sessions = pgTable(
  'sessions',
  {
    id: idColumn(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAtColumn(),
    lastSeenAt: nowColumn('last_seen_at'),
    expiresAt: momentColumn('expires_at').notNull(),
    revokedAt: momentColumn('revoked_at'),
  },
  (t) => [uniqueIndex('sessions_token_hash_idx').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);
