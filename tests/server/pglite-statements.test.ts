import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparedStatements } from '../../server/db/pglite-statements.ts';

describe('prepared statements on PGlite', () => {
  let client: PGlite;
  let statements: ReturnType<typeof preparedStatements>;
  beforeAll(async () => {
    client = new PGlite();
    statements = preparedStatements(client, 4);
    await client.exec(
      'create table notes (id uuid primary key, body jsonb, seen boolean, at timestamptz, n int unique)',
    );
  });
  afterAll(async () => client.close());

  const preparedTexts = async () =>
    (await client.query<{ statement: string }>('select statement from pg_prepared_statements')).rows.map(
      (row) => row.statement,
    );

  it('sends each type through its serializer and reads rows back as objects or arrays', async () => {
    const id = '7d4cbb0e-8f5e-4c6a-9a57-2f7d0e1b3c11';
    const inserted = await statements.outside('insert into notes (id, body, seen, at, n) values ($1, $2, $3, $4, $5)', [
      id,
      { tags: ['a', 'b'] },
      true,
      new Date('2026-11-23T10:00:00Z'),
      1,
    ]);
    expect(inserted.affectedRows).toBe(1);
    const read = await statements.outside<{ id: string; body: unknown; seen: boolean; n: number }>(
      'select id, body, seen, n from notes where id = $1',
      [id],
    );
    expect(read.rows).toEqual([{ id, body: { tags: ['a', 'b'] }, seen: true, n: 1 }]);
    expect(read.fields.map((field) => field.name)).toEqual(['id', 'body', 'seen', 'n']);
    const asArrays = await statements.outside('select n, seen from notes where id = $1', [id], { rowMode: 'array' });
    expect(asArrays.rows).toEqual([[1, true]]);
    const nulls = await statements.outside<{ body: unknown }>('select $1::jsonb as body', [null]);
    expect(nulls.rows).toEqual([{ body: null }]);
  });

  it('prepares a text once however often it runs, and closes the least recently used beyond its capacity', async () => {
    for (let i = 0; i < 3; i++) await statements.outside('select $1::int + 1 as next', [i]);
    expect((await preparedTexts()).filter((text) => text === 'select $1::int + 1 as next')).toHaveLength(1);
    for (let i = 0; i < 6; i++) await statements.outside(`select ${i} as k`);
    const texts = await preparedTexts();
    expect(texts).toHaveLength(4);
    expect(texts).not.toContain('select $1::int + 1 as next');
    expect(texts).toContain('select 5 as k');
  });

  it('rejects a bad statement or a bad value with the database error, and the next statement runs', async () => {
    await expect(statements.outside('selec 1')).rejects.toMatchObject({ code: '42601' });
    await expect(statements.outside('select $1::uuid as id', ['not-a-uuid'])).rejects.toMatchObject({ code: '22P02' });
    await expect(
      statements.outside('insert into notes (id, n) values ($1, $2)', ['11111111-1111-4111-8111-111111111111', 1]),
    ).rejects.toMatchObject({ code: '23505' });
    expect((await statements.outside<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  it('keeps a statement from outside out of an open transaction until it ends', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inTransaction!: () => void;
    const started = new Promise<void>((resolve) => (inTransaction = resolve));
    const transaction = client.transaction(async (tx) => {
      await statements.inside('insert into notes (id, n) values ($1, $2)', ['22222222-2222-4222-8222-222222222222', 2]);
      inTransaction();
      await held;
      await tx.rollback();
    });
    await started;
    const counted = statements.outside<{ count: number }>('select count(*)::int as count from notes where n = 2');
    release();
    await transaction;
    // Had it run inside the transaction, it would have counted the row that was rolled back.
    expect((await counted).rows).toEqual([{ count: 0 }]);
  });
});
