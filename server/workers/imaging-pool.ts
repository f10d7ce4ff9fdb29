import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type * as tasks from './imaging-tasks.ts';

type Tasks = typeof tasks;

/**
 * Threads for imaging work too long for the event loop (de-identifying a file takes time in proportion to
 * its size). At most one thread per core beyond the main thread's, and at least one; idle threads end.
 */
let pool: Piscina | undefined;

const imagingPool = () =>
  (pool ??= new Piscina({
    filename: new URL('./imaging-tasks.ts', import.meta.url).href,
    minThreads: 0,
    maxThreads: Math.max(1, availableParallelism() - 1),
    idleTimeout: 30_000,
  }));

/**
 * Runs the task `name` of imaging-tasks.ts on a pool thread. Buffers in `transfer` are moved to the thread
 * (the caller must not use them afterwards), not copied.
 */
export function runImagingTask<N extends keyof Tasks>(
  name: N,
  input: Parameters<Tasks[N]>[0],
  transfer: ArrayBuffer[] = [],
): Promise<ReturnType<Tasks[N]>> {
  return imagingPool().run(input, { name, transferList: transfer }) as Promise<ReturnType<Tasks[N]>>;
}
