// The thread behind server-watch.ts: asks `/api/v1/health` every 20 ms and reads the server's VmRSS at the same
// pace, apart from the benchmark's own event loop, which is busy making and sending attack bodies.
import { parentPort, workerData } from 'node:worker_threads';
import { Agent, request } from 'undici';
import { rssBytes, type WatchFigures } from './server-rss.ts';

const { baseUrl, pid, rssCapBytes } = workerData as { baseUrl: string; pid: number; rssCapBytes: number };
const POLL_MS = 20;
// Its own connection: health requests never queue behind the attack's.
const agent = new Agent({ connections: 1, headersTimeout: 600_000, bodyTimeout: 600_000 });
const baselineRssBytes = rssBytes(pid);
const figures: WatchFigures = {
  longestHealthMs: 0,
  healthChecks: 0,
  healthFailures: 0,
  baselineRssBytes,
  peakRssBytes: baselineRssBytes,
};
let running = true;
let pendingSince: number | undefined;

const memory = setInterval(() => {
  const rss = rssBytes(pid);
  figures.peakRssBytes = Math.max(figures.peakRssBytes, rss);
  if (rssCapBytes > 0 && rss > rssCapBytes && !figures.stopped) {
    figures.stopped = `stopped at ${Math.round(rss / 1024 / 1024)} MB RSS (BOMBS_RSS_CAP_MB)`;
    process.kill(pid, 'SIGKILL');
  }
}, POLL_MS);

const health = (async () => {
  while (running) {
    const started = performance.now();
    pendingSince = started;
    try {
      const answer = await request(`${baseUrl}/api/v1/health`, { dispatcher: agent });
      await answer.body.arrayBuffer();
      if (answer.statusCode !== 200) figures.healthFailures++;
    } catch {
      figures.healthFailures++;
    }
    pendingSince = undefined;
    figures.healthChecks++;
    figures.longestHealthMs = Math.max(figures.longestHealthMs, performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, POLL_MS - (performance.now() - started))));
  }
})();

parentPort!.once('message', async () => {
  running = false;
  clearInterval(memory);
  // A health request the server has not answered yet counts for as long as it has waited, and is let go.
  if (pendingSince !== undefined)
    figures.longestHealthMs = Math.max(figures.longestHealthMs, performance.now() - pendingSince);
  await Promise.race([health, new Promise((resolve) => setTimeout(resolve, 100))]);
  parentPort!.postMessage(figures);
  await agent.destroy().catch(() => {});
  process.exit(0);
});
