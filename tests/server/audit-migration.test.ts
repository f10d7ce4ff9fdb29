import { afterAll, describe, expect, it } from 'vitest';
import { databaseBefore, type DatabaseBefore } from './helpers/migrated-database.ts';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const PERSONAL_A = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const TEAM = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const UPLOAD = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';

describe('the audit and batch workspaces migration', () => {
  let database: DatabaseBefore | undefined;
  afterAll(() => database?.close());

  it('gives past events and batches the workspace they can be traced to, and no other', async () => {
    database = await databaseBefore('_audit_workspaces');
    const { client } = database;
    await client.exec(`
      insert into users (id, email, name, password_hash) values ('${A}', 'a@example.org', 'A', 'x'), ('${B}', 'b@example.org', 'B', 'x');
      insert into workspaces (id, name, personal_owner_id) values ('${PERSONAL_A}', 'Personal', '${A}'), ('${TEAM}', 'Team', null);
      insert into workspace_members (workspace_id, user_id, role, created_at) values
        ('${PERSONAL_A}', '${A}', 'admin', '2026-01-01T00:00:00Z'),
        ('${TEAM}', '${A}', 'admin', '2026-01-01T00:00:00Z'),
        ('${TEAM}', '${B}', 'member', '2026-06-01T00:00:00Z');
      insert into uploads (id, owner_id, workspace_id, stored_filename, original_name, extension, size_bytes, sha256, content_type, format)
        values ('${UPLOAD}', '${B}', '${TEAM}', 'kept.png', 'kept.png', '.png', 1, 'h', 'image/png', 'png');
      insert into audit_events (user_id, action, detail, created_at) values
        ('${B}', 'upload.download', '{"stored_filename":"kept.png"}', '2026-07-01T00:00:00Z'),
        ('${B}', 'upload.delete', '{"stored_filename":"gone.png"}', '2026-07-01T00:00:00Z'),
        ('${A}', 'workspace.member_update', '{"workspace_id":"${TEAM}","member_id":"${B}"}', '2026-07-01T00:00:00Z'),
        ('${B}', 'auth.login', null, '2026-03-01T00:00:00Z'),
        ('${B}', 'auth.login_failed', '{"email":"b@example.org","reason":"credentials"}', '2026-07-01T00:00:00Z'),
        ('${A}', 'auth.register', null, '2026-01-01T00:00:00Z');
      insert into qc_batches (id, owner_id, status, scope) values
        ('dddddddd-dddd-4ddd-8ddd-dddddddddddd', '${B}', 'done', 'selection'),
        ('eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee', '${A}', 'done', 'library');
      insert into qc_batch_items (batch_id, position, upload_id, stored_filename, original_name, sha256, format)
        values ('dddddddd-dddd-4ddd-8ddd-dddddddddddd', 0, '${UPLOAD}', 'kept.png', 'kept.png', 'h', 'png');
    `);
    await database.migrateToLatest();

    const events = await client.query<{ action: string; workspace_id: string | null; detail: unknown }>(
      `select action, workspace_id, detail from audit_events order by action, workspace_id nulls first`,
    );
    expect(events.rows).toEqual([
      // B's sign-in in March came before they joined the team (June): it stays the account's only.
      { action: 'auth.login', workspace_id: null, detail: null },
      { action: 'auth.login_failed', workspace_id: null, detail: { email: 'b@example.org', reason: 'credentials' } },
      { action: 'auth.login_failed', workspace_id: TEAM, detail: { reason: 'credentials' } },
      { action: 'auth.register', workspace_id: null, detail: null },
      // A deleted image names no workspace that can be known.
      { action: 'upload.delete', workspace_id: null, detail: { stored_filename: 'gone.png' } },
      { action: 'upload.download', workspace_id: TEAM, detail: { stored_filename: 'kept.png' } },
      { action: 'workspace.member_update', workspace_id: TEAM, detail: { workspace_id: TEAM, member_id: B } },
    ]);
    const batches = await client.query<{ id: string; workspace_id: string }>(
      'select id, workspace_id from qc_batches order by id',
    );
    expect(batches.rows).toEqual([
      // Its images are the team's.
      { id: 'dddddddd-dddd-4ddd-8ddd-dddddddddddd', workspace_id: TEAM },
      // No image left: its owner's personal workspace.
      { id: 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee', workspace_id: PERSONAL_A },
    ]);
  });
});
