import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';

/**
 * Threads for argon2. A sign-in flood queues here instead of taking every core: one core always stays
 * for the event loop (bench/login.ts measured 240 ms event-loop delay with four hashes at once on two cores).
 * A second thread on two cores was measured too (bench/login.ts, 50 parallel sign-ins, load average 13-15):
 * the sign-ins' p99 did not improve (4.3-4.9 s against 4.5-5.3 s on PGlite, 3.1 against 2.9 s on
 * PostgreSQL) while another signed-in route's p50 during the flood doubled (37-43 ms against 17-29 ms) and
 * its p99 rose from 171-226 to 313-364 ms: the hashes had no spare core to gain and took the event loop's.
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

let verifications = 0;

/** How many password verifications this process has started: the evidence that the sign-in limits hold. */
export function passwordVerificationsStarted(): number {
  return verifications;
}

/** Whether the password matches the stored hash, checked on the pool; false for a malformed hash. */
export function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  verifications += 1;
  return passwordPool().run({ storedHash, password }, { name: 'verify' }) as Promise<boolean>;
}
