import type { IncomingMessage } from 'node:http';

/** How much of a refused upload is still read so that the browser can see the refusal. */
export const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Reads and drops what is left of a request body, up to `limit` bytes. A browser shows an answer to an
 * upload only once it has sent the whole body; answering a refusal (415, 413) mid-stream and closing
 * would reach it as a network error without the `detail`. Resolves true when the body ended.
 */
export function drainRequest(raw: IncomingMessage, limit = DRAIN_LIMIT_BYTES): Promise<boolean> {
  if (raw.readableEnded || raw.destroyed) return Promise.resolve(true);
  // Whatever parser was reading the body lets go of it first.
  raw.unpipe();
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (ended: boolean) => {
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('close', onEnd);
      raw.off('error', onEnd);
      if (!ended) raw.pause();
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limit) finish(false);
    };
    const onEnd = () => finish(true);
    raw.on('data', onData);
    raw.once('end', onEnd);
    raw.once('close', onEnd);
    raw.once('error', onEnd);
    raw.resume();
  });
}
