import { afterAll, describe, expect, it } from 'vitest';
import { databaseBefore, type DatabaseBefore } from './helpers/migrated-database.ts';

describe('the shared comments migration', () => {
  let database: DatabaseBefore | undefined;
  afterAll(() => database?.close());

  it('turns every quality check made before it into the engine’s [QC] comment on its image', async () => {
    database = await databaseBefore('_shared_comments');
    const { client } = database;
    await client.exec(`
      insert into users (id, email, name, password_hash)
        values ('11111111-1111-4111-8111-111111111111', 'a@example.org', 'A', 'x');
      insert into workspaces (id, name, personal_owner_id)
        values ('22222222-2222-4222-8222-222222222222', 'Personal', '11111111-1111-4111-8111-111111111111');
      insert into uploads (id, owner_id, workspace_id, stored_filename, original_name, extension, size_bytes, sha256,
                           content_type, format)
        values ('33333333-3333-4333-8333-333333333333', '11111111-1111-4111-8111-111111111111',
                '22222222-2222-4222-8222-222222222222', 'f.png', 'f.png', '.png', 1, 'h', 'image/png', 'png');
      insert into qc_results (upload_id, owner_id, model, prompt_version, verdict, confidence, text, created_at)
        values ('33333333-3333-4333-8333-333333333333', '11111111-1111-4111-8111-111111111111', 'm', 'v', 'pass', 90,
                'QC verdict: Pass. ', '2025-01-02T03:04:05Z'),
               ('33333333-3333-4333-8333-333333333333', '11111111-1111-4111-8111-111111111111', 'm', 'v', 'fail', 80,
                'QC verdict: Fail.', '2025-02-02T03:04:05Z');
    `);
    await database.migrateToLatest();
    const { rows } = await client.query<{ text: string; author: string | null; same: boolean }>(`
      select c.text, c.author_id as author, c.created_at = q.created_at as same
      from comments c join qc_results q on q.id = c.qc_result_id order by c.created_at`);
    expect(rows.map((r) => [r.text, r.author, r.same])).toEqual([
      ['[QC] QC verdict: Pass.', null, true],
      ['[QC] QC verdict: Fail.', null, true],
    ]);
  });
});
