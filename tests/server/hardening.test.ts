import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_LIMITS } from '../../server/modules/auth/auth.limits.ts';
import { login } from './auth-helpers.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser } from './helpers/users.ts';

describe('client addresses without TRUST_PROXY', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('ignores X-Forwarded-For: a client cannot pick a new address for each guess', async () => {
    const user = await createSignedInUser(t);
    for (let i = 0; i < AUTH_LIMITS.failuresPerAccountAndIp.max; i++) {
      const guess = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: user.email, password: 'Wrong-Password-1' },
        remoteAddress: '10.20.0.1',
        headers: { 'x-forwarded-for': `198.51.100.${i + 1}` },
      });
      expect(guess.statusCode).toBe(401);
    }
    const next = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: user.email, password: user.password },
      remoteAddress: '10.20.0.1',
      headers: { 'x-forwarded-for': '203.0.113.77' },
    });
    expect(next.statusCode).toBe(429);
  });

  it('counts failures per account across addresses, and locks a known and an unknown account alike', async () => {
    const user = await createSignedInUser(t);
    const ghost = 'nobody-here@example.org';
    for (let i = 0; i < AUTH_LIMITS.failuresPerAccount.max; i++) {
      // A fresh address per guess, each far below its own limits.
      expect((await login(t, user.email, 'Wrong-Password-1', `10.30.${i >> 8}.${i & 255}`)).statusCode).toBe(401);
      expect((await login(t, ghost, 'Wrong-Password-1', `10.31.${i >> 8}.${i & 255}`)).statusCode).toBe(401);
    }
    const locked = await login(t, user.email, user.password, '10.32.0.1');
    const lockedGhost = await login(t, ghost, 'Wrong-Password-1', '10.32.0.2');
    expect(locked.statusCode).toBe(429);
    expect(lockedGhost.statusCode).toBe(429);
    expect(lockedGhost.body).toBe(locked.body);
    expect(locked.headers['cache-control']).toBe('no-store');
    // Another account from the same addresses is untouched.
    const other = await createSignedInUser(t);
    expect((await login(t, other.email, other.password, '10.32.0.1')).statusCode).toBe(200);
  });

  it('sends no HSTS over plain HTTP, even when a client claims HTTPS', async () => {
    const res = await t.app.inject({ url: '/api/v1/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('behind a trusted proxy (TRUST_PROXY=1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: '1' });
  });
  afterAll(() => t.close());

  it("takes the proxy's X-Forwarded-For as the client address", async () => {
    const user = await createSignedInUser(t);
    for (let i = 0; i < AUTH_LIMITS.failuresPerAccountAndIp.max; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: user.email, password: 'Wrong-Password-1' },
        remoteAddress: '10.40.0.1',
        headers: { 'x-forwarded-for': '198.51.100.9' },
      });
      expect(res.statusCode).toBe(401);
    }
    const sameClient = { 'x-forwarded-for': '198.51.100.9' };
    const otherClient = { 'x-forwarded-for': '198.51.100.10' };
    const payload = { email: user.email, password: user.password };
    const inject = (headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload, remoteAddress: '10.40.0.1', headers });
    expect((await inject(sameClient)).statusCode).toBe(429);
    expect((await inject(otherClient)).statusCode).toBe(200);
  });

  it('sends HSTS when the proxy says the client came over HTTPS', async () => {
    const res = await t.app.inject({ url: '/api/v1/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const plain = await t.app.inject({ url: '/api/v1/health' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('headers and unstorable text', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('switches off unused browser features and keeps API answers out of caches', async () => {
    const user = await createSignedInUser(t);
    const res = await t.app.inject({ url: '/api/v1/profile/me', headers: user.auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['permissions-policy']).toContain('camera=()');
    expect(res.headers['cache-control']).toBe('no-store');
    const signIn = await login(t, user.email, user.password);
    expect(signIn.statusCode).toBe(200);
    expect(signIn.headers['cache-control']).toBe('no-store');
    const list = await t.app.inject({ url: '/api/v1/uploads', headers: user.auth });
    expect(list.headers['cache-control']).toBe('no-store');
  });

  it('answers 400, never 500, to NUL bytes and lone surrogates in bodies, queries and paths', async () => {
    const user = await createSignedInUser(t);
    const cases = [
      { method: 'POST', url: '/api/v1/auth/login', payload: { email: 'a\u0000@example.org', password: 'x' } },
      { method: 'POST', url: '/api/v1/auth/login', payload: { email: '\ud800@example.org', password: 'x' } },
      { method: 'POST', url: '/api/v1/auth/forgot-password', payload: { email: 'a@example.org\udc00' } },
      { method: 'GET', url: '/api/v1/uploads/abc%00.png', headers: user.auth },
      { method: 'GET', url: '/api/v1/uploads?cursor=%00', headers: user.auth },
      { method: 'PATCH', url: '/api/v1/profile/me', payload: { name: 'Ada\u0000' }, headers: user.auth },
    ] as const;
    for (const request of cases) {
      const res = await t.app.inject(request as unknown as InjectOptions);
      expect(res.statusCode, `${request.method} ${request.url}`).toBe(400);
      expect(res.json().detail).toMatch(/NUL|surrogate/);
    }
    // Paired surrogates (an emoji) are ordinary text.
    const emoji = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/profile/me',
      payload: { name: 'Ada 🔬' },
      headers: user.auth,
    });
    expect(emoji.statusCode).toBe(200);
  });

  it('answers 400 to multipart bodies with a missing or broken boundary', async () => {
    const user = await createSignedInUser(t);
    for (const type of [
      'multipart/form-data; boundary=',
      'multipart/form-data; boundary="unterminated',
      'multipart/form-data',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/uploads',
        headers: { ...user.auth, 'content-type': type },
        payload: '--x\r\n\r\n',
      });
      expect(res.statusCode, type).toBe(400);
      expect(res.json().detail).toBeTypeOf('string');
    }
  });
});
