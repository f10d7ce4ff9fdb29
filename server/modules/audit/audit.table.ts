import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn } from '../../db/columns.ts';
import { users } from '../auth/users.table.ts';
import { workspaces } from '../workspaces/workspaces.table.ts';

/** Security-relevant events: who did what, when, from where. Never a password or token. */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: idColumn(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /**
     * The workspace whose audit log shows the event; null for an account event (registration, password
     * reset). A sign-in is recorded once for the account and once in each workspace the user belongs to.
     */
    workspaceId: uuid('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    ip: text('ip'),
    detail: jsonb('detail').$type<Record<string, unknown>>(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    index('audit_events_user_idx').on(t.userId),
    index('audit_events_created_idx').on(t.createdAt),
    index('audit_events_workspace_created_idx').on(t.workspaceId, t.createdAt),
  ],
);
