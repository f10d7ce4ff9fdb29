import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMessages } from '../../contract/account.ts';
import { auditEvents } from '../../server/modules/audit/audit.table.ts';
import { AUTH_LIMITS } from '../../server/modules/auth/auth.limits.ts';
import { mfaFactors, mfaRecoveryCodes } from '../../server/modules/mfa/mfa.table.ts';
import { totpCodeAt } from '../../server/modules/mfa/totp.ts';
import { login } from './auth-helpers.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const STEP_MS = 30_000;

const call = (user: TestUser, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: user.auth, ...(payload ? { payload } : {}) });

/** Moves the clock to the start of the next 30-second step, so each test's codes are fresh ones. */
function nextStep(): void {
  const now = t.clock.now().getTime();
  t.clock.advance(STEP_MS - (now % STEP_MS) + 1_000);
}

/** Enrols an authenticator for the user through the API; returns its secret and recovery codes. */
async function enrol(user: TestUser): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await call(user, 'POST', '/account/mfa/enrol');
  expect(started.statusCode).toBe(200);
  const { secret } = started.json() as { secret: string };
  const confirmed = await call(user, 'POST', '/account/mfa/confirm', { code: totpCodeAt(secret, t.clock.now()) });
  expect(confirmed.statusCode).toBe(200);
  nextStep();
  return { secret, recoveryCodes: confirmed.json().recovery_codes };
}

/** The first step of signing in, for an account with MFA on: the challenge token. */
async function challenge(user: TestUser): Promise<string> {
  const first = await login(t, user.email, user.password);
  expect(first.statusCode).toBe(200);
  expect(first.json().access_token).toBeUndefined();
  expect(first.json().mfa_required).toBe(true);
  return first.json().mfa_token;
}

const secondStep = (mfaToken: string, code: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/auth/login/mfa', payload: { mfa_token: mfaToken, code } });

describe('MFA enrolment', () => {
  it('shows a QR code and secret, turns on only after a right code, and gives ten recovery codes once', async () => {
    const user = await createSignedInUser(t, { email: 'enrol@example.org' });
    expect((await call(user, 'GET', '/account/mfa')).json()).toEqual({ enabled: false, recovery_codes_left: 0 });

    const started = await call(user, 'POST', '/account/mfa/enrol');
    expect(started.statusCode).toBe(200);
    const { secret, otpauth_uri, qr_svg } = started.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_uri).toBe(
      `otpauth://totp/LumenQC:enrol%40example.org?issuer=LumenQC&secret=${secret}&algorithm=SHA1&digits=6&period=30`,
    );
    expect(qr_svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^]*<\/svg>\s*$/);

    // Not on yet: a pending set-up does not change sign-in.
    expect((await login(t, user.email, user.password)).json().access_token).toEqual(expect.any(String));
    const wrong = await call(user, 'POST', '/account/mfa/confirm', { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ detail: accountMessages.wrongCode });
    expect((await call(user, 'GET', '/account/mfa')).json().enabled).toBe(false);

    const confirmed = await call(user, 'POST', '/account/mfa/confirm', { code: totpCodeAt(secret, t.clock.now()) });
    expect(confirmed.statusCode).toBe(200);
    const codes: string[] = confirmed.json().recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect((await call(user, 'GET', '/account/mfa')).json()).toEqual({ enabled: true, recovery_codes_left: 10 });

    // Recovery codes are kept only as hashes; none of them appears in the database in clear.
    const stored = await t.app.db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, user.id));
    expect(stored).toHaveLength(10);
    const dump = JSON.stringify(stored);
    for (const code of codes) expect(dump).not.toContain(code.replace('-', ''));
    const events = await t.app.db.select().from(auditEvents).where(eq(auditEvents.userId, user.id));
    expect(events.map((e) => e.action)).toContain('auth.mfa_enabled');
  });

  it('refuses a second enrolment while one authenticator is on, and a confirm with nothing started', async () => {
    const user = await createSignedInUser(t);
    expect((await call(user, 'POST', '/account/mfa/confirm', { code: '123456' })).json()).toEqual({
      detail: accountMessages.mfaNotStarted,
    });
    await enrol(user);
    const again = await call(user, 'POST', '/account/mfa/enrol');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ detail: accountMessages.mfaAlreadyOn });
  });

  it('answers 401 without a session', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/account/mfa/enrol' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toHaveProperty('detail');
  });
});

describe('signing in with MFA', () => {
  it('asks for a code after the password and signs in with the right one', async () => {
    const user = await createSignedInUser(t);
    const { secret } = await enrol(user);
    const token = await challenge(user);

    const wrong = await secondStep(token, '999999');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ detail: accountMessages.wrongCode });

    // A typo does not spend the sign-in: the right code still works with the same token.
    const right = await secondStep(token, totpCodeAt(secret, t.clock.now()));
    expect(right.statusCode).toBe(200);
    const answer = right.json();
    expect(answer).toMatchObject({ token_type: 'bearer', user_id: user.id, email: user.email });
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/v1/profile/me',
      headers: { authorization: `Bearer ${answer.access_token}` },
    });
    expect(me.statusCode).toBe(200);
    // The challenge token is single use.
    expect((await secondStep(token, totpCodeAt(secret, t.clock.now()))).json()).toEqual({
      detail: accountMessages.signInExpired,
    });
  });

  it('refuses the same code twice within its window, and accepts the next one', async () => {
    const user = await createSignedInUser(t);
    const { secret } = await enrol(user);
    const code = totpCodeAt(secret, t.clock.now());
    expect((await secondStep(await challenge(user), code)).statusCode).toBe(200);
    const replay = await secondStep(await challenge(user), code);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ detail: accountMessages.wrongCode });
    // A code from the step before the one used is refused too: steps only move forward.
    const earlier = totpCodeAt(secret, new Date(t.clock.now().getTime() - STEP_MS));
    expect((await secondStep(await challenge(user), earlier)).statusCode).toBe(401);
    nextStep();
    expect((await secondStep(await challenge(user), totpCodeAt(secret, t.clock.now()))).statusCode).toBe(200);
  });

  it('accepts a code from the step before or after (clock drift), not from two steps away', async () => {
    const user = await createSignedInUser(t);
    const { secret } = await enrol(user);
    const at = (offsetSteps: number) => totpCodeAt(secret, new Date(t.clock.now().getTime() + offsetSteps * STEP_MS));
    expect((await secondStep(await challenge(user), at(-2))).statusCode).toBe(401);
    expect((await secondStep(await challenge(user), at(3))).statusCode).toBe(401);
    expect((await secondStep(await challenge(user), at(1))).statusCode).toBe(200);
  });

  it('accepts each recovery code once, in any case and with spaces', async () => {
    const user = await createSignedInUser(t);
    const { recoveryCodes } = await enrol(user);
    const [first, second] = recoveryCodes as [string, string];
    expect((await secondStep(await challenge(user), first)).statusCode).toBe(200);
    const reused = await secondStep(await challenge(user), first);
    expect(reused.statusCode).toBe(401);
    expect(reused.json()).toEqual({ detail: accountMessages.wrongCode });
    const typed = ` ${second.toUpperCase().replace('-', ' ')} `;
    expect((await secondStep(await challenge(user), typed)).statusCode).toBe(200);
    expect((await call(user, 'GET', '/account/mfa')).json().recovery_codes_left).toBe(8);
    // Another user's recovery code proves nothing for this account.
    const other = await createSignedInUser(t);
    const { recoveryCodes: othersCodes } = await enrol(other);
    expect((await secondStep(await challenge(user), othersCodes[0]!)).statusCode).toBe(401);
  });

  it('answers 429 after five wrong codes, even to the right one, until the window ends', async () => {
    const user = await createSignedInUser(t);
    const { secret } = await enrol(user);
    const token = await challenge(user);
    for (let i = 0; i < AUTH_LIMITS.codeFailuresPerAccount.max; i++) {
      expect((await secondStep(token, String(100000 + i))).statusCode).toBe(401);
    }
    const locked = await secondStep(token, totpCodeAt(secret, t.clock.now()));
    expect(locked.statusCode).toBe(429);
    expect(locked.json().detail).toMatch(/^Too many wrong codes\. Try again in \d+ minutes?\.$/);
    // A fresh challenge does not reset the count: the limit is per account, not per sign-in.
    expect((await secondStep(await challenge(user), totpCodeAt(secret, t.clock.now()))).statusCode).toBe(429);
  });

  it('refuses a challenge older than five minutes, and a made-up one', async () => {
    const user = await createSignedInUser(t);
    const { secret } = await enrol(user);
    const token = await challenge(user);
    t.clock.advance(5 * 60_000 + 1_000);
    const late = await secondStep(token, totpCodeAt(secret, t.clock.now()));
    expect(late.statusCode).toBe(401);
    expect(late.json()).toEqual({ detail: accountMessages.signInExpired });
    expect((await secondStep('x'.repeat(43), '123456')).statusCode).toBe(401);
    nextStep();
  });

  it('answers 400, not 500, to a malformed second step', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login/mfa', payload: { code: 5 } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty('detail');
  });
});

describe('turning MFA off', () => {
  it('asks for a code: a wrong one keeps MFA on, the right one turns it off', async () => {
    const user = await createSignedInUser(t);
    const { secret } = await enrol(user);
    const wrong = await call(user, 'POST', '/account/mfa/disable', { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ detail: accountMessages.wrongCode });
    expect((await call(user, 'GET', '/account/mfa')).json().enabled).toBe(true);

    const off = await call(user, 'POST', '/account/mfa/disable', { code: totpCodeAt(secret, t.clock.now()) });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ message: accountMessages.mfaDisabled });
    expect((await call(user, 'GET', '/account/mfa')).json()).toEqual({ enabled: false, recovery_codes_left: 0 });
    expect(await t.app.db.select().from(mfaFactors).where(eq(mfaFactors.userId, user.id))).toEqual([]);
    expect(await t.app.db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, user.id))).toEqual([]);
    // Sign-in needs the password only again.
    expect((await login(t, user.email, user.password)).json().access_token).toEqual(expect.any(String));
    expect((await call(user, 'POST', '/account/mfa/disable', { code: '123456' })).json()).toEqual({
      detail: accountMessages.mfaNotOn,
    });
  });

  it('accepts a recovery code to turn MFA off (a lost phone)', async () => {
    const user = await createSignedInUser(t);
    const { recoveryCodes } = await enrol(user);
    const off = await call(user, 'POST', '/account/mfa/disable', { code: recoveryCodes[3] });
    expect(off.statusCode).toBe(200);
  });
});
