import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const get = (user: TestUser) => t.app.inject({ method: 'GET', url: '/api/v1/account/preferences', headers: user.auth });
const put = (user: TestUser, payload: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/v1/account/preferences',
    headers: user.auth,
    payload: payload as Record<string, unknown>,
  });

describe('date preferences', () => {
  it('start at UTC and ISO dates, and keep what the user saves, for that user only', async () => {
    const user = await createSignedInUser(t);
    const other = await createSignedInUser(t);
    expect((await get(user)).json()).toEqual({ time_zone: 'UTC', date_format: 'iso' });
    const saved = await put(user, { time_zone: 'Asia/Tokyo', date_format: 'dmy' });
    expect(saved.statusCode).toBe(200);
    expect((await get(user)).json()).toEqual({ time_zone: 'Asia/Tokyo', date_format: 'dmy' });
    expect((await put(user, { time_zone: 'America/New_York', date_format: 'long' })).statusCode).toBe(200);
    expect((await get(user)).json()).toEqual({ time_zone: 'America/New_York', date_format: 'long' });
    expect((await get(other)).json()).toEqual({ time_zone: 'UTC', date_format: 'iso' });
  });

  it('refuses a zone or format Settings does not offer with 400, and answers 401 without a session', async () => {
    const user = await createSignedInUser(t);
    for (const body of [
      { time_zone: 'Mars/Olympus', date_format: 'iso' },
      { time_zone: 'UTC', date_format: 'toString' },
      { time_zone: 'UTC' },
      [],
    ]) {
      const res = await put(user, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toHaveProperty('detail');
    }
    expect((await get(user)).json()).toEqual({ time_zone: 'UTC', date_format: 'iso' });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/account/preferences' })).statusCode).toBe(401);
  });
});
