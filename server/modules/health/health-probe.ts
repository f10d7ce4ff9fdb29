import { sql } from 'drizzle-orm';
import type { Database } from '../../db/connect.ts';
import type { Storage } from '../../storage/storage.ts';

/** How long one successful probe of the database and storage stands for every health request. */
const PROBE_TTL_MS = 1000;

/** The database-and-storage check behind GET /health, shared by the route and its fast path. */
export interface HealthProbe {
  /** True while a probe that succeeded less than a second ago stands. */
  isFresh(): boolean;
  /** Runs one probe, or joins the one already running; rejects when either part fails. */
  run(): Promise<void>;
}

// Load balancers poll health hard: one shared probe per second keeps it cheap under load, and a fresh
// success is answered without waiting on anything.
export function createHealthProbe({ db, storage }: { db: Database; storage: Storage }): HealthProbe {
  let healthyUntil = 0;
  let inFlight: Promise<void> | undefined;
  return {
    isFresh: () => Date.now() < healthyUntil,
    run() {
      inFlight ??= Promise.all([db.execute(sql`select 1`), storage.check()])
        .then(() => {
          healthyUntil = Date.now() + PROBE_TTL_MS;
        })
        .finally(() => {
          inFlight = undefined;
        });
      return inFlight;
    },
  };
}
