import { Worker } from 'node:worker_threads';

/** A de-identified file and the SHA-256 of its bytes. */
export interface CleanDicom {
  bytes: Uint8Array;
  sha256: string;
}

/** The file could not be de-identified; its message is meant for the uploader. */
export class UnreadableDicomError extends Error {
  constructor(reason = 'This DICOM file could not be read.') {
    super(reason);
    this.name = 'UnreadableDicomError';
  }
}

interface Pending {
  resolve(clean: CleanDicom): void;
  reject(error: Error): void;
}

interface Answer {
  id: number;
  bytes?: Uint8Array;
  sha256?: string;
  failed?: boolean;
  undecodable?: string;
}

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, Pending>();

function failAll(error: Error) {
  worker = undefined;
  for (const job of pending.values()) job.reject(error);
  pending.clear();
}

/** One long-lived de-identifying thread for the process, started on first use; it never keeps the process alive. */
function cleaningThread(): Worker {
  if (worker) return worker;
  const started = new Worker(new URL('./deidentify-worker.ts', import.meta.url));
  started.unref();
  started.on('message', ({ id, bytes, sha256, failed, undecodable }: Answer) => {
    const job = pending.get(id);
    if (!job) return;
    pending.delete(id);
    if (failed) job.reject(new UnreadableDicomError(undecodable));
    else job.resolve({ bytes: bytes!, sha256: sha256! });
  });
  started.on('error', failAll);
  started.on('exit', (code) => failAll(new Error(`The de-identifying thread stopped (exit code ${code})`)));
  return (worker = started);
}

/**
 * De-identifies a DICOM file (see deidentifyDicom) and hashes the result on a thread of its own. Parsing
 * and rewriting a file takes the event loop's time in proportion to its size, a quarter of a millisecond
 * for one 128 KiB slice and far more for a large multi-frame file, during which no other request moves;
 * here it runs beside the event loop, on the other core. `input` is transferred to the thread when it
 * owns its whole buffer, so the caller must not use it afterwards.
 */
export function deidentifyOffThread(input: Uint8Array, salt: string): Promise<CleanDicom> {
  // A view into a larger buffer (a pooled Buffer) is copied: transferring would take the whole buffer away.
  const own = input.byteOffset === 0 && input.byteLength === input.buffer.byteLength ? input : input.slice();
  const id = nextId++;
  const thread = cleaningThread();
  return new Promise<CleanDicom>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    thread.postMessage({ id, bytes: own, salt }, [own.buffer as ArrayBuffer]);
  });
}
