// The thread behind background-hash.ts: one SHA-256 per job id, fed batches in order by the main thread.
import { createHash, type Hash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';

/** A message from the main thread: bytes to add, or the end (digest) or abandonment of a job. */
interface HashMessage {
  id: number;
  bytes?: Uint8Array;
  end?: boolean;
  abort?: boolean;
}

const jobs = new Map<number, Hash>();

parentPort!.on('message', ({ id, bytes, end, abort }: HashMessage) => {
  if (abort) return void jobs.delete(id);
  let hash = jobs.get(id);
  if (!hash) jobs.set(id, (hash = createHash('sha256')));
  if (bytes) hash.update(bytes);
  // The batch goes back to be filled again: reused buffers spare the garbage collector a GiB of allocations.
  if (!end) return parentPort!.postMessage({ id, bytes }, bytes ? [bytes.buffer as ArrayBuffer] : []);
  jobs.delete(id);
  parentPort!.postMessage({ id, digest: hash.digest('hex') });
});
