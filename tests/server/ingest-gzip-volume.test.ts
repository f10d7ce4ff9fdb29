import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipNifti } from '../fixtures/ingest-attacks.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { uploadFile } from './uploads-fixtures.ts';

describe('a gzip NIfTI through POST /uploads', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    user = await createSignedInUser(t);
  });
  afterAll(async () => t.close());

  it('is refused with 422 once it expands past twenty times what was sent, not recompressed for a minute', async () => {
    const attack = gzipNifti(2 * 1024 * 1024);
    const started = process.hrtime.bigint();
    const response = await uploadFile(t, user, attack.name, Buffer.from(attack.bytes));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    expect(response.statusCode).toBe(422);
    expect(response.json().detail).toMatch(/NIfTI/);
    // Unbounded, the gunzip and default-level gzip of its 2.5 GB ran for tens of seconds on this machine.
    expect(seconds).toBeLessThan(30);
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/uploads', headers: user.auth });
    expect(list.json()).toEqual([]);
  }, 120_000);
});
