import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAtColumn } from '../../db/columns.ts';
import { workspaces } from '../workspaces/workspaces.table.ts';

/**
 * The secret each workspace's UIDs are remapped with: the same source UID becomes the same new UID for every
 * member of one workspace (a series stays one series whoever uploads its slices) and a different one elsewhere.
 * Random and never sent to a client, so nobody can confirm a guessed original UID against a remapped one.
 */
export const workspaceUidSalts = pgTable('workspace_uid_salts', {
  workspaceId: uuid('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  salt: text('salt').notNull(),
  createdAt: createdAtColumn(),
});
