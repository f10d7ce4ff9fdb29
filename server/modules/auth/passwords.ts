import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';

/**
 * Threads for argon2. A sign-in flood queues here instead of taking every core: one core always stays
 * for the event loop (bench/login.ts measured 240 ms event-loop delay with four hashes at once on two cores).
 */
let pool: Piscina | undefined;

const passwordPool = () =>
  (pool ??= new Piscina({
    filename: new URL('./password-tasks.ts', import.meta.url).href,
    minThreads: 0,
    maxThreads: Math.max(1, availableParallelism() - 1),
    idleTimeout: 60_000,
  }));

/** An argon2id hash of the password (OWASP parameters), in PHC string form, made on the pool. */
export function hashPassword(password: string): Promise<string> {
  return passwordPool().run({ password }, { name: 'hash' }) as Promise<string>;
}

/** Whether the password matches the stored hash, checked on the pool; false for a malformed hash. */
export function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  return passwordPool().run({ storedHash, password }, { name: 'verify' }) as Promise<boolean>;
}
