import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKSPACE_HEADER } from '../../contract/workspaces.ts';
import { login, registerVerifiedUser } from './auth-helpers.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { multipartBody, pngBytes, uploadFile } from './uploads-fixtures.ts';

let t: TestApp;
let png: Buffer;
beforeAll(async () => {
  t = await createTestApp();
  png = await pngBytes();
});
afterAll(() => t.close());

const get = (user: TestUser, url: string, workspaceId?: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1${url}`,
    headers: { ...user.auth, ...(workspaceId ? { [WORKSPACE_HEADER]: workspaceId } : {}) },
  });

async function createTeam(user: TestUser, name: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/workspaces', headers: user.auth, payload: { name } });
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

describe('personal and team workspaces', () => {
  it('gives a newly registered user a personal workspace in which they are admin', async () => {
    const { email, password } = await registerVerifiedUser(t, 'grace@example.org', 'Grace Hopper');
    const token = (await login(t, email, password)).json().access_token;
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/workspaces',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { id: expect.any(String), name: 'Personal', personal: true, role: 'admin', permissions: [], member_count: 1 },
    ]);
  });

  it('lets anyone create a team workspace, listed after the personal one', async () => {
    const user = await createSignedInUser(t);
    await createTeam(user, 'Zebrafish imaging');
    await createTeam(user, 'Brain MRI');
    const names = (await get(user, '/workspaces')).json().map((w: { name: string }) => w.name);
    expect(names).toEqual(['Personal', 'Brain MRI', 'Zebrafish imaging']);
  });

  it('refuses a blank or multi-line name with 400', async () => {
    const user = await createSignedInUser(t);
    for (const name of ['   ', 'a\nb', 'x'.repeat(101)]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/workspaces',
        headers: user.auth,
        payload: { name },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: expect.any(String) });
    }
  });

  it('keeps library, metrics and activity apart per workspace', async () => {
    const user = await createSignedInUser(t);
    const team = await createTeam(user, 'Team');
    expect((await uploadFile(t, user, 'mine.png', png)).statusCode).toBe(201);
    const body = multipartBody([{ field: 'file', filename: 'team.png', content: png }]);
    const inTeam = await t.app.inject({
      method: 'POST',
      url: '/api/v1/uploads',
      headers: { ...user.auth, ...body.headers, [WORKSPACE_HEADER]: team },
      payload: body.payload,
    });
    expect(inTeam.statusCode).toBe(201);
    const names = async (workspaceId?: string) =>
      (await get(user, '/uploads', workspaceId))
        .json()
        .map((i: { original_name_guess: string }) => i.original_name_guess);
    expect(await names()).toEqual(['mine.png']);
    expect(await names(team)).toEqual(['team.png']);
    // A browser keeps one cached list per URL: the answer varies with the workspace and so does its tag.
    const personalList = await get(user, '/uploads');
    const teamList = await get(user, '/uploads', team);
    expect(teamList.headers.vary).toContain(WORKSPACE_HEADER);
    expect(teamList.headers.etag).not.toBe(personalList.headers.etag);
    const revalidated = await t.app.inject({
      method: 'GET',
      url: '/api/v1/uploads',
      headers: { ...user.auth, [WORKSPACE_HEADER]: team, 'if-none-match': personalList.headers.etag as string },
    });
    expect(revalidated.statusCode).toBe(200);
    expect((await get(user, '/dashboard/metrics', team)).json().total_images).toBe(1);
    expect((await get(user, '/dashboard/activity', team)).json().map((a: { name: string }) => a.name)).toEqual([
      'team.png',
    ]);
    // An image is reachable only through the workspace that holds it.
    const teamImage = inTeam.json().stored_filename;
    expect((await get(user, `/uploads/${teamImage}`)).statusCode).toBe(404);
    expect((await get(user, `/uploads/${teamImage}`, team)).statusCode).toBe(200);
  });
});

describe('two users in two workspaces', () => {
  let alice: TestUser;
  let bob: TestUser;
  let aliceTeam: string;
  let bobTeam: string;
  let aliceImage: string;
  let bobImage: string;
  beforeAll(async () => {
    alice = await createSignedInUser(t);
    bob = await createSignedInUser(t);
    aliceTeam = await createTeam(alice, 'Alice lab');
    bobTeam = await createTeam(bob, 'Bob lab');
    aliceImage = (await uploadFile(t, alice, 'alice.png', png)).json().stored_filename;
    bobImage = (await uploadFile(t, bob, 'bob.png', png)).json().stored_filename;
  });

  it("cannot see each other's images by any route, nor tell them from images that do not exist", async () => {
    for (const [user, foreign] of [
      [alice, bobImage],
      [bob, aliceImage],
    ] as const) {
      for (const suffix of ['', '/preview.png', '/metadata', '/qc-results']) {
        const res = await get(user, `/uploads/${foreign}${suffix}`);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ detail: 'Image not found' });
      }
      const names = (await get(user, '/uploads')).json().map((i: { stored_filename: string }) => i.stored_filename);
      expect(names).not.toContain(foreign);
      const deleted = await t.app.inject({ method: 'DELETE', url: `/api/v1/uploads/${foreign}`, headers: user.auth });
      expect(deleted.statusCode).toBe(404);
      const shared = await t.app.inject({
        method: 'POST',
        url: `/api/v1/uploads/${foreign}/share-links`,
        headers: user.auth,
      });
      expect(shared.statusCode).toBe(404);
    }
    expect((await get(alice, `/uploads/${aliceImage}`)).statusCode).toBe(200);
  });

  it("answers 404 for the other's workspace, by header or by path, as for one that does not exist", async () => {
    for (const url of ['/uploads', '/dashboard/metrics', '/dashboard/activity']) {
      const res = await get(alice, url, bobTeam);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Workspace not found' });
      expect((await get(alice, url, '00000000-0000-4000-8000-000000000000')).json()).toEqual(res.json());
      expect((await get(alice, url, 'not-a-uuid')).statusCode).toBe(404);
    }
    expect((await get(alice, `/workspaces/${bobTeam}/members`)).statusCode).toBe(404);
    const rename = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/workspaces/${bobTeam}`,
      headers: alice.auth,
      payload: { name: 'Mine now' },
    });
    expect(rename.statusCode).toBe(404);
    const listed = (await get(alice, '/workspaces')).json().map((w: { id: string }) => w.id);
    expect(listed).toContain(aliceTeam);
    expect(listed).not.toContain(bobTeam);
  });

  it('refuses a header sent twice as naming no workspace', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/uploads',
      headers: { ...alice.auth, [WORKSPACE_HEADER]: [aliceTeam, aliceTeam] },
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('members and roles', () => {
  let admin: TestUser;
  let colleague: TestUser;
  let team: string;
  let image: string;
  beforeAll(async () => {
    admin = await createSignedInUser(t, { name: 'Admin' });
    colleague = await createSignedInUser(t, { name: 'Colleague' });
    team = await createTeam(admin, 'Shared');
    await t.app.workspaces.addMember(team, colleague.id, 'viewer', t.clock.now());
    const body = multipartBody([{ field: 'file', filename: 'shared.png', content: png }]);
    image = (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/uploads',
        headers: { ...admin.auth, ...body.headers, [WORKSPACE_HEADER]: team },
        payload: body.payload,
      })
    ).json().stored_filename;
  });

  const patchMember = (user: TestUser, userId: string, payload: object) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/v1/workspaces/${team}/members/${userId}`,
      headers: user.auth,
      payload,
    });
  const deleteOwn = (user: TestUser) =>
    t.app.inject({
      method: 'DELETE',
      url: `/api/v1/uploads/${image}`,
      headers: { ...user.auth, [WORKSPACE_HEADER]: team },
    });

  it('lists members with their roles and permissions, admins first', async () => {
    const members = (await get(colleague, `/workspaces/${team}/members`)).json();
    expect(members.map((m: { name: string; role: string }) => [m.name, m.role])).toEqual([
      ['Admin', 'admin'],
      ['Colleague', 'viewer'],
    ]);
    expect(members[1]).toMatchObject({ user_id: colleague.id, email: colleague.email, permissions: [] });
  });

  it('applies a role change on the very next request', async () => {
    expect((await deleteOwn(colleague)).statusCode).toBe(403);
    const promoted = await patchMember(admin, colleague.id, { role: 'member', permissions: ['dataset.write'] });
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json()[1]).toMatchObject({ role: 'member', permissions: ['dataset.write'] });
    const listed = (await get(colleague, '/workspaces')).json().find((w: { id: string }) => w.id === team);
    expect(listed).toMatchObject({ role: 'member', permissions: ['dataset.write'], member_count: 2 });
    expect((await patchMember(admin, colleague.id, { role: 'viewer' })).statusCode).toBe(200);
    expect((await deleteOwn(colleague)).statusCode).toBe(403);
    expect((await get(colleague, `/uploads/${image}`, team)).statusCode).toBe(200);
  });

  it('refuses an unknown role, an empty change and an unknown member', async () => {
    expect((await patchMember(admin, colleague.id, { role: 'owner' })).statusCode).toBe(400);
    expect((await patchMember(admin, colleague.id, {})).statusCode).toBe(400);
    expect((await patchMember(admin, 'nobody', { role: 'viewer' })).statusCode).toBe(404);
    // A well-formed id of no member: the admin's own with its last digit changed (never to itself).
    const stranger = admin.id.replace(/.$/, (last) => (last === '0' ? '1' : '0'));
    expect((await patchMember(admin, stranger, { role: 'viewer' })).statusCode).toBe(404);
  });

  it('never leaves a workspace without an admin', async () => {
    const demoted = await patchMember(admin, admin.id, { role: 'member' });
    expect(demoted.statusCode).toBe(409);
    expect(demoted.json()).toEqual({ detail: 'A workspace needs at least one admin' });
    const left = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/workspaces/${team}/members/${admin.id}`,
      headers: admin.auth,
    });
    expect(left.statusCode).toBe(409);
  });

  it('keeps a personal workspace to its owner', async () => {
    const personal = (await get(admin, '/workspaces')).json()[0].id;
    await expect(t.app.workspaces.addMember(personal, colleague.id, 'viewer', t.clock.now())).rejects.toMatchObject({
      statusCode: 409,
    });
  });

  it('shuts a removed member out on the next request, with 404 as for a stranger', async () => {
    expect((await get(colleague, '/uploads', team)).statusCode).toBe(200);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/workspaces/${team}/members/${colleague.id}`,
      headers: admin.auth,
    });
    expect(removed.statusCode).toBe(204);
    expect((await get(colleague, '/uploads', team)).statusCode).toBe(404);
    expect((await get(colleague, `/uploads/${image}`, team)).statusCode).toBe(404);
    expect((await get(colleague, '/workspaces')).json()).toHaveLength(1);
  });

  it('lets a member leave on their own', async () => {
    const leaver = await createSignedInUser(t);
    await t.app.workspaces.addMember(team, leaver.id, 'reviewer', t.clock.now());
    const left = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/workspaces/${team}/members/${leaver.id}`,
      headers: leaver.auth,
    });
    expect(left.statusCode).toBe(204);
    expect((await get(leaver, '/uploads', team)).statusCode).toBe(404);
  });
});
