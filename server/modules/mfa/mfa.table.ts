import { bigint, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, momentColumn } from '../../db/columns.ts';
import { users } from '../auth/users.table.ts';

/**
 * One TOTP authenticator per user. The secret never leaves the server after enrolment; `confirmedAt` is
 * null while enrolment waits for its first code, and `lastUsedStep` is the 30-second step of the last
 * code accepted, so the same code cannot be used twice.
 */
export const mfaFactors = pgTable('mfa_factors', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Base32 TOTP secret (RFC 6238, SHA-1, 6 digits, 30 s). */
  secret: text('secret').notNull(),
  createdAt: createdAtColumn(),
  confirmedAt: momentColumn('confirmed_at'),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
});

/** Single-use recovery codes of a user's authenticator; only their SHA-256 is kept. */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    id: idColumn(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: createdAtColumn(),
    usedAt: momentColumn('used_at'),
  },
  // Led by user_id, the unique index also serves the per-user lookups.
  (t) => [uniqueIndex('mfa_recovery_codes_user_hash_idx').on(t.userId, t.codeHash)],
);
