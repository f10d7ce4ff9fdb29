import { sql } from 'drizzle-orm';
import { date, interval, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../server/db/connect.ts';
import { openTestDatabase } from './helpers/test-database.ts';

const moments = pgTable('test_moments', {
  at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
  day: date('day', { mode: 'string' }).notNull(),
  span: interval('span').notNull(),
  history: timestamp('history', { withTimezone: true, mode: 'date' }).array().notNull(),
});

// Times reach drizzle as text, which it makes into Dates, on either engine. The embedded engine is given
// its parsers once rather than with every query, so both paths, transactions included, are checked here.
describe('values through the database layer', () => {
  let handle: DatabaseHandle;
  const first = new Date('2026-03-04T05:06:07.891Z');
  const second = new Date('2025-12-31T23:59:59.001Z');
  const row = { at: first, day: '2026-03-04', span: '02:00:00', history: [first, second] };
  beforeAll(async () => {
    handle = await openTestDatabase();
    await handle.db.execute(
      sql`create table test_moments (at timestamptz not null, day date not null, span interval not null, history timestamptz[] not null)`,
    );
  });
  afterAll(async () => {
    await handle.db.execute(sql`drop table test_moments`);
    await handle.close();
  });

  it('gives back moments, dates, intervals and arrays of moments as they were written', async () => {
    await handle.db.insert(moments).values(row);
    expect(await handle.db.select().from(moments)).toEqual([row]);
  });

  it('answers the same inside a transaction, and a write rolled back leaves nothing', async () => {
    expect(await handle.db.transaction((tx) => tx.select().from(moments))).toEqual([row]);
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.insert(moments).values(row);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await handle.db.select().from(moments)).toHaveLength(1);
  });
});
