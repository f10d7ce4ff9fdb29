// What a server process does while it is attacked: how long `/api/v1/health` takes to answer, asked every
// 20 ms, and its resident memory (VmRSS), read at the same pace. Both run on a thread of their own
// (server-watch-thread.ts), so the benchmark's own work never delays a health answer it measures.
import { Worker } from 'node:worker_threads';
import type { WatchFigures } from './server-rss.ts';

export type { WatchFigures } from './server-rss.ts';

/** Starts watching `pid` at `baseUrl`, killing it past `rssCapBytes` (0: never); `stop()` hands back the figures. */
export async function watchServer(
  baseUrl: string,
  pid: number,
  rssCapBytes = 0,
): Promise<{ stop(): Promise<WatchFigures> }> {
  const worker = new Worker(new URL('./server-watch-thread.ts', import.meta.url), {
    workerData: { baseUrl, pid, rssCapBytes },
  });
  await new Promise((resolve, reject) => {
    worker.once('online', resolve);
    worker.once('error', reject);
  });
  return {
    stop: () =>
      new Promise<WatchFigures>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.postMessage('stop');
      }),
  };
}
