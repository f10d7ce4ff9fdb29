import { desc, eq } from 'drizzle-orm';
import type { QcResultItem } from '../../../contract/qc.ts';
import type { Database } from '../../db/connect.ts';
import { recordEngineComment } from '../comments/comments.repository.ts';
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
    /** Records one check and its [QC] comment on the image, together. */
    async insert(values: typeof qcResults.$inferInsert): Promise<QcResultRow> {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(qcResults).values(values).returning();
        await recordEngineComment(tx, row!);
        return row!;
      });
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
