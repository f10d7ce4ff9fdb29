import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { YOUNG_EVERY_BYTES } from '../../../server/gc-tuning.ts';
import { meteredBody } from '../../../server/storage/metered-body.ts';

/** Runs `work` and returns the kinds of garbage collection that happened meanwhile. */
async function collectionsDuring(work: () => Promise<void>): Promise<{ minor: number; major: number }> {
  const entries: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => entries.push(...list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  await work();
  // Entries are delivered after the collection, on a later turn.
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  const kinds = entries.map((entry) => (entry as PerformanceEntry & { detail: { kind: number } }).detail.kind);
  return {
    minor: kinds.filter((kind) => kind === constants.NODE_PERFORMANCE_GC_MINOR).length,
    major: kinds.filter((kind) => kind === constants.NODE_PERFORMANCE_GC_MAJOR).length,
  };
}

/** Streams `total` bytes, in fresh 64 KB buffers like socket reads, through a metered body. */
async function streamThroughMeter(total: number) {
  const meter = meteredBody(undefined);
  async function* socketReads() {
    for (let sent = 0; sent < total; sent += 65_536) yield Buffer.alloc(65_536, sent & 0xff);
  }
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  await pipeline(Readable.from(socketReads()), meter.stream, sink);
  await meter.digest();
}

describe('garbage collection while bytes stream to storage', () => {
  it('frees the buffers with young collections, not full ones', async () => {
    const total = 512 * 1024 * 1024;
    const { minor, major } = await collectionsDuring(() => streamThroughMeter(total));
    // By default V8 ran a full collection after every 64 MB of such buffers: eight here.
    expect(major).toBeLessThanOrEqual(2);
    expect(minor).toBeGreaterThanOrEqual(total / YOUNG_EVERY_BYTES);
  });

  it('keeps the collector off the global object', () => {
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
