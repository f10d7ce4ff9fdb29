// The argon2 work run on the pool of passwords.ts.
import { hashSync, verifySync } from '@node-rs/argon2';

// OWASP's argon2id recommendation: 19 MiB of memory, 2 passes, 1 lane.
const options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** An argon2id hash of the password, in PHC string form. */
export function hash({ password }: { password: string }): string {
  return hashSync(password, options);
}

/** Whether the password matches the stored hash; false for a malformed hash. */
export function verify({ storedHash, password }: { storedHash: string; password: string }): boolean {
  try {
    return verifySync(storedHash, password);
  } catch {
    return false;
  }
}
