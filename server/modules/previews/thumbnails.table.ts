import { customType, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAtColumn } from '../../db/columns.ts';
import { uploads } from '../uploads/uploads.table.ts';

/** PostgreSQL `bytea`, read as a Buffer whichever driver (pg or PGlite) answers. */
const bytes = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) =>
    Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});

/**
 * The card picture of one upload, drawn once and kept with its row: it goes when the upload is deleted,
 * so no file outlives it, and a restart draws nothing again. An upload that cannot be drawn keeps the reason.
 */
export const thumbnails = pgTable('thumbnails', {
  uploadId: uuid('upload_id')
    .primaryKey()
    .references(() => uploads.id, { onDelete: 'cascade' }),
  /** WebP bytes, or null when the upload has no picture to draw. */
  image: bytes('image'),
  /** Why there is no picture (the decoder's answer), when `image` is null. */
  reason: text('reason'),
  /** HTTP status of that answer (415 or 422), when `image` is null. */
  status: integer('status'),
  createdAt: createdAtColumn(),
});
