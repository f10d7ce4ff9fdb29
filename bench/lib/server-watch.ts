// What a server process does while it is attacked: how long `/api/v1/health` takes to answer, asked every
// 20 ms, and its resident memory (VmRSS from /proc/<pid>/status) read at the same pace.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';

/** The figures of one watch. */
export interface WatchFigures {
  /** Longest health answer in ms (one still pending at the end counts for as long as it waited). */
  longestHealthMs: number;
  healthChecks: number;
  /** Health answers other than 200, or failed requests. */
  healthFailures: number;
  baselineRssBytes: number;
  peakRssBytes: number;
}

/** The resident set of process `pid` in bytes, 0 once it has exited. */
export function rssBytes(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
    return Number(line?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

const POLL_MS = 20;

/**
 * Starts polling `baseUrl`'s health and `pid`'s RSS every 20 ms; `stop()` ends it and hands back the figures.
 * `onRss` sees every reading (the benchmark stops a server that grows past what the machine can spare).
 */
export function watchServer(
  baseUrl: string,
  pid: number,
  onRss: (bytes: number) => void = () => {},
): { stop(): Promise<WatchFigures> } {
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
    onRss(rss);
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
  return {
    async stop() {
      running = false;
      clearInterval(memory);
      // A health request the server has not answered yet counts for as long as it waited, and is let go.
      if (pendingSince !== undefined)
        figures.longestHealthMs = Math.max(figures.longestHealthMs, performance.now() - pendingSince);
      await Promise.race([health, new Promise((resolve) => setTimeout(resolve, 100))]);
      void agent.destroy().catch(() => {});
      return figures;
    },
  };
}
