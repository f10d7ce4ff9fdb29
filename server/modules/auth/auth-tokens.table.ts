import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, momentColumn } from '../../db/columns.ts';
import { users } from './users.table.ts';

/**
 * Single-use tokens: purpose 'verify' (24 h) or 'reset' (30 min) in e-mail links, 'mfa' (5 min) between a
 * right password and its authenticator code; only the hash is kept.
 */
export const authTokens = pgTable(
  'auth_tokens',
  {
    id: idColumn(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify', 'reset', 'mfa'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAtColumn(),
    expiresAt: momentColumn('expires_at').notNull(),
    usedAt: momentColumn('used_at'),
  },
  (t) => [uniqueIndex('auth_tokens_hash_idx').on(t.tokenHash), index('auth_tokens_user_idx').on(t.userId)],
);
