import { desc, eq, sql } from 'drizzle-orm';
import type { ActivityItem, Metrics } from '../../../contract/metrics.ts';
import type { Database } from '../../db/connect.ts';
import { qcResults } from '../qc/qc.table.ts';
import { uploads } from '../uploads/uploads.table.ts';

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The Overview's figures, computed from the database for one workspace. */
export function createMetricsRepository({ db }: { db: Database }) {
  return {
    /** Total images, images with at least one QC result, and bytes stored. */
    async forWorkspace(workspaceId: string): Promise<Metrics> {
      const [row] = await db
        .select({
          total: sql<string>`count(*)`,
          bytes: sql<string>`coalesce(sum(${uploads.sizeBytes}), 0)`,
          // Written out in full: drizzle leaves column names unqualified, which the subquery would misread.
          analyzed: sql<string>`count(*) filter (where exists (select 1 from qc_results q where q.upload_id = uploads.id))`,
        })
        .from(uploads)
        .where(eq(uploads.workspaceId, workspaceId));
      return {
        total_images: Number(row?.total ?? 0),
        analyzed_images: Number(row?.analyzed ?? 0),
        storage_bytes: Number(row?.bytes ?? 0),
      };
    },

    /** The workspace's latest uploads and checks, newest first. */
    async recentActivity(workspaceId: string, limit = 10): Promise<ActivityItem[]> {
      const [added, checked] = await Promise.all([
        db
          .select({ name: uploads.originalName, storedFilename: uploads.storedFilename, at: uploads.createdAt })
          .from(uploads)
          .where(eq(uploads.workspaceId, workspaceId))
          .orderBy(desc(uploads.createdAt))
          .limit(limit),
        db
          .select({
            name: uploads.originalName,
            storedFilename: uploads.storedFilename,
            verdict: qcResults.verdict,
            at: qcResults.createdAt,
          })
          .from(qcResults)
          .innerJoin(uploads, eq(uploads.id, qcResults.uploadId))
          .where(eq(uploads.workspaceId, workspaceId))
          .orderBy(desc(qcResults.createdAt))
          .limit(limit),
      ]);
      const items: (ActivityItem & { ms: number })[] = [
        ...added.map((r) => ({ kind: 'upload' as const, verdict: null, ...common(r) })),
        ...checked.map((r) => ({ kind: 'qc' as const, verdict: r.verdict, ...common(r) })),
      ];
      return items
        .sort((a, b) => b.ms - a.ms)
        .slice(0, limit)
        .map(({ kind, name, stored_filename, verdict, at }) => ({ kind, name, stored_filename, verdict, at }));
    },
  };
}

function common(row: { name: string; storedFilename: string; at: Date }) {
  return { name: row.name, stored_filename: row.storedFilename, at: epochSeconds(row.at), ms: row.at.getTime() };
}
