import type { Readable } from 'node:stream';

/** What is known about a stored object. */
export interface ObjectStat {
  size: number;
  modified: Date;
}

/** A byte range, both ends included, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

/** Where uploaded bytes live: local disk by default, an S3-compatible bucket at scale. */
export interface Storage {
  /**
   * Writes the stream under `key` atomically: readers see the whole object or nothing. Bytes already
   * held in memory are for a key nothing refers to yet (an upload's new server-made name), which no
   * reader can ask for before the write ends: disk writes them in place, and never over an existing
   * object. `limit` aborts with TooLargeError once more bytes than that arrive; nothing is
   * left behind. `sha256` is the hash of held bytes when the caller already made it; a store may use it
   * instead of hashing them again.
   */
  put(
    key: string,
    body: Readable | Uint8Array,
    options?: { limit?: number; sha256?: string },
  ): Promise<{ size: number; sha256: string }>;
  get(key: string, range?: ByteRange): Promise<Readable>;
  stat(key: string): Promise<ObjectStat | undefined>;
  delete(key: string): Promise<void>;
  /** The objects whose keys start with `prefix` (a folder such as `originals/`), with when each was written. */
  list(prefix: string): AsyncIterable<{ key: string; modified: Date }>;
  /**
   * Removes the leftovers of writes that never finished (a crash mid-upload) last touched before `before`;
   * answers how many. A store whose unfinished writes are never visible (S3) has nothing to remove.
   */
  sweepUnfinished(before: Date): Promise<number>;
  /** Confirms the store is reachable and writable; used by the health check. */
  check(): Promise<void>;
}

/** More bytes arrived than the limit allows. */
export class TooLargeError extends Error {
  constructor(limit: number) {
    super(`Object exceeds ${limit} bytes`);
    this.name = 'TooLargeError';
  }
}

const keyPattern = /^[a-z0-9][a-z0-9._-]{0,127}(\/[a-z0-9][a-z0-9._-]{0,127}){0,3}$/;

/** Storage keys are server-made; anything else is refused so a key can never climb out of the store. */
export function assertSafeKey(key: string): void {
  if (!keyPattern.test(key) || key.includes('..')) throw new Error(`Unsafe storage key: ${key}`);
}
