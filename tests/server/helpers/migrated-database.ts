import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';

const migrations = fileURLToPath(new URL('../../../server/db/migrations', import.meta.url));

/** An in-memory PGlite database as one made before a migration had it, which a test then migrates to today. */
export interface DatabaseBefore {
  client: PGlite;
  /** Applies every migration, the one the database was made before included. */
  migrateToLatest(): Promise<void>;
  close(): Promise<void>;
}

/** A copy of the migrations folder holding only those before `tag`; throws when no migration but the first has it. */
async function migrationsBefore(tag: string): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'migrations-'));
  await cp(migrations, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const index = journal.entries.findIndex((e) => e.tag.endsWith(tag));
  if (index <= 0) throw new Error(`no migration after the first ends with ${tag}`);
  journal.entries = journal.entries.slice(0, index);
  await writeFile(journalPath, JSON.stringify(journal));
  return folder;
}

/** A fresh PGlite database migrated up to, not including, the migration whose tag ends with `tag`. */
export async function databaseBefore(tag: string): Promise<DatabaseBefore> {
  const client = new PGlite();
  const db = drizzle(client);
  const earlier = await migrationsBefore(tag);
  await migrate(db, { migrationsFolder: earlier });
  return {
    client,
    migrateToLatest: () => migrate(db, { migrationsFolder: migrations }),
    async close() {
      await client.close();
      await rm(earlier, { recursive: true, force: true });
    },
  };
}
