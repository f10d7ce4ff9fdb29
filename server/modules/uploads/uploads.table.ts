import { bigint, boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, momentColumn } from '../../db/columns.ts';
import { users } from '../auth/users.table.ts';
import { workspaces } from '../workspaces/workspaces.table.ts';

/** One stored image (or one DICOM series) in one workspace, uploaded by one user. */
export const uploads = pgTable(
  'uploads',
  {
    id: idColumn(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The workspace whose library holds it; every read is scoped by it. */
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Server-generated name, also the storage key; never derived from the client's name. */
    storedFilename: text('stored_filename').notNull(),
    /** The client's file name with any path removed; display only. */
    originalName: text('original_name').notNull(),
    /** Lower-case, with the leading dot: ".nii.gz", ".dcm". */
    extension: text('extension').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    contentType: text('content_type').notNull(),
    /** Normalised format: jpg, png, tiff, bmp, gif, webp, nii, nrrd, dcm. */
    format: text('format').notNull(),
    deidentified: boolean('deidentified').notNull().default(false),
    /** Set for a DICOM series grouped from several slices. */
    seriesInstanceUid: text('series_instance_uid'),
    sliceCount: integer('slice_count'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    uniqueIndex('uploads_stored_filename_idx').on(t.storedFilename),
    index('uploads_owner_created_idx').on(t.ownerId, t.createdAt),
    // The library's order, tie-break included: a page (first or by cursor) is one backward index range scan.
    index('uploads_workspace_created_id_idx').on(t.workspaceId, t.createdAt, t.id),
  ],
);

/** Signed links to one upload, usable without a bearer token until they expire; only the hash is kept. */
export const shareLinks = pgTable(
  'share_links',
  {
    id: idColumn(),
    uploadId: uuid('upload_id')
      .notNull()
      .references(() => uploads.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: momentColumn('expires_at').notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [uniqueIndex('share_links_token_hash_idx').on(t.tokenHash)],
);
