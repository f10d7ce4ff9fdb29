import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';

let t: TestApp;
let ada: TestUser;
let bob: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  ada = await createSignedInUser(t, { name: 'Ada' });
  bob = await createSignedInUser(t, { name: 'Bob' });
});
afterAll(() => t.close());

const get = (url: string, user?: TestUser) =>
  t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: user?.auth ?? {} });
const patch = (payload: Record<string, unknown>, user: TestUser = ada) =>
  t.app.inject({ method: 'PATCH', url: '/api/v1/profile/me', headers: user.auth, payload });

describe('profile', () => {
  it('answers GET /profile/me with every profile field', async () => {
    const response = await get('/profile/me', ada);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      user_id: ada.id,
      name: 'Ada',
      email: ada.email,
      role: null,
      institution: null,
      bio: null,
      avatar_url: null,
      org_id: null,
    });
  });

  it('answers 401 without a token or with an unknown one', async () => {
    expect((await get('/profile/me')).statusCode).toBe(401);
    const forged = await t.app.inject({
      method: 'GET',
      url: '/api/v1/profile/me',
      headers: { authorization: `Bearer ${'z'.repeat(43)}` },
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toEqual({ detail: 'Not authenticated' });
  });

  it('updates name, role, institution and bio, keeps left-out fields and clears empty ones', async () => {
    const saved = await patch({ name: ' Ada L. ', role: 'Radiologist', institution: 'CHU Lyon', bio: 'MRI QC' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ name: 'Ada L.', role: 'Radiologist', institution: 'CHU Lyon', bio: 'MRI QC' });
    const partial = await patch({ bio: '' });
    expect(partial.json()).toMatchObject({ name: 'Ada L.', role: 'Radiologist', bio: null });
    expect((await get('/profile/me', ada)).json()).toMatchObject({ name: 'Ada L.', institution: 'CHU Lyon' });
  });

  it.each([
    [{ name: '  ' }, 'name: Display name is required'],
    [{ name: 'x'.repeat(101) }, 'name: Display name is too long (100 characters at most)'],
    [{ bio: 'x'.repeat(2001) }, 'bio: Bio is too long (2000 characters at most)'],
    [{ role: 'x'.repeat(101) }, 'role: Role is too long (100 characters at most)'],
  ])('refuses %j with 400', async (payload, detail) => {
    const response = await patch(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail });
  });

  it("shows another user's id and name only, one's own profile in full, and 404 for unknown ids", async () => {
    expect((await get(`/profile/${bob.id}`, ada)).json()).toEqual({ user_id: bob.id, name: 'Bob' });
    expect((await get(`/profile/${ada.id}`, ada)).json()).toMatchObject({ user_id: ada.id, email: ada.email });
    expect((await get('/profile/00000000-0000-4000-8000-000000000000', ada)).statusCode).toBe(404);
    expect((await get('/profile/not-a-uuid', ada)).statusCode).toBe(404);
    expect((await get(`/profile/${bob.id}`)).statusCode).toBe(401);
  });
});
