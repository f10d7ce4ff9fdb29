import { monitorEventLoopDelay } from 'node:perf_hooks';

/** The longest stall of this process's event loop that a test tolerates: 100 ms, 250 ms on a shared CI machine. */
export const STALL_LIMIT_MS = process.env.CI ? 250 : 100;

/** What a watch saw: the event loop's longest stall and the resident memory's growth over its start. */
export interface LoopWatch {
  longestStallMs: number;
  rssGrowthBytes: number;
}

/**
 * Watches this process's event loop and resident memory while `work` runs: the server under test listens in
 * this process, so a request it handles on the event loop shows here as a stall.
 */
export async function watchEventLoop<T>(work: () => Promise<T>): Promise<LoopWatch & { result: T }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  // Besides the histogram (which records nothing for a stall before its first tick), the longest gap between
  // the turns of a 5 ms timer, which also samples the resident memory.
  let last = performance.now();
  let longestGap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longestGap = Math.max(longestGap, now - last - 5);
    last = now;
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  histogram.enable();
  try {
    const result = await work();
    // A stall that ended the work is seen only once the timers have had their turn.
    await new Promise((resolve) => setTimeout(resolve, 30));
    return {
      result,
      longestStallMs: Math.max(histogram.max / 1e6, longestGap),
      rssGrowthBytes: Math.max(peak, process.memoryUsage.rss()) - baseline,
    };
  } finally {
    histogram.disable();
    clearInterval(ticker);
  }
}

/**
 * The best of up to `rounds` watches of `work`, each judged by how much its longest stall exceeds that of the same
 * time spent idle just after (`longestStallMs` is that excess; `idleStallMs` the idle one): on a loaded shared
 * machine other processes' turns stall an idle loop too, while work done on the event loop stalls every round.
 */
export async function bestOfRounds<T>(
  work: () => Promise<T>,
  rounds = 3,
): Promise<LoopWatch & { result: T; idleStallMs: number; rawStallMs: number }> {
  let best: (LoopWatch & { result: T; idleStallMs: number; rawStallMs: number }) | undefined;
  for (let round = 0; round < rounds && !(best && best.longestStallMs < STALL_LIMIT_MS); round++) {
    const started = performance.now();
    const watched = await watchEventLoop(work);
    const elapsed = performance.now() - started;
    const idle = await watchEventLoop(() => new Promise((resolve) => setTimeout(resolve, elapsed)));
    const judged = {
      ...watched,
      rawStallMs: watched.longestStallMs,
      idleStallMs: idle.longestStallMs,
      longestStallMs: Math.max(0, watched.longestStallMs - idle.longestStallMs),
    };
    if (!best || judged.longestStallMs < best.longestStallMs) best = judged;
  }
  return best!;
}
