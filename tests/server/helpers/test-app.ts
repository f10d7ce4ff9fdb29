import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/app.ts';
import { loadConfig, type Config } from '../../../server/config.ts';
import { createDiskStorage } from '../../../server/storage/disk-storage.ts';
import type { Services } from '../../../server/services.ts';
import { openTestDatabase } from './test-database.ts';

/** A clock tests move forward instead of sleeping. */
export interface TestClock {
  now(): Date;
  advance(ms: number): void;
}

/** The real app over a fresh database, a temporary DATA_DIR and a movable clock. */
export interface TestApp {
  app: FastifyInstance;
  config: Config;
  clock: TestClock;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * Builds the whole app as production does, over a fresh migrated database and a temporary data folder.
 * Mail goes to DATA_DIR/outbox unless `env.SMTP_URL` is given; read it with `readOutbox`.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  services: Partial<Services> = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'imageqc-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DIST_DIR: path.join(dataDir, 'no-dist'),
    ...env,
  });
  const database = await openTestDatabase();
  let offset = 0;
  const clock: TestClock = {
    now: () => new Date(Date.now() + offset),
    advance: (ms) => {
      offset += ms;
    },
  };
  const app = await buildApp(config, {
    db: database.db,
    storage: createDiskStorage(path.join(dataDir, 'uploads')),
    clock: clock.now,
    ...services,
  });
  await app.ready();
  return {
    app,
    config,
    clock,
    dataDir,
    async close() {
      await app.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
