import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';

/** A SHA-256 whose work runs on another thread. */
export interface BackgroundHash {
  /** Adds bytes (copied at once); returns a promise when the caller should wait before adding more. */
  update(chunk: Uint8Array): Promise<void> | undefined;
  /** The hex digest of everything added. */
  digest(): Promise<string>;
  /** Forgets the job (an upload that failed). */
  abort(): void;
}

/** Bytes sent to the worker in one message: few messages, little memory. */
const BATCH_BYTES = 1024 * 1024;
/** Batches a job may have waiting on the worker before its stream is held back (memory bound per upload). */
const MAX_IN_FLIGHT = 4;

interface Job {
  /** Batches sent and not yet acknowledged. */
  inFlight: number;
  /** Called at the next acknowledgement (or failure). */
  waiters: ((error?: Error) => void)[];
  finish?: { resolve(digest: string): void; reject(error: Error): void };
}

/** Batch buffers handed back by the worker, ready to be filled again. */
const spare: ArrayBuffer[] = [];
const MAX_SPARE = 16;

const newBatch = () => {
  const reused = spare.pop();
  return reused ? Buffer.from(reused) : Buffer.allocUnsafeSlow(BATCH_BYTES);
};

let worker: Worker | undefined;
let nextId = 0;
const jobs = new Map<number, Job>();

/** Keeps a batch buffer for reuse, up to a few of them. */
function recycle(bytes: Uint8Array) {
  if (bytes.buffer.byteLength === BATCH_BYTES && spare.length < MAX_SPARE) spare.push(bytes.buffer as ArrayBuffer);
}

function failAll(error: Error) {
  worker = undefined;
  for (const job of jobs.values()) {
    for (const wake of job.waiters.splice(0)) wake(error);
    job.finish?.reject(error);
  }
  jobs.clear();
}

/** One long-lived hashing thread for the process, started on first use; it never keeps the process alive. */
function hashingThread(): Worker {
  if (worker) return worker;
  const started = new Worker(new URL('./sha256-worker.ts', import.meta.url));
  started.unref();
  started.on('message', ({ id, digest, bytes }: { id: number; digest?: string; bytes?: Uint8Array }) => {
    if (bytes) recycle(bytes);
    const job = jobs.get(id);
    if (!job) return;
    if (digest === undefined) {
      job.inFlight--;
      for (const wake of job.waiters.splice(0)) wake();
      return;
    }
    jobs.delete(id);
    job.finish?.resolve(digest);
  });
  started.on('error', failAll);
  started.on('exit', (code) => failAll(new Error(`The hashing thread stopped (exit code ${code})`)));
  return (worker = started);
}

/**
 * Starts a SHA-256 on the hashing thread. Hashing 1 GiB takes about a second of CPU; done here, it runs
 * beside the event loop (on the other core) instead of between the reads and writes of the upload.
 * Objects smaller than one batch never reach the thread: they are hashed at once when the digest is asked.
 */
export function backgroundSha256(): BackgroundHash {
  const id = nextId++;
  const job: Job = { inFlight: 0, waiters: [] };
  jobs.set(id, job);
  let batch = newBatch();
  let filled = 0;
  let sentAny = false;
  let failed: Error | undefined;

  const send = (end: boolean): Promise<void> | undefined => {
    const bytes = batch.subarray(0, filled);
    sentAny = true;
    // Transferred, not copied: the batch belongs to the worker from here on.
    hashingThread().postMessage({ id, bytes, end }, [bytes.buffer]);
    batch = end ? Buffer.alloc(0) : newBatch();
    filled = 0;
    if (end || ++job.inFlight < MAX_IN_FLIGHT) return undefined;
    return new Promise<void>((resolve, reject) =>
      job.waiters.push((error) => (error ? reject((failed = error)) : resolve())),
    );
  };

  return {
    update(chunk) {
      if (failed) return Promise.reject(failed);
      let wait: Promise<void> | undefined;
      for (let at = 0; at < chunk.length;) {
        const take = Math.min(chunk.length - at, BATCH_BYTES - filled);
        batch.set(chunk.subarray(at, at + take), filled);
        filled += take;
        at += take;
        if (filled === BATCH_BYTES) wait = send(false) ?? wait;
      }
      return wait;
    },
    digest() {
      if (failed) return Promise.reject(failed);
      if (!sentAny) {
        // Under one batch (a DICOM slice, a preview) hashing here takes less than the round trip would.
        jobs.delete(id);
        const digest = createHash('sha256').update(batch.subarray(0, filled)).digest('hex');
        recycle(batch);
        return Promise.resolve(digest);
      }
      const result = new Promise<string>((resolve, reject) => (job.finish = { resolve, reject }));
      send(true);
      return result;
    },
    abort() {
      jobs.delete(id);
      worker?.postMessage({ id, abort: true });
    },
  };
}

/** The hex SHA-256 of bytes already in memory, on the hashing thread once they pass one batch. */
export async function sha256Of(bytes: Uint8Array): Promise<string> {
  const hash = backgroundSha256();
  try {
    // A batch at a time, each wait honoured: a large object is never copied whole into the queue.
    for (let at = 0; at < bytes.length; at += BATCH_BYTES) await hash.update(bytes.subarray(at, at + BATCH_BYTES));
    return await hash.digest();
  } catch (error) {
    hash.abort();
    throw error;
  }
}
