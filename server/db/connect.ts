import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, types } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

/** The drizzle database, whichever engine is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** An open database with its way to close. */
export interface DatabaseHandle {
  db: Database;
  engine: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** Longest a single statement may run before the database cancels it. */
export const STATEMENT_TIMEOUT_MS = 15_000;

/**
 * How often the embedded PGlite refreshes the planner's statistics, which PostgreSQL's autovacuum keeps
 * (its default nap is a minute too). PGlite counts no changes per table, so every table is analysed; the
 * sample is bounded (30,000 rows a table), so the cost does not grow with the library.
 */
export const PGLITE_ANALYZE_EVERY_MS = 60_000;

/**
 * The embedded PGlite's buffer cache. PostgreSQL's default (128 MB) lives inside PGlite's WebAssembly memory,
 * is all written when it starts and never given back: 128 MB of the idle server's resident memory, for a cache
 * of files the operating system caches as well. 32 MB holds the uploads and QC results (with their indexes) of a
 * library of 10,000 images, about 20 MB.
 */
export const PGLITE_SHARED_BUFFERS = '32MB';

/**
 * Opens PostgreSQL when a URL is given, otherwise PGlite in `pgliteDir` (or in memory when that is
 * undefined too), applies the committed migrations and returns the handle.
 */
export async function openDatabase(options: { url?: string; pgliteDir?: string }): Promise<DatabaseHandle> {
  if (options.url) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: 10,
      connectionTimeoutMillis: 5_000,
      options: `-c statement_timeout=${STATEMENT_TIMEOUT_MS}`,
    });
    // An idle client's connection can end under it (a server restart, a failover, an administrator):
    // the pool drops that client and the next query opens another, so the event must not crash the process.
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema, casing: 'snake_case' });
    try {
      await db.execute(sql`select 1`);
      await migratePg(db, { migrationsFolder });
    } catch (error) {
      await pool.end();
      throw error;
    }
    return { db: db as unknown as Database, engine: 'postgres', close: () => pool.end() };
  }
  if (options.pgliteDir) await mkdir(path.dirname(options.pgliteDir), { recursive: true });
  const client = new PGlite(options.pgliteDir, {
    parsers: TEXT_TYPES,
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
  });
  await client.exec(`SET statement_timeout = ${STATEMENT_TIMEOUT_MS}`);
  const db = drizzlePglite(client, { schema, casing: 'snake_case' });
  await migratePglite(db, { migrationsFolder });
  // PGlite runs no autovacuum, so its planner never learns how tables grow: a page of a 3,000-item library
  // was a bitmap scan and a sort of every item (42 ms) until ANALYZE, then an index scan of 100 (under 1 ms).
  await client.exec('ANALYZE');
  const analyzing = setInterval(() => void client.exec('ANALYZE').catch(() => {}), PGLITE_ANALYZE_EVERY_MS);
  analyzing.unref();
  return {
    db: db as unknown as Database,
    engine: 'pglite',
    close: async () => {
      clearInterval(analyzing);
      await client.close();
    },
  };
}

/**
 * The types drizzle reads as PostgreSQL's text and converts itself: dates, times and intervals. Their
 * array types come as arrays of that text (PGlite derives array parsers when it starts), which drizzle's
 * array columns take as well as the raw literal.
 */
const TEXT_TYPES = Object.fromEntries(
  [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE].map((oid) => [oid, (value: string) => value]),
);
