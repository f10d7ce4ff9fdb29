import type { Config } from './config.ts';
import type { Database } from './db/connect.ts';
import type { Mailer } from './mail/mailer.ts';
import type { HealthProbe } from './modules/health/health-probe.ts';
import type { Storage } from './storage/storage.ts';

/** What the app talks to; main.ts opens them, tests pass their own. */
export interface Services {
  db: Database;
  storage: Storage;
  /** Built from the configuration when not given. */
  mailer?: Mailer;
  /** The current time; tests move it instead of sleeping. */
  clock?: () => Date;
  /** Where the log goes; standard output when not given. */
  logStream?: { write(line: string): void };
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Database;
    storage: Storage;
    healthProbe: HealthProbe;
    mailer: Mailer;
    clock: () => Date;
  }
}
