import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, momentColumn } from '../../db/columns.ts';
import { users } from '../auth/users.table.ts';
import { workspaces } from './workspaces.table.ts';

/** An invitation by e-mail to join a team workspace; only the hash of the link's secret is kept. */
export const workspaceInvites = pgTable(
  'workspace_invites',
  {
    id: idColumn(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Lower-cased and trimmed, as users.email. */
    email: text('email').notNull(),
    /** The role the invitee gets on joining. */
    role: text('role').notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: momentColumn('expires_at').notNull(),
    /** Set once the link is used; a link works once. */
    acceptedAt: momentColumn('accepted_at'),
    createdAt: createdAtColumn(),
  },
  (t) => [
    uniqueIndex('workspace_invites_token_hash_idx').on(t.tokenHash),
    index('workspace_invites_workspace_idx').on(t.workspaceId),
  ],
);
