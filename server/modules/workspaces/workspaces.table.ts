import { bigint, boolean, index, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn } from '../../db/columns.ts';
import { users } from '../auth/users.table.ts';

/** A library shared by its members: each user's personal one, or a team's. */
export const workspaces = pgTable(
  'workspaces',
  {
    id: idColumn(),
    name: text('name').notNull(),
    /** Set only on a personal workspace: the one user it belongs to. At most one per user. */
    personalOwnerId: uuid('personal_owner_id').references(() => users.id, { onDelete: 'cascade' }),
    /** Most bytes its images may take in storage; null takes WORKSPACE_QUOTA_BYTES (a plan may set its own). */
    storageQuotaBytes: bigint('storage_quota_bytes', { mode: 'number' }),
    createdAt: createdAtColumn(),
  },
  (t) => [uniqueIndex('workspaces_personal_owner_idx').on(t.personalOwnerId)],
);

/** Who belongs to a workspace, with which role and permissions. */
export const workspaceMembers = pgTable(
  'workspace_members',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** admin, member, reviewer or viewer. */
    role: text('role').notNull(),
    /** The `dataset.write` permission, granted by an admin. */
    datasetWrite: boolean('dataset_write').notNull().default(false),
    createdAt: createdAtColumn(),
  },
  (t) => [
    primaryKey({ name: 'workspace_members_pk', columns: [t.workspaceId, t.userId] }),
    index('workspace_members_user_idx').on(t.userId),
  ],
);
