import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../../server/db/connect.ts';

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a throw-away database
 * on the PostgreSQL server of DATABASE_URL (created here, dropped on close) when that is set.
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return openDatabase({});
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString() });
  return {
    ...handle,
    async close() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      // FORCE cannot end an autovacuum worker (it runs as the bootstrap superuser), which may be visiting the
      // new database just then: try again shortly, and leave the database behind rather than fail a test.
      try {
        for (let attempt = 1; ; attempt++) {
          try {
            await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
            break;
          } catch (error) {
            if (attempt === 10) {
              console.warn(`test database ${name} left behind: ${(error as Error).message}`);
              break;
            }
            await new Promise((resolve) => setTimeout(resolve, 300));
          }
        }
      } finally {
        await cleanup.end();
      }
    },
  };
}
