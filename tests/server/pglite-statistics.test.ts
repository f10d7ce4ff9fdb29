import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/connect.ts';

describe('the embedded PGlite', () => {
  it('gives the planner statistics from the start, as autovacuum would on PostgreSQL', async () => {
    const handle = await openDatabase({});
    try {
      const result = (await handle.db.execute(
        sql`select reltuples from pg_class where relname = 'uploads'`,
      )) as unknown as { rows: { reltuples: number }[] };
      // -1 means never analysed: the planner then guesses, and sorted a whole library for one page.
      expect(result.rows[0]!.reltuples).toBe(0);
    } finally {
      await handle.close();
    }
  });
});
