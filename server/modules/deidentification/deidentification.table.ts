import { jsonb, pgTable, uuid } from 'drizzle-orm/pg-core';
import { createdAtColumn } from '../../db/columns.ts';
import type { DeidentificationReport } from '../../imaging/dicom/deidentify-report.ts';
import { uploads } from '../uploads/uploads.table.ts';

/** What de-identifying one upload did, kept for its owner to read. */
export const deidentificationReports = pgTable('deidentification_reports', {
  uploadId: uuid('upload_id')
    .primaryKey()
    .references(() => uploads.id, { onDelete: 'cascade' }),
  report: jsonb('report').$type<DeidentificationReport>().notNull(),
  createdAt: createdAtColumn(),
});
