import { setImmediate as afterPendingEvents } from 'node:timers/promises';

/** Rows that arrive while a write is running wait for the next one, which takes at most this many. */
const MAX_BATCH = 16;

interface Waiting<T> {
  item: T;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Group commit: `write` stores a batch of items in one statement, and the function returned stores one
 * item, resolving once it is stored. Items are written once the event loop has handled the events
 * already waiting, so every request that reaches this point in the same turn shares one statement, and
 * items that arrive while a write runs share the next. Under load every statement and commit is shared
 * by the rows waiting for it; an idle server waits one turn of the loop.
 *
 * When a batch fails, each of its items is written alone, so one bad row fails only its own caller.
 */
export function groupCommit<T>(write: (items: T[]) => Promise<void>): (item: T) => Promise<void> {
  const waiting: Waiting<T>[] = [];
  let running = false;

  async function writeAlone(one: Waiting<T>): Promise<void> {
    try {
      await write([one.item]);
      one.resolve();
    } catch (error) {
      one.reject(error);
    }
  }

  async function drain(): Promise<void> {
    running = true;
    while (waiting.length > 0) {
      // Requests whose work ended meanwhile (a file written, a thread's answer) add their rows first.
      await afterPendingEvents();
      const batch = waiting.splice(0, MAX_BATCH);
      if (batch.length === 1) {
        await writeAlone(batch[0]!);
        continue;
      }
      try {
        await write(batch.map((one) => one.item));
        for (const one of batch) one.resolve();
      } catch {
        for (const one of batch) await writeAlone(one);
      }
    }
    running = false;
  }

  return (item) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (!running) void drain();
    });
}
