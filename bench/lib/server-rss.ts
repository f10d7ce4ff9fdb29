// A server process's resident memory, and the figures a watch of it gathers (see server-watch.ts).
import { readFileSync } from 'node:fs';

/** The figures of one watch. */
export interface WatchFigures {
  /** Longest health answer in ms (one still pending at the end counts for as long as it waited). */
  longestHealthMs: number;
  healthChecks: number;
  /** Health answers other than 200, or failed requests. */
  healthFailures: number;
  baselineRssBytes: number;
  peakRssBytes: number;
  /** Set when the watch stopped the server for growing past its cap. */
  stopped?: string;
}

/** The resident set of process `pid` in bytes (VmRSS), 0 once it has exited. */
export function rssBytes(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
    return Number(line?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}
