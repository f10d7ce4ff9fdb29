import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { e2eDataDir } from '../../playwright.config.ts';

/**
 * Runs one read-only query against the database of the server under test: PostgreSQL when
 * DATABASE_URL is set, otherwise a snapshot of its PGlite folder (PGlite allows one process at a time,
 * so the copy is opened and recovers like a database after a crash, then is thrown away).
 */
export async function queryServerDatabase<T>(text: string, params: unknown[] = []): Promise<T[]> {
  if (process.env.DATABASE_URL) {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      return (await client.query(text, params)).rows as T[];
    } finally {
      await client.end();
    }
  }
  const copy = mkdtempSync(path.join(tmpdir(), 'e2e-db-'));
  try {
    cpSync(path.join(e2eDataDir, 'db'), copy, { recursive: true });
    rmSync(path.join(copy, 'postmaster.pid'), { force: true });
    const db = new PGlite(copy);
    try {
      return (await db.query<T>(text, params)).rows;
    } finally {
      await db.close();
    }
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
