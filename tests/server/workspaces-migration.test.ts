import { afterAll, describe, expect, it } from 'vitest';
import { databaseBefore, type DatabaseBefore } from './helpers/migrated-database.ts';

describe('the workspaces migration', () => {
  let database: DatabaseBefore | undefined;
  afterAll(() => database?.close());

  it("moves every existing upload into its owner's new personal workspace, losing none", async () => {
    database = await databaseBefore('_workspaces');
    const { client } = database;
    await client.exec(`
      insert into users (id, email, name, password_hash) values
        ('11111111-1111-4111-8111-111111111111', 'a@example.org', 'A', 'x'),
        ('22222222-2222-4222-8222-222222222222', 'b@example.org', 'B', 'x'),
        ('33333333-3333-4333-8333-333333333333', 'c@example.org', 'C', 'x');
      insert into uploads (owner_id, stored_filename, original_name, extension, size_bytes, sha256, content_type, format)
      select owner, 'f' || n || '.png', 'f' || n || '.png', '.png', n, 'h', 'image/png', 'png'
      from (values ('11111111-1111-4111-8111-111111111111'::uuid, 1), ('11111111-1111-4111-8111-111111111111', 2),
                   ('22222222-2222-4222-8222-222222222222', 3)) as v(owner, n);
    `);
    await database.migrateToLatest();

    const { rows } = await client.query<{ owner: string; n: number; personal: string; role: string }>(`
      select u.owner_id as owner, count(*)::int as n, w.personal_owner_id as personal, m.role
      from uploads u join workspaces w on w.id = u.workspace_id
      join workspace_members m on m.workspace_id = w.id and m.user_id = u.owner_id
      group by u.owner_id, w.personal_owner_id, m.role order by u.owner_id`);
    expect(rows).toEqual([
      {
        owner: '11111111-1111-4111-8111-111111111111',
        n: 2,
        personal: '11111111-1111-4111-8111-111111111111',
        role: 'admin',
      },
      {
        owner: '22222222-2222-4222-8222-222222222222',
        n: 1,
        personal: '22222222-2222-4222-8222-222222222222',
        role: 'admin',
      },
    ]);
    const workspaces = await client.query<{ n: number }>(
      `select count(*)::int as n from workspaces where personal_owner_id is not null and name = 'Personal'`,
    );
    // A user without uploads gets one too.
    expect(workspaces.rows[0]!.n).toBe(3);
    const total = await client.query<{ n: number }>(
      'select count(*)::int as n from uploads where workspace_id is not null',
    );
    expect(total.rows[0]!.n).toBe(3);
  });
});
