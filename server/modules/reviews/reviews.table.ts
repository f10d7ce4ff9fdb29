import { boolean, foreignKey, index, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, momentColumn, nowColumn } from '../../db/columns.ts';
import { users } from '../auth/users.table.ts';
import { uploads } from '../uploads/uploads.table.ts';
import { workspaceMembers, workspaces } from '../workspaces/workspaces.table.ts';

/** A workspace's review settings; a workspace without a row uses the defaults. */
export const reviewSettings = pgTable('review_settings', {
  workspaceId: uuid('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  /** Blind double reads: others' ratings stay hidden from a rater until they have rated. */
  blind: boolean('blind').notNull().default(false),
  /** The artefact tags raters choose from; null means MRIQC's default list. */
  artefactTags: jsonb('artefact_tags').$type<string[]>(),
});

/**
 * Members an admin made tier-2 reviewers. Keyed on the membership, so leaving or removal ends the grant;
 * a role that may not rate (viewer) keeps the row but decides nothing, as the role is checked on each request.
 */
export const reviewTier2 = pgTable(
  'review_tier2',
  {
    workspaceId: uuid('workspace_id').notNull(),
    userId: uuid('user_id').notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    primaryKey({ name: 'review_tier2_pk', columns: [t.workspaceId, t.userId] }),
    foreignKey({
      name: 'review_tier2_member_fk',
      columns: [t.workspaceId, t.userId],
      foreignColumns: [workspaceMembers.workspaceId, workspaceMembers.userId],
    }).onDelete('cascade'),
  ],
);

/** One tier-1 rating of one image by one rater; a rater changes their rating in place. */
export const imageRatings = pgTable(
  'image_ratings',
  {
    id: idColumn(),
    uploadId: uuid('upload_id')
      .notNull()
      .references(() => uploads.id, { onDelete: 'cascade' }),
    raterId: uuid('rater_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** usable, questionable or unusable. */
    rating: text('rating').notNull(),
    tags: jsonb('tags').$type<string[]>().notNull(),
    note: text('note').notNull().default(''),
    createdAt: createdAtColumn(),
    updatedAt: nowColumn('updated_at'),
  },
  (t) => [
    uniqueIndex('image_ratings_upload_rater_idx').on(t.uploadId, t.raterId),
    index('image_ratings_rater_idx').on(t.raterId),
  ],
);

/** The final tier-2 decision on an image: one per image, never overwritten. */
export const reviewDecisions = pgTable('review_decisions', {
  uploadId: uuid('upload_id')
    .primaryKey()
    .references(() => uploads.id, { onDelete: 'cascade' }),
  /** Who decided; null once their account is deleted (the name below stays). */
  deciderId: uuid('decider_id').references(() => users.id, { onDelete: 'set null' }),
  deciderName: text('decider_name').notNull(),
  rating: text('rating').notNull(),
  tags: jsonb('tags').$type<string[]>().notNull(),
  note: text('note').notNull().default(''),
  decidedAt: momentColumn('decided_at').notNull(),
});

/** Which members an admin asked to rate an image (the queue's "assigned to me"). */
export const reviewAssignments = pgTable(
  'review_assignments',
  {
    uploadId: uuid('upload_id')
      .notNull()
      .references(() => uploads.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAtColumn(),
  },
  (t) => [
    primaryKey({ name: 'review_assignments_pk', columns: [t.uploadId, t.userId] }),
    index('review_assignments_user_idx').on(t.userId),
  ],
);
