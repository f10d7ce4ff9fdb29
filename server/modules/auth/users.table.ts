import { pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, momentColumn, nowColumn } from '../../db/columns.ts';

/** People with an account; profile fields live here too. */
export const users = pgTable(
  'users',
  {
    id: idColumn(),
    /** Always stored lower-cased and trimmed. */
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    emailVerifiedAt: momentColumn('email_verified_at'),
    orgId: text('org_id'),
    role: text('role'),
    institution: text('institution'),
    bio: text('bio'),
    avatarUrl: text('avatar_url'),
    createdAt: createdAtColumn(),
    updatedAt: nowColumn('updated_at').$onUpdate(() => new Date()),
  },
  (t) => [uniqueIndex('users_email_idx').on(t.email)],
);
