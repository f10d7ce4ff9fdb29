import { availableParallelism } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../http-errors.ts';
import { runImagingTask } from '../../workers/imaging-pool.ts';
import { MAX_DECODE_BYTES, readObject } from '../previews/volume-loader.ts';
import { uploadStorageKey } from '../uploads/uploads.repository.ts';
import { checkRow } from './builtin-check.ts';
import type { PendingItem } from './qc-batch.repository.ts';
import { batchCohorts, createCohortSource } from './qc-cohort.ts';

type BatchCohorts = ReturnType<typeof batchCohorts>;

/** How long a replica holds a batch without renewing; after a crash another resumes it this much later. */
export const LEASE_MS = 60_000;
const RENEW_MS = 15_000;
/** How often a replica looks for batches nobody holds (queued elsewhere, or left by a crashed replica). */
const SCAN_MS = 30_000;
/** Images read from the database at a time. */
const CHUNK = 32;
/** Batches one replica works on at once; others wait, queued, until one ends. */
const RUNNING_BATCHES = 2;
/**
 * Images in flight per batch: one more than the imaging pool's threads (a core each but the event loop's),
 * so reading and storing one image overlaps with checking another.
 */
const LANES = Math.max(1, availableParallelism() - 1) + 1;
const UNMEASURABLE = 'This image could not be measured.';

/**
 * Runs batch checks in the background: claims a batch by its lease, checks its images on the imaging pool
 * (the threads that also decode previews) and stores each result as a single check is stored. A batch survives a restart:
 * its images are marked one by one, and whichever replica next holds its lease carries on where it stopped.
 */
export function createBatchRunner(app: FastifyInstance) {
  const repo = app.repos.qcBatches;
  const cohortSource = createCohortSource({ db: app.db });
  const active = new Map<string, Promise<void>>();
  const cancelled = new Set<string>();
  let scan: NodeJS.Timeout | undefined;
  let closing = false;

  const leaseUntil = () => new Date(app.clock().getTime() + LEASE_MS);
  // Compressed data inside a file expands no further than for a preview of it.
  const limits = { maxExpandedBytes: Math.min(app.config.uploadMaxBytes, MAX_DECODE_BYTES) };

  async function checkItem(item: PendingItem, ownerId: string, cohorts: BatchCohorts): Promise<void> {
    try {
      const bytes = await readObject(app.storage, uploadStorageKey(item.storedFilename));
      // Moved to the thread, not copied; a small read may share Node's pooled buffer, which must not move.
      const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
      const input = own ? bytes : bytes.slice();
      const answer = await runImagingTask('check', { bytes: input, hint: item.format, limits }, [
        input.buffer as ArrayBuffer,
      ]);
      if (!answer.ok) return await repo.recordError(item, answer.detail);
      const cohort = await cohorts.place(item.uploadId, answer.metrics);
      await repo.recordResult(
        item,
        checkRow({ uploadId: item.uploadId, ownerId }, answer, app.clock(), undefined, cohort),
      );
    } catch (error) {
      if (error instanceof HttpError) return await repo.recordError(item, error.detail);
      app.log.error({ err: error, upload: item.storedFilename }, 'batch check of one image failed');
      await repo.recordError(item, UNMEASURABLE).catch(() => undefined);
    }
  }

  async function run(id: string): Promise<void> {
    const claimed = await repo.claim(id, app.clock(), leaseUntil());
    if (!claimed) return;
    let live = true;
    const keepLease = async () => {
      live = live && !cancelled.has(id) && (await repo.renew(id, leaseUntil()));
    };
    const renewal = setInterval(() => void keepLease().catch(() => undefined), RENEW_MS);
    renewal.unref();
    // Each image is placed among the owner's earlier ones and those checked before it in this batch.
    const cohorts = batchCohorts(cohortSource, claimed.ownerId);
    const queue: PendingItem[] = [];
    let after = -1;
    let exhausted = false;
    let refill: Promise<void> | undefined;
    const next = async (): Promise<PendingItem | undefined> => {
      while (queue.length === 0 && !exhausted && live) {
        refill ??= (async () => {
          const items = await repo.pending(id, after, CHUNK);
          if (items.length === 0) exhausted = true;
          else {
            queue.push(...items);
            after = items.at(-1)!.position;
          }
          await keepLease();
        })().finally(() => (refill = undefined));
        await refill;
      }
      return live && !closing && !cancelled.has(id) ? queue.shift() : undefined;
    };
    try {
      await Promise.all(
        Array.from({ length: LANES }, async () => {
          for (let item = await next(); item; item = await next()) await checkItem(item, claimed.ownerId, cohorts);
        }),
      );
      if (exhausted && live && !closing) await repo.finish(id, app.clock());
      else if (closing && live) await repo.release(id);
    } finally {
      clearInterval(renewal);
      cancelled.delete(id);
    }
  }

  const runner = {
    /** Starts (or resumes) a batch on this replica when it has room and no other replica holds it. */
    start(id: string): void {
      if (closing || active.has(id) || active.size >= RUNNING_BATCHES) return;
      const work = run(id)
        .catch((error) => app.log.error({ err: error, batch: id }, 'batch check stopped'))
        .finally(() => {
          active.delete(id);
          if (!closing) void runner.resumeWaiting();
        });
      active.set(id, work);
    },
    /** Stops a batch this replica is running after the images in flight (others see it at their next renewal). */
    cancelled(id: string): void {
      if (active.has(id)) cancelled.add(id);
    },
    /** Starts the batches nobody holds: queued ones, and those of a replica that stopped or crashed. */
    async resumeWaiting(): Promise<void> {
      if (closing) return;
      try {
        for (const id of await repo.claimable(app.clock())) runner.start(id);
      } catch (error) {
        app.log.error({ err: error }, 'looking for batch checks to resume failed');
      }
    },
    /** Resumes waiting batches now and looks again every 30 s. */
    async open(): Promise<void> {
      await runner.resumeWaiting();
      scan = setInterval(() => void runner.resumeWaiting(), SCAN_MS);
      scan.unref();
    },
    /** Lets the images in flight finish and hands the leases back. */
    async close(): Promise<void> {
      closing = true;
      clearInterval(scan);
      await Promise.allSettled(active.values());
    },
  };
  return runner;
}

export type BatchRunner = ReturnType<typeof createBatchRunner>;
