import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../server/modules/audit/audit.table.ts';
import { AUTH_LIMITS } from '../../server/modules/auth/auth.limits.ts';
import { GOOD_PASSWORD, linkTo, login, waitForMail } from './auth-helpers.ts';
import { readOutbox, type OutboxMessage } from './helpers/outbox.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload: Record<string, unknown>, remoteAddress = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: `/api/v1/auth/${url}`, payload, remoteAddress });

/** Asks for a reset of the user's password and returns the token and e-mail of the mailed link. */
async function resetLink(user: TestUser): Promise<{ token: string; email: string }> {
  const isReset = (m: OutboxMessage) => m.to.includes(user.email) && m.subject.startsWith('Reset');
  const before = (await readOutbox(t.dataDir)).length;
  const earlier = (await readOutbox(t.dataDir)).filter(isReset).length;
  expect((await post('forgot-password', { email: user.email.toUpperCase() })).statusCode).toBe(200);
  // The mail is sent after the answer, so wait for this request's mail, not an earlier link's.
  const mail = await waitForMail(t, (m) => isReset(m), 5_000, earlier);
  expect((await readOutbox(t.dataDir)).length).toBe(before + 1);
  const link = linkTo(t, mail, '/reset-password');
  return { token: link.searchParams.get('token')!, email: link.searchParams.get('email')! };
}

const NEW_PASSWORD = 'Brand-New-Pass-7';

describe('POST /auth/forgot-password', () => {
  it('answers known and unknown addresses identically, and mails only the known one', async () => {
    const user = await createSignedInUser(t, { email: 'first+tag@example.org' });
    const known = await post('forgot-password', { email: user.email });
    const unknown = await post('forgot-password', { email: 'stranger@example.org' });
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual({ message: 'If the email exists, a reset link has been sent.' });
    expect(unknown.body).toBe(known.body);
    const mail = await waitForMail(t, (m) => m.to.includes(user.email));
    // The address travels URL-encoded: the "+" survives the trip.
    expect(mail.links.some((l) => l.includes('email=first%2Btag%40example.org'))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await readOutbox(t.dataDir)).some((m) => m.to.includes('stranger'))).toBe(false);
  });

  it('answers 429 past the per-address mail limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= AUTH_LIMITS.mailsPerAddress.max; i++) {
      statuses.push((await post('forgot-password', { email: 'flood@example.org' }, '10.0.0.9')).statusCode);
    }
    expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true);
    const last = await post('forgot-password', { email: 'FLOOD@example.org' }, '10.0.0.10');
    expect(last.statusCode).toBe(429);
    expect(last.json().detail).toMatch(/^Too many e-mails requested\. Try again in \d+ minutes?\.$/);
  });
});

describe('per-IP limits', () => {
  it('answers 429 past the per-IP mail limit, whatever the addresses', async () => {
    const ip = '10.0.1.1';
    for (let i = 0; i < AUTH_LIMITS.mailsPerIp.max; i++) {
      expect((await post('forgot-password', { email: `many${i}@example.org` }, ip)).statusCode).toBe(200);
    }
    expect((await post('forgot-password', { email: 'one-more@example.org' }, ip)).statusCode).toBe(429);
    expect((await post('forgot-password', { email: 'one-more@example.org' }, '10.0.1.2')).statusCode).toBe(200);
  });

  it('answers 429 past the per-IP limit of token checks', async () => {
    const ip = '10.0.2.1';
    const check = () => post('validate-reset-token', { token: 'z'.repeat(43), email: 'a@example.org' }, ip);
    for (let i = 0; i < AUTH_LIMITS.tokenChecksPerIp.max; i++) expect((await check()).statusCode).toBe(400);
    const refused = await check();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().detail).toMatch(/^Too many attempts\. Try again in 1 minute\.$/);
  });
});

describe('reset-password', () => {
  it('validates the link, sets the password, revokes every session and refuses the link a second time', async () => {
    const user = await createSignedInUser(t);
    const { token, email } = await resetLink(user);
    expect((await post('validate-reset-token', { token, email })).json()).toEqual({ message: 'Reset link is valid.' });
    const reset = await post('reset-password', { token, email, password: NEW_PASSWORD });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ message: 'Password has been reset successfully.' });
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/profile/me', headers: user.auth });
    expect(me.statusCode).toBe(401);
    expect((await login(t, user.email, user.password)).statusCode).toBe(401);
    expect((await login(t, user.email, NEW_PASSWORD)).statusCode).toBe(200);

    const again = await post('reset-password', { token, email, password: 'Another-Pass-8' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      detail: 'Invalid or expired reset token. Please request a new password reset.',
    });
    expect((await post('validate-reset-token', { token, email })).statusCode).toBe(400);

    const events = await t.app.db.select().from(auditEvents).where(eq(auditEvents.userId, user.id));
    expect(events.map((e) => e.action)).toEqual(
      expect.arrayContaining(['auth.reset_requested', 'auth.password_reset']),
    );
    expect(events.every((e) => e.ip === '127.0.0.1')).toBe(true);
    expect(JSON.stringify(events)).not.toContain(token);
  });

  it('refuses a link older than 30 minutes', async () => {
    const user = await createSignedInUser(t);
    const { token, email } = await resetLink(user);
    t.clock.advance(30 * 60_000 + 1_000);
    expect((await post('validate-reset-token', { token, email })).statusCode).toBe(400);
    const reset = await post('reset-password', { token, email, password: NEW_PASSWORD });
    expect(reset.statusCode).toBe(400);
    expect((await login(t, user.email, user.password)).statusCode).toBe(200);
  });

  it('refuses a token with another address, an unknown token and a weak password', async () => {
    const user = await createSignedInUser(t);
    const other = await createSignedInUser(t);
    const { token, email } = await resetLink(user);
    expect((await post('validate-reset-token', { token, email: other.email })).statusCode).toBe(400);
    expect((await post('validate-reset-token', { token: 'y'.repeat(43), email })).statusCode).toBe(400);
    const weak = await post('reset-password', { token, email, password: 'weakpassword' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toEqual({
      detail: 'Password too weak. Use 8+ chars with uppercase, number, and special char.',
    });
    // A refused weak password does not use up the link.
    expect((await post('reset-password', { token, email, password: GOOD_PASSWORD })).statusCode).toBe(200);
  });

  it('kills older reset links once one of them is used', async () => {
    const user = await createSignedInUser(t);
    const older = await resetLink(user);
    const newer = await resetLink(user);
    expect((await post('reset-password', { ...newer, password: NEW_PASSWORD })).statusCode).toBe(200);
    expect((await post('reset-password', { ...older, password: GOOD_PASSWORD })).statusCode).toBe(400);
  });
});
