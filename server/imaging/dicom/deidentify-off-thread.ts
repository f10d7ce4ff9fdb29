import { Worker } from 'node:worker_threads';
import { TooLargeError } from '../../storage/storage.ts';

/** A de-identified file and the SHA-256 of its bytes. */
export interface CleanDicom {
  bytes: Uint8Array;
  sha256: string;
}

/** A de-identified file written to disk: its size and SHA-256. */
export interface WrittenDicom {
  size: number;
  sha256: string;
}

/** The file could not be de-identified; its message is meant for the uploader. */
export class UnreadableDicomError extends Error {
  constructor(reason = 'This DICOM file could not be read.') {
    super(reason);
    this.name = 'UnreadableDicomError';
  }
}

interface Answer {
  id: number;
  bytes?: Uint8Array;
  size?: number;
  sha256?: string;
  failed?: 'unreadable' | 'too-large' | 'write';
  undecodable?: string;
  code?: string;
  message?: string;
}

interface Pending {
  resolve(answer: Answer): void;
  reject(error: Error): void;
  limit?: number;
}

/**
 * Two threads: a file waits on the disk while it is written, and meanwhile the other thread cleans the
 * next one. More would only take turns on the same two cores the main thread needs.
 */
const THREADS = 2;

interface CleaningThread {
  worker: Worker;
  pending: Map<number, Pending>;
}

const threads: (CleaningThread | undefined)[] = Array.from({ length: THREADS });
let nextId = 0;

function failAll(slot: number, error: Error) {
  const thread = threads[slot];
  threads[slot] = undefined;
  for (const job of thread?.pending.values() ?? []) job.reject(error);
}

function errorOf(answer: Answer, limit: number | undefined): Error {
  if (answer.failed === 'unreadable') return new UnreadableDicomError(answer.undecodable);
  if (answer.failed === 'too-large') return new TooLargeError(limit!);
  return Object.assign(new Error(answer.message), { code: answer.code });
}

/** The thread in `slot`, started on first use; it never keeps the process alive. */
function cleaningThread(slot: number): CleaningThread {
  const running = threads[slot];
  if (running) return running;
  const worker = new Worker(new URL('./deidentify-worker.ts', import.meta.url));
  worker.unref();
  const thread: CleaningThread = { worker, pending: new Map() };
  worker.on('message', (answer: Answer) => {
    const job = thread.pending.get(answer.id);
    if (!job) return;
    thread.pending.delete(answer.id);
    if (answer.failed) job.reject(errorOf(answer, job.limit));
    else job.resolve(answer);
  });
  worker.on('error', (error) => failAll(slot, error));
  worker.on('exit', (code) => failAll(slot, new Error(`The de-identifying thread stopped (exit code ${code})`)));
  return (threads[slot] = thread);
}

/** The thread with the fewest files waiting. */
function leastBusy(): CleaningThread {
  let best = cleaningThread(0);
  for (let slot = 1; slot < THREADS && best.pending.size > 0; slot++) {
    const other = cleaningThread(slot);
    if (other.pending.size < best.pending.size) best = other;
  }
  return best;
}

function postJob(input: Uint8Array, salt: string, file?: string, limit?: number): Promise<Answer> {
  // A view into a larger buffer (a pooled Buffer) is copied: transferring would take the whole buffer away.
  const own = input.byteOffset === 0 && input.byteLength === input.buffer.byteLength ? input : input.slice();
  const id = nextId++;
  const thread = leastBusy();
  return new Promise<Answer>((resolve, reject) => {
    thread.pending.set(id, { resolve, reject, limit });
    thread.worker.postMessage({ id, bytes: own, salt, file, limit }, [own.buffer as ArrayBuffer]);
  });
}

/**
 * De-identifies a DICOM file (see deidentifyDicom) and hashes the result on a thread of its own. Parsing
 * and rewriting a file takes time in proportion to its size, a quarter of a millisecond for one 128 KiB
 * slice and far more for a large multi-frame file, during which no other request would move on the event
 * loop. `input` is transferred to the thread when it owns its whole buffer, so the caller must not use it
 * afterwards.
 */
export async function deidentifyOffThread(input: Uint8Array, salt: string): Promise<CleanDicom> {
  const { bytes, sha256 } = await postJob(input, salt);
  return { bytes: bytes!, sha256: sha256! };
}

/**
 * De-identifies a DICOM file like deidentifyOffThread and writes the result to the new `file` from the
 * same thread, returning once its bytes are on disk: the file never exists with identifying values, and
 * the bytes never come back to the main thread. Fails if `file` exists (nothing is overwritten), with
 * TooLargeError and nothing written when the result is larger than `limit`, and leaves no file behind
 * when a write fails. `file`'s folder is made when missing.
 */
export async function deidentifyToFile(
  input: Uint8Array,
  salt: string,
  file: string,
  limit?: number,
): Promise<WrittenDicom> {
  const { size, sha256 } = await postJob(input, salt, file, limit);
  return { size: size!, sha256: sha256! };
}
