import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKSPACE_HEADER } from '../../contract/workspaces.ts';
import { sessions } from '../../server/modules/auth/sessions.table.ts';
import { workspaces } from '../../server/modules/workspaces/workspaces.table.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';

// The workspace guard reads the session and the membership in one statement: these pin down that it still
// answers as the two separate checks did (401 before 404 before 403, nothing remembered between requests).
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const list = (auth: Record<string, string>, workspaceId?: string | string[]) =>
  t.app.inject({
    method: 'GET',
    url: '/api/v1/uploads',
    headers: { ...auth, ...(workspaceId !== undefined ? { [WORKSPACE_HEADER]: workspaceId } : {}) },
  });

async function team(owner: TestUser, name: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/workspaces', headers: owner.auth, payload: { name } });
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

describe('session and membership read together', () => {
  it('makes the personal workspace of a user who has none on their first request, and uses it', async () => {
    const user = await createSignedInUser(t);
    expect(await t.app.db.select().from(workspaces).where(eq(workspaces.personalOwnerId, user.id))).toEqual([]);
    expect((await list(user.auth)).statusCode).toBe(200);
    const [personal] = await t.app.db.select().from(workspaces).where(eq(workspaces.personalOwnerId, user.id));
    expect(personal).toBeDefined();
    expect((await list(user.auth, personal!.id)).statusCode).toBe(200);
  });

  it('answers 401 for a missing, unknown, revoked or idle session whatever workspace is named', async () => {
    const owner = await createSignedInUser(t);
    const workspaceId = await team(owner, 'Revocation');
    expect((await list({}, workspaceId)).statusCode).toBe(401);
    expect((await list({ authorization: `Bearer ${'x'.repeat(43)}` }, workspaceId)).statusCode).toBe(401);
    expect((await list({ authorization: `Bearer ${'x'.repeat(43)}` }, 'not-a-uuid')).statusCode).toBe(401);

    const revoked = await createSignedInUser(t);
    const revokedTeam = await team(revoked, 'Gone');
    await t.app.db.update(sessions).set({ revokedAt: t.clock.now() }).where(eq(sessions.userId, revoked.id));
    expect((await list(revoked.auth, revokedTeam)).statusCode).toBe(401);
    expect((await list(revoked.auth)).statusCode).toBe(401);

    const idle = await createSignedInUser(t);
    const idleTeam = await team(idle, 'Idle');
    t.clock.advance((t.config.sessionIdleHours * 3600 + 60) * 1000);
    expect((await list(idle.auth, idleTeam)).statusCode).toBe(401);
    expect((await list(idle.auth)).statusCode).toBe(401);
  });

  it('answers 404 for a live session naming a stranger’s, an unknown, a malformed or a doubled workspace', async () => {
    const owner = await createSignedInUser(t);
    const stranger = await createSignedInUser(t);
    const workspaceId = await team(owner, 'Private');
    for (const named of [
      workspaceId,
      '00000000-0000-4000-8000-000000000000',
      'not-a-uuid',
      '',
      [workspaceId, workspaceId],
    ]) {
      const res = await list(stranger.auth, named);
      expect(res.statusCode, String(named)).toBe(404);
      expect(res.json()).toEqual({ detail: expect.any(String) });
    }
    expect((await list(owner.auth, workspaceId)).statusCode).toBe(200);
  });

  it('counts a role change and a removal from the next request', async () => {
    const owner = await createSignedInUser(t);
    const colleague = await createSignedInUser(t);
    const workspaceId = await team(owner, 'Changing');
    await t.app.workspaces.addMember(workspaceId, colleague.id, 'viewer', t.clock.now());
    const upload = () =>
      t.app.inject({
        method: 'DELETE',
        url: '/api/v1/uploads/00000000-0000-4000-8000-000000000000.png',
        headers: { ...colleague.auth, [WORKSPACE_HEADER]: workspaceId },
      });
    expect((await list(colleague.auth, workspaceId)).statusCode).toBe(200);
    expect((await upload()).statusCode).toBe(403);
    await t.app.workspaces.updateMember(workspaceId, colleague.id, { role: 'member' });
    expect((await upload()).statusCode).toBe(404);
    await t.app.workspaces.removeMember(workspaceId, colleague.id);
    expect((await list(colleague.auth, workspaceId)).statusCode).toBe(404);
  });

  it('lists the workspaces of a live session only, making the personal one when it is missing', async () => {
    const user = await createSignedInUser(t);
    const workspacesOf = (auth: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: '/api/v1/workspaces', headers: auth });
    const first = await workspacesOf(user.auth);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual([expect.objectContaining({ name: 'Personal', personal: true, member_count: 1 })]);
    const other = await createSignedInUser(t);
    const shared = await team(other, 'Shared');
    await t.app.workspaces.addMember(shared, user.id, 'reviewer', t.clock.now());
    expect((await workspacesOf(user.auth)).json()).toEqual([
      expect.objectContaining({ personal: true, member_count: 1 }),
      expect.objectContaining({ id: shared, name: 'Shared', role: 'reviewer', member_count: 2 }),
    ]);
    expect((await workspacesOf({})).statusCode).toBe(401);
    await t.app.db.update(sessions).set({ revokedAt: t.clock.now() }).where(eq(sessions.userId, user.id));
    expect((await workspacesOf(user.auth)).statusCode).toBe(401);
  });

  it('notes the session as seen at most once a minute', async () => {
    const user = await createSignedInUser(t);
    const seen = async () =>
      (await t.app.db.select({ at: sessions.lastSeenAt }).from(sessions).where(eq(sessions.userId, user.id)))[0]!.at;
    const before = await seen();
    expect((await list(user.auth)).statusCode).toBe(200);
    expect(await seen()).toEqual(before);
    t.clock.advance(2 * 60_000);
    expect((await list(user.auth)).statusCode).toBe(200);
    expect((await seen()).getTime()).toBeGreaterThan(before.getTime());
  });
});
