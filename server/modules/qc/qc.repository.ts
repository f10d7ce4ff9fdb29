import { desc, eq } from 'drizzle-orm';
import type { QcResultItem } from '../../../contract/qc.ts';
import type { Database } from '../../db/connect.ts';
import { qcResults } from './qc.table.ts';

/** A row of `qc_results`. */
export type QcResultRow = typeof qcResults.$inferSelect;

/** One stored check as the API lists it. */
export function toQcResultItem(row: QcResultRow): QcResultItem {
  return {
    id: row.id,
    model: row.model,
    prompt_version: row.promptVersion,
    verdict: row.verdict as QcResultItem['verdict'],
    confidence: row.confidence,
    text: row.text,
    metrics: row.metrics ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/** Stored quality checks; every read is scoped to an owner. */
export function createQcRepository({ db }: { db: Database }) {
  return {
    /** Records one check. */
    async insert(values: typeof qcResults.$inferInsert): Promise<QcResultRow> {
      const [row] = await db.insert(qcResults).values(values).returning();
      return row!;
    },
    /** The checks of one upload (whoever ran them), newest first; the caller has already scoped the upload. */
    async listForUpload(uploadId: string): Promise<QcResultItem[]> {
      const rows = await db
        .select()
        .from(qcResults)
        .where(eq(qcResults.uploadId, uploadId))
        .orderBy(desc(qcResults.createdAt), desc(qcResults.id));
      return rows.map(toQcResultItem);
    },
  };
}
