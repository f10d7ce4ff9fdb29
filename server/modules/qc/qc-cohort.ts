// The cohort a check is compared with: the caller's earlier checked images of the same modality family
// (and protocol, where DICOM names one) in the same workspace, measured by the same engine version, as
// MRIQC's group reports compare a scan with its site's others. Read from the stored results, latest per image.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/connect.ts';
import { cohortContext, type CohortContext } from '../../imaging/cohort.ts';
import type { QualityMetrics } from '../../imaging/metrics/quality-metrics.ts';
import { uploads } from '../uploads/uploads.table.ts';
import { BUILTIN_MODEL } from './qc-summary.ts';
import { qcResults } from './qc.table.ts';

/** Most recent checks read for a cohort, and images compared with: enough for stable medians, and quick. */
export const COHORT_READ_LIMIT = 300;

/** A stored check's measurements with the image they belong to. */
export interface CohortPeer {
  uploadId: string;
  metrics: QualityMetrics;
}

/** Whether a stored metrics object has what a cohort compares: a family and numeric measures. */
function isMetrics(value: unknown): value is QualityMetrics {
  const m = value as Partial<QualityMetrics> | null;
  return !!m && typeof m.family === 'string' && !!m.measures && typeof m.measures === 'object';
}

/** The image's cohort context among `peers`, leaving out every earlier check of the same image. */
export function contextAmong(
  metrics: QualityMetrics,
  uploadId: string,
  peers: readonly CohortPeer[],
): CohortContext | undefined {
  const others: QualityMetrics[] = [];
  for (const p of peers) {
    if (others.length >= COHORT_READ_LIMIT) break;
    if (p.uploadId !== uploadId) others.push(p.metrics);
  }
  return cohortContext(metrics, others);
}

/** Reads cohorts from the stored checks. */
export function createCohortSource({ db }: { db: Database }) {
  return {
    /**
     * The latest check of each image the owner checked in the workspace of `uploadId`, of the given family
     * (and protocol, when given), newest first; the image itself is left to contextAmong.
     */
    async peers(ownerId: string, uploadId: string, family: string, protocol?: string): Promise<CohortPeer[]> {
      const workspace = db.select({ id: uploads.workspaceId }).from(uploads).where(eq(uploads.id, uploadId));
      const rows = await db
        .select({ uploadId: qcResults.uploadId, metrics: qcResults.metrics })
        .from(qcResults)
        .innerJoin(uploads, eq(uploads.id, qcResults.uploadId))
        .where(
          and(
            eq(qcResults.ownerId, ownerId),
            sql`${uploads.workspaceId} = (${workspace})`,
            sql`${qcResults.metrics}->>'family' = ${family}`,
            // Measurements of another engine version may differ in unit or limits: they are not compared.
            sql`${qcResults.metrics}->>'engine' = ${BUILTIN_MODEL}`,
            protocol ? sql`${qcResults.metrics}->>'protocol' = ${protocol}` : undefined,
          ),
        )
        .orderBy(desc(qcResults.createdAt), desc(qcResults.id))
        .limit(COHORT_READ_LIMIT);
      const seen = new Set<string>();
      const peers: CohortPeer[] = [];
      for (const row of rows) {
        if (seen.has(row.uploadId) || !isMetrics(row.metrics)) continue;
        seen.add(row.uploadId);
        peers.push({ uploadId: row.uploadId, metrics: row.metrics });
      }
      return peers;
    },
  };
}

export type CohortSource = ReturnType<typeof createCohortSource>;

/**
 * Cohorts for one batch: each family's (and protocol's) peers are read once, when its first image is checked,
 * then every image checked in the batch joins them, so a batch of a thousand reads the database a few times.
 */
export function batchCohorts(source: CohortSource, ownerId: string) {
  const cohorts = new Map<string, Promise<CohortPeer[]>>();
  return {
    /** The image's context among the cohort so far; the image then joins the cohort. */
    async place(uploadId: string, metrics: QualityMetrics): Promise<CohortContext | undefined> {
      const key = `${metrics.family}\u0000${metrics.protocol ?? ''}`;
      let peers = cohorts.get(key);
      if (!peers) {
        peers = source.peers(ownerId, uploadId, metrics.family, metrics.protocol);
        cohorts.set(key, peers);
      }
      const list = await peers;
      const context = contextAmong(metrics, uploadId, list);
      list.unshift({ uploadId, metrics });
      return context;
    },
  };
}
