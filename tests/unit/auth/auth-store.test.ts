import { Window } from 'happy-dom';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../server/helpers/test-app.ts';
import { createSignedInUser, type TestUser } from '../../server/helpers/users.ts';
import { totpCodeAt } from '../../../server/modules/mfa/totp.ts';

type AuthStore = typeof import('../../../src/stores/auth.ts');
type SessionStore = typeof import('../../../src/stores/session.ts');

const SESSION_KEYS = ['token', 'authToken', 'user_id', 'user_name', 'user_email', 'session_ts', 'user'];

// The server runs in this process, so the test runs in Node with a browser window of its own (a
// happy-dom environment would replace Node's URL, which the server needs); fetch is Node's, for real.
const win = new Window({ url: 'http://127.0.0.1/login' });

/** Local storage as browsers expose it: keys are also properties, and deleting a missing one is fine. */
class BrowserLikeStorage {
  [key: string]: unknown;
  getItem(key: string): string | null {
    return Object.hasOwn(this, key) ? String(this[key]) : null;
  }
  setItem(key: string, value: string): void {
    this[key] = String(value);
  }
  removeItem(key: string): void {
    delete this[key];
  }
}
Object.assign(globalThis, { window: win, localStorage: new BrowserLikeStorage() });
const navigations: string[] = [];
win.location.assign = (url: string | URL) => void navigations.push(String(url));

/** Loads the stores against an API at `origin`, as the built site would with PUBLIC_API_BASE. */
async function loadStores(origin: string): Promise<{ auth: AuthStore; session: SessionStore }> {
  vi.resetModules();
  vi.stubEnv('PUBLIC_API_BASE', `${origin}/api/v1`);
  return {
    auth: await import('../../../src/stores/auth.ts'),
    session: await import('../../../src/stores/session.ts'),
  };
}

describe('the session and auth stores against the real API', () => {
  let t: TestApp;
  let user: TestUser;
  let auth: AuthStore;
  let session: SessionStore;
  beforeAll(async () => {
    t = await createTestApp();
    user = await createSignedInUser(t, { name: 'Ada' });
    ({ auth, session } = await loadStores(await t.app.listen({ host: '127.0.0.1', port: 0 })));
  }, 60_000);
  afterAll(async () => {
    vi.unstubAllEnvs();
    await t.close();
  });
  beforeEach(() => session.clearSession());

  it('signs in and writes every local key of the session', async () => {
    await auth.signIn(user.email, user.password);
    for (const key of SESSION_KEYS) expect(localStorage.getItem(key), key).not.toBeNull();
    expect(JSON.parse(localStorage.getItem('user')!)).toEqual({ id: user.id, name: 'Ada', email: user.email });
    expect(session.$signedIn.get()).toBe(true);
    expect(localStorage.getItem('authToken')).toBe(localStorage.getItem('token'));
  });

  it('turns a 401 into "Invalid email or password." and stores nothing', async () => {
    await expect(auth.signIn(user.email, 'Wrong-Password-1')).rejects.toThrow('Invalid email or password.');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('with MFA on, asks for a code and stores the session only once the code is right', async () => {
    const guarded = await createSignedInUser(t, { name: 'Grace' });
    const enrol = await t.app.inject({ method: 'POST', url: '/api/v1/account/mfa/enrol', headers: guarded.auth });
    const { secret } = enrol.json() as { secret: string };
    const confirm = await t.app.inject({
      method: 'POST',
      url: '/api/v1/account/mfa/confirm',
      headers: guarded.auth,
      payload: { code: totpCodeAt(secret, new Date()) },
    });
    expect(confirm.statusCode).toBe(200);

    const first = await auth.signIn(guarded.email, guarded.password);
    expect(first.status).toBe('code-needed');
    expect(localStorage.getItem('token')).toBeNull();
    const mfaToken = first.status === 'code-needed' ? first.mfaToken : '';
    await expect(auth.signInWithCode(mfaToken, '000000')).rejects.toThrow(
      'That code is not right, or it was used already. Try the current code.',
    );
    expect(localStorage.getItem('token')).toBeNull();
    // The next step's code: the one that confirmed the enrolment cannot be used again.
    await auth.signInWithCode(mfaToken, totpCodeAt(secret, new Date(Date.now() + 30_000)));
    for (const key of SESSION_KEYS) expect(localStorage.getItem(key), key).not.toBeNull();
    expect(JSON.parse(localStorage.getItem('user')!)).toMatchObject({ name: 'Grace', email: guarded.email });
  });

  it('signs out: the token is revoked on the server and every key removed', async () => {
    await auth.signIn(user.email, user.password);
    const token = localStorage.getItem('token')!;
    await auth.signOut();
    for (const key of SESSION_KEYS) expect(localStorage.getItem(key), key).toBeNull();
    const me = await t.app.inject({ url: '/api/v1/profile/me', headers: { authorization: `Bearer ${token}` } });
    expect(me.statusCode).toBe(401);
  });

  it('applies the global 401 rule: a dead token on any other call clears the session', async () => {
    session.storeSession({ token: 'x'.repeat(43), userId: 'u', name: 'N', email: 'e@example.org' });
    const { api } = await import('../../../src/lib/api.ts');
    await expect(api.url('/profile/me').get().json()).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(navigations.at(-1)).toBe('/login');
  });

  it('follows a sign-in or sign-out made in another tab', () => {
    localStorage.setItem('token', 'from-another-tab');
    win.dispatchEvent(new win.StorageEvent('storage', { key: 'token', newValue: 'from-another-tab' }));
    expect(session.$token.get()).toBe('from-another-tab');
    localStorage.removeItem('token');
    win.dispatchEvent(new win.StorageEvent('storage', { key: 'token', newValue: null }));
    expect(session.$signedIn.get()).toBe(false);
  });
});

describe('a login answer without a user id', () => {
  let server: Server;
  let profileCalls = 0;
  beforeAll(async () => {
    // An API that answers only the token, as SPEC §7 allows; it speaks the two routes the store calls.
    server = createServer((request, response) => {
      response.setHeader('content-type', 'application/json');
      if (request.url === '/api/v1/auth/login') return response.end(JSON.stringify({ access_token: 'tok-123' }));
      if (request.url === '/api/v1/profile/me') {
        profileCalls += 1;
        if (request.headers.authorization !== 'Bearer tok-123') response.statusCode = 401;
        return response.end(JSON.stringify({ user_id: 'id-9', name: 'Grace', email: 'grace@example.org' }));
      }
      response.statusCode = 404;
      response.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fills the user from GET /profile/me with the new token', async () => {
    const { auth, session } = await loadStores(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    session.clearSession();
    await auth.signIn('grace@example.org', 'whatever');
    expect(profileCalls).toBe(1);
    expect(session.$token.get()).toBe('tok-123');
    expect(session.$user.get()).toEqual({ id: 'id-9', name: 'Grace', email: 'grace@example.org' });
  });

  it('clears the local session on sign-out even when the server refuses the call', async () => {
    const { auth, session } = await loadStores(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    session.storeSession({ token: 'tok-123', userId: 'id-9', name: 'Grace', email: 'grace@example.org' });
    await auth.signOut(); // this server has no /auth/logout: it answers 404
    for (const key of SESSION_KEYS) expect(localStorage.getItem(key), key).toBeNull();
  });
});
