import v8 from 'node:v8';
import vm from 'node:vm';

/*
 * Every socket read of an upload arrives in a new 64 KB buffer that is garbage a moment later. V8
 * frees such buffers only when it collects, and by default counts them towards full collections: one
 * after every 64 MB of them, each marking the whole heap (the database engine, the imaging code). A
 * 1 GiB upload set off about 30 of them: two seconds of CPU, more than the SHA-256 of the same bytes.
 *
 * Two changes, measured with bench/upload.ts:
 * - the buffers count in V8's one overall heap limit instead of their own 64 MB one (the rule later V8
 *   versions adopt by default), so they no longer start full collections on their own;
 * - the streams that store bytes ask for a young-generation collection every YOUNG_EVERY_BYTES, which
 *   frees the dead buffers in about a millisecond, so memory stays flat while a large file streams.
 * Imported first by the server, before anything else allocates.
 */
v8.setFlagsFromString('--external-memory-accounted-in-global-limit');

// The collector is taken from a fresh context with the flag on for that instant only: nothing named
// `gc` ever appears on the server's global object.
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as (options: { type: 'minor' }) => void;
v8.setFlagsFromString('--no-expose-gc');

/** Bytes streamed between two young-generation collections. */
export const YOUNG_EVERY_BYTES = 16 * 1024 * 1024;

let streamedSinceCollection = 0;

/** Notes bytes that went through a storing stream; every YOUNG_EVERY_BYTES, frees the dead buffers. */
export function noteStreamedBytes(bytes: number): void {
  streamedSinceCollection += bytes;
  if (streamedSinceCollection < YOUNG_EVERY_BYTES) return;
  streamedSinceCollection = 0;
  collect({ type: 'minor' });
}
