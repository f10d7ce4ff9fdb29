/**
 * A bound on how many tasks one key (a user id) may have running at once in this process. Hand-written:
 * it is a counter per key, and the pool libraries (p-limit, piscina) queue the excess where the API must
 * refuse it at once. Per process on purpose: what it protects is this replica's CPU.
 * @example const slot = limit.tryAcquire(userId); if (!slot) throw tooManyRequests('…'); try { … } finally { slot(); }
 */
export function perUserConcurrency(limit: number) {
  const running = new Map<string, number>();
  return {
    /** A release function when the key is under its limit, otherwise undefined; releasing twice is harmless. */
    tryAcquire(key: string): (() => void) | undefined {
      const count = running.get(key) ?? 0;
      if (count >= limit) return undefined;
      running.set(key, count + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (running.get(key) ?? 1) - 1;
        if (left > 0) running.set(key, left);
        else running.delete(key);
      };
    },
    /** How many tasks the key has running now. */
    runningFor(key: string): number {
      return running.get(key) ?? 0;
    },
  };
}
