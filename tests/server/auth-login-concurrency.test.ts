import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_LIMITS } from '../../server/modules/auth/auth.limits.ts';
import { passwordVerificationsStarted } from '../../server/modules/auth/passwords.ts';
import { totpCodeAt } from '../../server/modules/mfa/totp.ts';
import { linkTo, login, waitForMail } from './auth-helpers.ts';
import { readOutbox } from './helpers/outbox.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';

// Runs on in-process counters, and on Redis when REDIS_URL is set (as CI does).
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {});
});
afterAll(() => t.close());

/** A documentation address of its own for each use: a Redis server keeps counters between runs. */
const freshIp = () => `2001:db8::${randomBytes(8).toString('hex').match(/.{4}/g)!.join(':')}`;

/** The statuses of the answers, counted: { 401: 10, 429: 50 }. */
function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** Fires `count` sign-ins at once and answers their statuses and how many passwords were verified meanwhile. */
async function burst(count: number, attempt: (i: number) => ReturnType<typeof login>) {
  const before = passwordVerificationsStarted();
  const answers = await Promise.all(Array.from({ length: count }, (_, i) => attempt(i)));
  return {
    answers,
    statuses: tally(answers.map((a) => a.statusCode)),
    checks: passwordVerificationsStarted() - before,
  };
}

/** Resets the user's password through the mailed link, as the owner would. */
async function resetPassword(user: TestUser, password: string): Promise<void> {
  const isReset = (m: { to: string; subject: string }) => m.to.includes(user.email) && m.subject.startsWith('Reset');
  const earlier = (await readOutbox(t.dataDir)).filter(isReset).length;
  const post = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/v1/auth/${url}`, payload, remoteAddress: freshIp() });
  expect((await post('forgot-password', { email: user.email })).statusCode).toBe(200);
  const link = linkTo(t, await waitForMail(t, isReset, 5_000, earlier), '/reset-password');
  const token = link.searchParams.get('token');
  expect((await post('reset-password', { token, email: user.email, password })).statusCode).toBe(200);
}

describe('sign-in limits under concurrent attempts', () => {
  it('lets 60 concurrent wrong passwords for one account check no more passwords than its limit', async () => {
    const user = await createSignedInUser(t);
    const ip = freshIp();
    const { answers, statuses, checks } = await burst(60, () => login(t, user.email, 'Wrong-Password-1', ip));
    const limit = AUTH_LIMITS.failuresPerAccountAndIp.max;
    expect(statuses).toEqual({ 401: limit, 429: 60 - limit });
    expect(checks).toBeLessThanOrEqual(limit);
    const refused = answers.find((a) => a.statusCode === 429)!;
    expect(refused.json().detail).toMatch(
      /^Too many failed sign-in attempts\. Try again in \d+ minutes? or reset your password\.$/,
    );
  });

  it('lets 1,000 concurrent sprays from one address over different accounts check at most 100 passwords', async () => {
    const ip = freshIp();
    const run = randomBytes(4).toString('hex');
    const { statuses, checks } = await burst(1000, (i) =>
      login(t, `spray-${run}-${i}@example.org`, 'Summer-2026!', ip),
    );
    expect(checks).toBeLessThanOrEqual(AUTH_LIMITS.failuresPerIp.max);
    expect(statuses[401]).toBe(AUTH_LIMITS.failuresPerIp.max);
    expect(statuses[429]).toBe(1000 - AUTH_LIMITS.failuresPerIp.max);
  }, 120_000);

  it("does not lock the owner out at another address while one address's burst is refused", async () => {
    const user = await createSignedInUser(t);
    const attacker = freshIp();
    const { statuses } = await burst(60, () => login(t, user.email, 'Wrong-Password-1', attacker));
    expect(statuses[429]).toBeGreaterThan(0);
    expect((await login(t, user.email, user.password, freshIp())).statusCode).toBe(200);
    // A second burst from the same address still fills nothing beyond that address's own counter.
    await burst(60, () => login(t, user.email, 'Wrong-Password-1', attacker));
    expect((await login(t, user.email, user.password, freshIp())).statusCode).toBe(200);
  });

  it('takes a right password back off the counters, so an owner who signs in often is never refused', async () => {
    const user = await createSignedInUser(t);
    const ip = freshIp();
    const { statuses } = await burst(AUTH_LIMITS.failuresPerAccountAndIp.max * 2, () =>
      login(t, user.email, user.password, ip),
    );
    // Concurrent right passwords may briefly fill the counter; once answered, none of them is left on it.
    expect((statuses[200] ?? 0) + (statuses[429] ?? 0)).toBe(AUTH_LIMITS.failuresPerAccountAndIp.max * 2);
    for (let i = 0; i < AUTH_LIMITS.failuresPerAccountAndIp.max - 1; i++) {
      expect((await login(t, user.email, 'Wrong-Password-1', ip)).statusCode).toBe(401);
    }
    expect((await login(t, user.email, user.password, ip)).statusCode).toBe(200);
  });
});

// Redis (as in CI) shows the race a check-then-count limiter loses: each count is a round trip.
describe('second-factor codes under concurrent attempts', () => {
  it('lets 30 concurrent wrong codes for one account be checked no more times than its code limit', async () => {
    const user = await createSignedInUser(t);
    const call = (url: string, payload?: object) =>
      t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: user.auth, ...(payload ? { payload } : {}) });
    const { secret } = (await call('/account/mfa/enrol')).json() as { secret: string };
    expect((await call('/account/mfa/confirm', { code: totpCodeAt(secret, t.clock.now()) })).statusCode).toBe(200);
    const first = await login(t, user.email, user.password, freshIp());
    const mfaToken = first.json().mfa_token as string;
    // Codes that match no step near now, so every one of them is wrong.
    const near = [-60_000, -30_000, 0, 30_000, 60_000].map((d) =>
      totpCodeAt(secret, new Date(t.clock.now().getTime() + d)),
    );
    const wrong = Array.from({ length: 200 }, (_, i) => String(100000 + i * 4099).slice(0, 6)).filter(
      (code) => !near.includes(code),
    );
    const answers = await Promise.all(
      wrong
        .slice(0, 30)
        .map((code) =>
          t.app.inject({ method: 'POST', url: '/api/v1/auth/login/mfa', payload: { mfa_token: mfaToken, code } }),
        ),
    );
    const limit = AUTH_LIMITS.codeFailuresPerAccount.max;
    expect(tally(answers.map((a) => a.statusCode))).toEqual({ 401: limit, 429: 30 - limit });
  });
});

describe('a password reset', () => {
  it("starts the account's counters afresh at every address", async () => {
    const user = await createSignedInUser(t);
    const addresses = [freshIp(), freshIp(), freshIp()];
    // Wrong passwords from three addresses fill the account's own counter as well as each address's.
    for (const ip of addresses) {
      const { statuses } = await burst(AUTH_LIMITS.failuresPerAccountAndIp.max, () =>
        login(t, user.email, 'Wrong-Password-1', ip),
      );
      expect(statuses).toEqual({ 401: AUTH_LIMITS.failuresPerAccountAndIp.max });
    }
    expect((await login(t, user.email, user.password, addresses[0])).statusCode).toBe(429);
    expect((await login(t, user.email, user.password, freshIp())).statusCode).toBe(429);

    const newPassword = 'Fresh-Start-2026!';
    await resetPassword(user, newPassword);
    expect((await login(t, user.email, newPassword, addresses[0])).statusCode).toBe(200);
    expect((await login(t, user.email, newPassword, freshIp())).statusCode).toBe(200);
  });
});
