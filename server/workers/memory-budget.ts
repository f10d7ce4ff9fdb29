/**
 * Bytes that imaging work may hold at once across the server: files read whole to be decoded, the volumes
 * decoded from them, and volumes being rendered or measured. One image may expand to 1 GiB, so one such image
 * at a time, or many small ones together; the rest wait their turn instead of adding up in memory.
 */
export const IMAGING_MEMORY_BYTES = 1024 * 1024 * 1024;

/** A first-come first-served budget of bytes: work waits until what it needs is free. */
export interface MemoryBudget {
  /** Runs `work` once `bytes` are free (all of the budget, for work that needs more), then frees them. */
  use<T>(bytes: number, work: () => Promise<T>): Promise<T>;
  /** Bytes held by running work now. */
  held(): number;
}

/** A budget of `total` bytes. */
export function createMemoryBudget(total: number): MemoryBudget {
  let held = 0;
  const waiting: { bytes: number; start: () => void }[] = [];
  // Strictly in order: a large reservation is not passed by a stream of small ones that would keep it waiting.
  const wake = () => {
    while (waiting.length > 0 && held + waiting[0]!.bytes <= total) {
      const next = waiting.shift()!;
      held += next.bytes;
      next.start();
    }
  };
  return {
    async use(bytes, work) {
      const need = Math.min(total, Math.max(0, Math.ceil(bytes)));
      await new Promise<void>((start) => {
        waiting.push({ bytes: need, start });
        wake();
      });
      try {
        return await work();
      } finally {
        held -= need;
        wake();
      }
    },
    held: () => held,
  };
}

/** The server's one imaging budget, shared by decoding, previews, thumbnails and checks. */
export const imagingMemory = createMemoryBudget(IMAGING_MEMORY_BYTES);
