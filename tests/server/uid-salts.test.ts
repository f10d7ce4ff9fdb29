import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uidSaltOf } from '../../server/modules/deidentification/uid-salts.repository.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser } from './helpers/users.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function newWorkspace(name: string): Promise<string> {
  const owner = await createSignedInUser(t);
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/workspaces', headers: owner.auth, payload: { name } });
  expect(res.statusCode).toBe(201);
  return res.json<{ id: string }>().id;
}

describe('the UID salt of a workspace', () => {
  it('is made once, even by uploads racing to make it, and is the same ever after', async () => {
    const workspace = await newWorkspace('Racing');
    const salts = await Promise.all(Array.from({ length: 8 }, () => uidSaltOf(t.app.db, workspace)));
    expect(new Set(salts).size).toBe(1);
    expect(salts[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(await uidSaltOf(t.app.db, workspace)).toBe(salts[0]);
  });

  it('differs between workspaces and is not their id', async () => {
    const [a, b] = [await newWorkspace('A'), await newWorkspace('B')];
    const [saltA, saltB] = [await uidSaltOf(t.app.db, a), await uidSaltOf(t.app.db, b)];
    expect(saltA).not.toBe(saltB);
    expect(saltA).not.toContain(a.replace(/-/g, ''));
  });
});
