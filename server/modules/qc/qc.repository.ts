import { desc, eq, getTableName, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { QcResultItem, QcVerdict } from '../../../contract/qc.ts';
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

/**
 * The verdict of the latest check of the upload whose id is `uploadId` (a column of the outer query), or null:
 * a scalar subquery for a list to select beside each upload, so the verdicts come in the same statement.
 */
export function latestVerdictOf(uploadId: AnyPgColumn): SQL<QcVerdict | null> {
  // Named with its table: drizzle leaves columns unqualified in a query of one table, where the subquery's own
  // columns would then shadow the outer one.
  const outer = sql`${sql.identifier(getTableName(uploadId.table))}.${sql.identifier(uploadId.name)}`;
  const column = (c: AnyPgColumn) => sql`latest.${sql.identifier(c.name)}`;
  return sql<QcVerdict | null>`(select ${column(qcResults.verdict)} from ${qcResults} latest
    where ${column(qcResults.uploadId)} = ${outer}
    order by ${column(qcResults.createdAt)} desc, ${column(qcResults.id)} desc limit 1)`;
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
    /**
     * The verdict of the latest check of each of these uploads (scoped by the caller), by upload id; an
     * upload never checked is absent. One query per thousand ids, each an index lookup.
     */
    async latestVerdicts(uploadIds: readonly string[]): Promise<Map<string, QcVerdict>> {
      const latest = new Map<string, QcVerdict>();
      for (let start = 0; start < uploadIds.length; start += 1000) {
        const rows = await db
          .selectDistinctOn([qcResults.uploadId], { uploadId: qcResults.uploadId, verdict: qcResults.verdict })
          .from(qcResults)
          .where(inArray(qcResults.uploadId, uploadIds.slice(start, start + 1000)))
          .orderBy(qcResults.uploadId, desc(qcResults.createdAt), desc(qcResults.id));
        for (const row of rows) latest.set(row.uploadId, row.verdict as QcVerdict);
      }
      return latest;
    },
  };
}
