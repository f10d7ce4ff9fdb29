import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id recommendation: 19 MiB of memory, 2 passes, 1 lane. @node-rs/argon2 runs it on the
// libuv thread pool, so hashing never blocks the event loop.
const options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

// The pool has 4 threads; 4 hashes at once on a 2-core machine leave the event loop no core, and every
// other request waits (measured by bench/login.ts: 240 ms event-loop delay with 4, under 40 ms with 1).
// Hashes beyond this many wait their turn instead, keeping one core for the event loop.
const MAX_CONCURRENT_HASHES = Math.max(1, availableParallelism() - 1);
let running = 0;
const waiting: (() => void)[] = [];

/** Runs one argon2 operation when a slot is free. */
async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT_HASHES) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

/** An argon2id hash of the password, in PHC string form. */
export function hashPassword(password: string): Promise<string> {
  return inTurn(() => hash(password, options));
}

/** Whether the password matches the stored hash; false for a malformed hash. */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await inTurn(() => verify(storedHash, password));
  } catch {
    return false;
  }
}
