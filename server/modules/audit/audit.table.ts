import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn } from '../../db/columns.ts';
import { users } from '../auth/users.table.ts';

/** Security-relevant events: who did what, when, from where. Never a password or token. */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: idColumn(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    ip: text('ip'),
    detail: jsonb('detail').$type<Record<string, unknown>>(),
    createdAt: createdAtColumn(),
  },
  (t) => [index('audit_events_user_idx').on(t.userId), index('audit_events_created_idx').on(t.createdAt)],
);
