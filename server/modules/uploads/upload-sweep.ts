import { inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../../db/connect.ts';
import type { Storage } from '../../storage/storage.ts';
import { uploads } from './uploads.table.ts';

/** Files checked against the database in one query. */
const BATCH = 500;
/** How often a running server sweeps, and how old a leftover must be to be swept then. */
export const SWEEP_EVERY_MS = 60 * 60_000;

/** What one sweep removed. */
export interface SweepCounts {
  /** Temporary files of writes that never finished. */
  unfinished: number;
  /** Stored files no upload row names (the server stopped between writing a file and its row, or a row and its file). */
  orphans: number;
}

/**
 * Removes what a crash can leave behind: temporary files last touched before `before`, and files under
 * `originals/` written before `before` that no upload row names. An upload writes its file before its
 * row and a deletion removes its row before its file, so a crash between the two leaves a file without a
 * row, never a row without a file; this finds and removes such files.
 */
export async function sweepUploads(db: Database, storage: Storage, before: Date): Promise<SweepCounts> {
  const unfinished = await storage.sweepUnfinished(before);
  let orphans = 0;
  let batch: string[] = [];
  const settle = async () => {
    const names = batch.map((key) => key.slice('originals/'.length));
    batch = [];
    const known = await db
      .select({ storedFilename: uploads.storedFilename })
      .from(uploads)
      .where(inArray(uploads.storedFilename, names));
    const named = new Set(known.map((row) => row.storedFilename));
    for (const name of names) {
      if (named.has(name)) continue;
      await storage.delete(`originals/${name}`);
      orphans++;
    }
  };
  for await (const object of storage.list('originals/')) {
    if (object.modified >= before) continue;
    batch.push(object.key);
    if (batch.length >= BATCH) await settle();
  }
  if (batch.length > 0) await settle();
  return { unfinished, orphans };
}

/**
 * Sweeps when the server starts, then every SWEEP_EVERY_MS. At start on local disk nothing else can be
 * writing (the folder belongs to this process), so every leftover goes; on S3, shared by replicas, and in
 * later sweeps, only leftovers older than SWEEP_EVERY_MS, so a write under way is never taken for one.
 */
export default fp(async function uploadSweep(app: FastifyInstance) {
  const shared = Boolean(app.config.storageUrl);
  const run = async (graceMs: number) => {
    try {
      const counts = await sweepUploads(app.db, app.storage, new Date(Date.now() - graceMs));
      if (counts.unfinished || counts.orphans) app.log.info(counts, 'removed files left by an interrupted write');
    } catch (error) {
      app.log.error({ err: error }, 'sweeping unfinished and orphan files failed');
    }
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    await run(shared ? SWEEP_EVERY_MS : 0);
    timer = setInterval(() => void run(SWEEP_EVERY_MS), SWEEP_EVERY_MS).unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
});
