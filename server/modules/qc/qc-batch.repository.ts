import { and, asc, desc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { QcBatch, QcBatchResult, QcBatchStatus } from '../../../contract/qc-batch.ts';
import type { Database } from '../../db/connect.ts';
import { notFound } from '../../http-errors.ts';
import { qcBatches, qcBatchItems } from './qc-batch.table.ts';
import { recordEngineComment } from '../comments/comments.repository.ts';
import { qcResults } from './qc.table.ts';
import { BUILTIN_MODEL } from './qc-summary.ts';

/** A row of `qc_batches`. */
export type QcBatchRow = typeof qcBatches.$inferSelect;
/** An image of a batch still to be checked. */
export type PendingItem = Pick<
  typeof qcBatchItems.$inferSelect,
  'batchId' | 'position' | 'uploadId' | 'storedFilename' | 'format'
>;
/** An image chosen for a batch, as the uploads module lists it. */
export interface ChosenUpload {
  id: string;
  storedFilename: string;
  originalName: string;
  sha256: string;
  format: string;
}

/** Statuses of a batch that still has work to do. */
const UNFINISHED = ['queued', 'running'];
/** Rows per insert statement, well under PostgreSQL's 65,535 parameters. */
const INSERT_CHUNK = 1000;

const progressColumns = {
  batchId: qcBatchItems.batchId,
  total: sql<number>`count(*)::int`,
  checked: sql<number>`count(*) filter (where ${qcBatchItems.status} = 'done')::int`,
  errors: sql<number>`count(*) filter (where ${qcBatchItems.status} = 'error')::int`,
  pass: sql<number>`count(*) filter (where ${qcResults.verdict} = 'pass')::int`,
  review: sql<number>`count(*) filter (where ${qcResults.verdict} = 'review')::int`,
  fail: sql<number>`count(*) filter (where ${qcResults.verdict} = 'fail')::int`,
};
type Progress = Omit<
  QcBatch,
  'id' | 'status' | 'scope' | 'query' | 'engine' | 'created_at' | 'started_at' | 'finished_at'
>;
const NO_PROGRESS: Progress = { total: 0, checked: 0, errors: 0, pass: 0, review: 0, fail: 0 };

function toQcBatch(row: QcBatchRow, progress: Progress = NO_PROGRESS): QcBatch {
  return {
    id: row.id,
    status: row.status as QcBatchStatus,
    scope: row.scope as QcBatch['scope'],
    query: row.query,
    engine: BUILTIN_MODEL,
    ...progress,
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

/** Batch checks and their images; every read a user makes is scoped to a workspace. */
export function createQcBatchRepository({ db }: { db: Database }) {
  async function withProgress(rows: QcBatchRow[]): Promise<QcBatch[]> {
    if (rows.length === 0) return [];
    const counts = await db
      .select(progressColumns)
      .from(qcBatchItems)
      .leftJoin(qcResults, eq(qcResults.id, qcBatchItems.resultId))
      .where(
        inArray(
          qcBatchItems.batchId,
          rows.map((r) => r.id),
        ),
      )
      .groupBy(qcBatchItems.batchId);
    const byId = new Map(counts.map(({ batchId, ...progress }) => [batchId, progress]));
    return rows.map((row) => toQcBatch(row, byId.get(row.id)));
  }

  async function rowInWorkspace(workspaceId: string, id: string): Promise<QcBatchRow> {
    const [row] = await db
      .select()
      .from(qcBatches)
      .where(and(eq(qcBatches.id, id), eq(qcBatches.workspaceId, workspaceId)))
      .limit(1);
    if (!row) throw notFound('Batch check not found');
    return row;
  }

  return {
    /** Records a queued batch of the chosen images (of the workspace's library), in their order. */
    async create(
      { ownerId, workspaceId }: { ownerId: string; workspaceId: string },
      choice: { scope: string; query: string | null },
      chosen: ChosenUpload[],
      now: Date,
    ): Promise<QcBatch> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(qcBatches)
          .values({ ownerId, workspaceId, status: 'queued', scope: choice.scope, query: choice.query, createdAt: now })
          .returning();
        for (let start = 0; start < chosen.length; start += INSERT_CHUNK) {
          await tx.insert(qcBatchItems).values(
            chosen.slice(start, start + INSERT_CHUNK).map((upload, i) => ({
              batchId: row!.id,
              position: start + i,
              uploadId: upload.id,
              storedFilename: upload.storedFilename,
              originalName: upload.originalName,
              sha256: upload.sha256,
              format: upload.format,
            })),
          );
        }
        return toQcBatch(row!, { ...NO_PROGRESS, total: chosen.length });
      });
    },

    /** The workspace of each batch of the owner that is queued or running, oldest batch first. */
    async unfinishedWorkspaces(ownerId: string): Promise<string[]> {
      const rows = await db
        .select({ workspaceId: qcBatches.workspaceId })
        .from(qcBatches)
        .where(and(eq(qcBatches.ownerId, ownerId), inArray(qcBatches.status, UNFINISHED)))
        .orderBy(asc(qcBatches.createdAt));
      return rows.map((row) => row.workspaceId);
    },

    /** One batch of the workspace with its progress; 404 when unknown or another workspace's. */
    async findInWorkspace(workspaceId: string, id: string): Promise<QcBatch> {
      const [batch] = await withProgress([await rowInWorkspace(workspaceId, id)]);
      return batch!;
    },

    /** The workspace's most recent batches, whoever started them, newest first. */
    async listForWorkspace(workspaceId: string, limit = 20): Promise<QcBatch[]> {
      const rows = await db
        .select()
        .from(qcBatches)
        .where(eq(qcBatches.workspaceId, workspaceId))
        .orderBy(desc(qcBatches.createdAt), desc(qcBatches.id))
        .limit(limit);
      return withProgress(rows);
    },

    /** Stops a queued or running batch of the workspace (one already over is left as it is); 404 when not its. */
    async cancel(workspaceId: string, id: string, now: Date): Promise<QcBatch> {
      await rowInWorkspace(workspaceId, id);
      await db
        .update(qcBatches)
        .set({ status: 'cancelled', finishedAt: now, leaseExpiresAt: null })
        .where(and(eq(qcBatches.id, id), inArray(qcBatches.status, UNFINISHED)));
      return this.findInWorkspace(workspaceId, id);
    },

    /** A page of the workspace's batch results in the batch's order. */
    async results(workspaceId: string, id: string, offset: number, limit: number) {
      await rowInWorkspace(workspaceId, id);
      const [{ total } = { total: 0 }] = await db
        .select({ total: sql<number>`count(*)::int` })
        .from(qcBatchItems)
        .where(eq(qcBatchItems.batchId, id));
      const rows = await db
        .select({ item: qcBatchItems, result: qcResults })
        .from(qcBatchItems)
        .leftJoin(qcResults, eq(qcResults.id, qcBatchItems.resultId))
        .where(eq(qcBatchItems.batchId, id))
        .orderBy(asc(qcBatchItems.position))
        .offset(offset)
        .limit(limit);
      const items: QcBatchResult[] = rows.map(({ item, result }) => {
        const metrics = (result?.metrics ?? null) as (Record<string, unknown> & { issues?: unknown }) | null;
        return {
          stored_filename: item.storedFilename,
          name: item.originalName,
          sha256: item.sha256,
          status: item.status as QcBatchResult['status'],
          error: item.error,
          result_id: result?.id ?? null,
          model: result?.model ?? null,
          verdict: (result?.verdict ?? null) as QcBatchResult['verdict'],
          confidence: result?.confidence ?? null,
          issues: Array.isArray(metrics?.issues) ? (metrics.issues as string[]) : [],
          metrics,
          checked_at: result?.createdAt.toISOString() ?? null,
        };
      });
      return { total, items };
    },

    /** Ids of unfinished batches no live replica holds (never leased, released, or whose lease lapsed). */
    async claimable(now: Date): Promise<string[]> {
      const rows = await db
        .select({ id: qcBatches.id })
        .from(qcBatches)
        .where(
          and(
            inArray(qcBatches.status, UNFINISHED),
            or(isNull(qcBatches.leaseExpiresAt), lt(qcBatches.leaseExpiresAt, now)),
          ),
        )
        .orderBy(asc(qcBatches.createdAt));
      return rows.map((r) => r.id);
    },

    /** Takes the lease of a batch when no one holds it: its owner, or undefined when another replica has it or it is over. */
    async claim(id: string, now: Date, leaseUntil: Date): Promise<{ ownerId: string } | undefined> {
      const [claimed] = await db
        .update(qcBatches)
        .set({
          status: 'running',
          leaseExpiresAt: leaseUntil,
          startedAt: sql`coalesce(${qcBatches.startedAt}, ${now.toISOString()}::timestamptz)`,
        })
        .where(
          and(
            eq(qcBatches.id, id),
            inArray(qcBatches.status, UNFINISHED),
            or(isNull(qcBatches.leaseExpiresAt), lt(qcBatches.leaseExpiresAt, now)),
          ),
        )
        .returning({ ownerId: qcBatches.ownerId });
      return claimed;
    },

    /** Renews the lease of a running batch; false once it was cancelled (or deleted with its owner). */
    async renew(id: string, leaseUntil: Date): Promise<boolean> {
      const renewed = await db
        .update(qcBatches)
        .set({ leaseExpiresAt: leaseUntil })
        .where(and(eq(qcBatches.id, id), eq(qcBatches.status, 'running')))
        .returning({ id: qcBatches.id });
      return renewed.length > 0;
    },

    /** Gives the lease back (on shutdown) so the next replica to start resumes the batch at once. */
    async release(id: string): Promise<void> {
      await db
        .update(qcBatches)
        .set({ leaseExpiresAt: null })
        .where(and(eq(qcBatches.id, id), eq(qcBatches.status, 'running')));
    },

    /** The next images of a batch still to check, in order, after position `after`. */
    async pending(id: string, after: number, limit: number): Promise<PendingItem[]> {
      return db
        .select({
          batchId: qcBatchItems.batchId,
          position: qcBatchItems.position,
          uploadId: qcBatchItems.uploadId,
          storedFilename: qcBatchItems.storedFilename,
          format: qcBatchItems.format,
        })
        .from(qcBatchItems)
        .where(and(eq(qcBatchItems.batchId, id), eq(qcBatchItems.status, 'pending'), gt(qcBatchItems.position, after)))
        .orderBy(asc(qcBatchItems.position))
        .limit(limit);
    },

    /** Stores the check of one image as a single check is stored, and marks the image done, in one transaction. */
    async recordResult(item: PendingItem, values: typeof qcResults.$inferInsert): Promise<void> {
      await db.transaction(async (tx) => {
        const [row] = await tx.insert(qcResults).values(values).returning();
        await recordEngineComment(tx, row!);
        await tx
          .update(qcBatchItems)
          .set({ status: 'done', resultId: row!.id })
          .where(and(eq(qcBatchItems.batchId, item.batchId), eq(qcBatchItems.position, item.position)));
      });
    },

    /** Marks one image as not checkable, with the reason to show. */
    async recordError(item: PendingItem, detail: string): Promise<void> {
      await db
        .update(qcBatchItems)
        .set({ status: 'error', error: detail })
        .where(and(eq(qcBatchItems.batchId, item.batchId), eq(qcBatchItems.position, item.position)));
    },

    /** Marks a running batch done once no image is pending. */
    async finish(id: string, now: Date): Promise<void> {
      await db
        .update(qcBatches)
        .set({ status: 'done', finishedAt: now, leaseExpiresAt: null })
        .where(
          and(
            eq(qcBatches.id, id),
            eq(qcBatches.status, 'running'),
            sql`not exists (select 1 from ${qcBatchItems} where ${qcBatchItems.batchId} = ${id} and ${qcBatchItems.status} = 'pending')`,
          ),
        );
    },
  };
}

export type QcBatchRepository = ReturnType<typeof createQcBatchRepository>;
