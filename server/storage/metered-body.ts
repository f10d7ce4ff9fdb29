import { Transform } from 'node:stream';
import { backgroundSha256 } from './background-hash.ts';
import { TooLargeError } from './storage.ts';

/** A pass-through stage that counts, limits and hashes the bytes of an object being stored. */
export interface MeteredBody {
  stream: Transform;
  /** Bytes seen so far. */
  size(): number;
  /** The hex SHA-256 of every byte seen, once the stream has ended. */
  digest(): Promise<string>;
  /** Drops the hashing job of a write that failed. */
  abort(): void;
}

/**
 * Counts and hashes what flows through, failing with TooLargeError past `limit`. The hash runs on the
 * hashing thread and holds the stream back when that thread falls behind, so memory stays bounded.
 */
export function meteredBody(limit: number | undefined): MeteredBody {
  const hash = backgroundSha256();
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (limit !== undefined && size > limit) return done(new TooLargeError(limit));
      const room = hash.update(chunk);
      if (!room) return done(null, chunk);
      room.then(() => done(null, chunk), done);
    },
  });
  return { stream, size: () => size, digest: () => hash.digest(), abort: () => hash.abort() };
}
