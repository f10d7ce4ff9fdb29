import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { TooLargeError } from './storage.ts';

/** A pass-through stage that counts, limits and hashes the bytes of an object being stored. */
export interface MeteredBody {
  stream: Transform;
  /** Bytes seen so far. */
  size(): number;
  /** The hex SHA-256 of every byte seen, once the stream has ended. */
  digest(): Promise<string>;
}

/**
 * Counts and hashes what flows through, failing with TooLargeError past `limit`. The hash runs on the
 * event loop chunk by chunk (tens of microseconds per socket read), which keeps it simple and in order.
 */
export function meteredBody(limit: number | undefined): MeteredBody {
  const hash = createHash('sha256');
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (limit !== undefined && size > limit) return done(new TooLargeError(limit));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  return { stream, size: () => size, digest: async () => hash.digest('hex') };
}
