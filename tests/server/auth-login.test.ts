import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../server/modules/audit/audit.table.ts';
import { AUTH_LIMITS } from '../../server/modules/auth/auth.limits.ts';
import { GOOD_PASSWORD, login, registerAndGetToken, registerVerifiedUser } from './auth-helpers.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser } from './helpers/users.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const me = (token: string) =>
  t.app.inject({ method: 'GET', url: '/api/v1/profile/me', headers: { authorization: `Bearer ${token}` } });

describe('POST /auth/login', () => {
  it('answers the token and the user, nested and at the top level, and the token opens the API', async () => {
    await registerVerifiedUser(t, 'marie@example.org', 'Marie Curie');
    const response = await login(t, 'Marie@Example.org ', GOOD_PASSWORD);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      token_type: 'bearer',
      user: { id: body.user_id, name: 'Marie Curie', email: 'marie@example.org' },
      user_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Marie Curie',
      email: 'marie@example.org',
      org_id: null,
    });
    expect((await me(body.access_token)).json().email).toBe('marie@example.org');
    const events = await t.app.db.select().from(auditEvents).where(eq(auditEvents.action, 'auth.login'));
    expect(events.map((e) => e.userId)).toContain(body.user_id);
  });

  it('gives a wrong password and an unknown e-mail the very same 401 answer', async () => {
    const wrong = await login(t, 'marie@example.org', 'Wrong-Password-1');
    const unknown = await login(t, 'nobody@example.org', 'Wrong-Password-1');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ detail: 'Invalid email or password.' });
    expect(unknown.body).toBe(wrong.body);
    const failures = await t.app.db.select().from(auditEvents).where(eq(auditEvents.action, 'auth.login_failed'));
    expect(failures.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(failures)).not.toContain('Wrong-Password-1');
  });

  it('takes about as long for an unknown e-mail as for a wrong password (a hash is checked either way)', async () => {
    const time = async (email: string) => {
      const start = performance.now();
      await login(t, email, 'Wrong-Password-2', '10.9.9.9');
      return performance.now() - start;
    };
    let known = 0;
    let unknown = 0;
    for (let i = 0; i < 3; i++) {
      known += await time('marie@example.org');
      unknown += await time(`ghost${i}@example.org`);
    }
    expect(unknown).toBeGreaterThan(known * 0.5);
  });

  it('says "not verified" with 403 only after a correct password', async () => {
    await registerAndGetToken(t, 'pending@example.org');
    const wrong = await login(t, 'pending@example.org', 'Wrong-Password-1');
    expect(wrong.statusCode).toBe(401);
    const right = await login(t, 'pending@example.org', GOOD_PASSWORD);
    expect(right.statusCode).toBe(403);
    expect(right.json()).toEqual({ detail: 'Email not verified. Please check your inbox.' });
  });

  it('answers 429 after too many failures for one account from one IP, without blocking others', async () => {
    const user = await createSignedInUser(t);
    const ip = '10.1.2.3';
    for (let i = 0; i < AUTH_LIMITS.failuresPerAccountAndIp.max; i++) {
      expect((await login(t, user.email, 'Wrong-Password-1', ip)).statusCode).toBe(401);
    }
    const blocked = await login(t, user.email, user.password, ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().detail).toMatch(/^Too many failed sign-in attempts\. Try again in \d+ minutes?/);
    // The same account from elsewhere, and another account from here, still sign in.
    expect((await login(t, user.email, user.password, '10.1.2.4')).statusCode).toBe(200);
    const other = await createSignedInUser(t);
    expect((await login(t, other.email, other.password, ip)).statusCode).toBe(200);
  });

  it('answers 429 to an IP spraying passwords over many accounts', async () => {
    const ip = '10.3.3.3';
    for (let i = 0; i < AUTH_LIMITS.failuresPerIp.max; i++) {
      expect((await login(t, `spray${i}@example.org`, 'Summer-2026!', ip)).statusCode).toBe(401);
    }
    const user = await createSignedInUser(t);
    expect((await login(t, user.email, user.password, ip)).statusCode).toBe(429);
    expect((await login(t, user.email, user.password, '10.3.3.4')).statusCode).toBe(200);
  });

  it('never counts successful sign-ins against the limits', async () => {
    const user = await createSignedInUser(t);
    for (let i = 0; i < AUTH_LIMITS.failuresPerAccountAndIp.max + 5; i++) {
      expect((await login(t, user.email, user.password, '10.7.7.7')).statusCode).toBe(200);
    }
  });
});

describe('POST /auth/logout and session lifetime', () => {
  it('revokes the token on the server: it then gets 401 everywhere', async () => {
    const user = await createSignedInUser(t);
    const out = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: user.auth });
    expect(out.statusCode).toBe(200);
    expect((await me(user.token)).statusCode).toBe(401);
    const again = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: user.auth });
    expect(again.statusCode).toBe(401);
    const [event] = await t.app.db.select().from(auditEvents).where(eq(auditEvents.action, 'auth.logout'));
    expect(event!.userId).toBe(user.id);
  });

  it('answers 401 to a logout without a token', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout' })).statusCode).toBe(401);
  });

  it('ends a session after 12 hours idle, and after 7 days even when used', async () => {
    const idle = await createSignedInUser(t);
    t.clock.advance(12 * 3_600_000 + 60_000);
    expect((await me(idle.token)).statusCode).toBe(401);

    const busy = await createSignedInUser(t);
    for (let hour = 0; hour < 7 * 24 - 6; hour += 6) {
      t.clock.advance(6 * 3_600_000);
      expect((await me(busy.token)).statusCode).toBe(200);
    }
    t.clock.advance(12 * 3_600_000);
    expect((await me(busy.token)).statusCode).toBe(401);
  });
});
