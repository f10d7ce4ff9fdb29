import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../server/modules/audit/audit.table.ts';
import { authTokens } from '../../server/modules/auth/auth-tokens.table.ts';
import { users } from '../../server/modules/auth/users.table.ts';
import { GOOD_PASSWORD, linkTo, login, registerAndGetToken, waitForMail } from './auth-helpers.ts';
import { readOutbox } from './helpers/outbox.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_SITE_URL: 'https://qc.example.org' });
});
afterAll(() => t.close());

const register = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/v1/auth/register', payload });
const verify = (token: string) =>
  t.app.inject({ method: 'GET', url: `/api/v1/auth/verify/${encodeURIComponent(token)}` });

describe('POST /auth/register', () => {
  it('creates an unverified account, answers 201 and mails a 24 h verification link', async () => {
    const response = await register({
      name: 'Ada',
      email: ' Ada@Example.ORG ',
      password: GOOD_PASSWORD,
      organization: null,
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      message: 'Registration successful. Please check your email to verify your account.',
    });
    const mail = await waitForMail(t, (m) => m.to.includes('ada@example.org'));
    const link = linkTo(t, mail, '/verify-email?token=');
    expect(link.origin).toBe('https://qc.example.org');
    const [user] = await t.app.db.select().from(users).where(eq(users.email, 'ada@example.org'));
    expect(user!.emailVerifiedAt).toBeNull();
    expect(user!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const [stored] = await t.app.db.select().from(authTokens).where(eq(authTokens.userId, user!.id));
    // Only the hash is kept, and the link works for exactly 24 hours.
    expect(stored!.tokenHash).not.toContain(link.searchParams.get('token'));
    expect(stored!.expiresAt.getTime() - stored!.createdAt.getTime()).toBe(24 * 3_600_000);
  });

  it('answers a second registration of the same address identically and warns the owner by mail', async () => {
    const first = await register({ name: 'Grace', email: 'grace@example.org', password: GOOD_PASSWORD });
    const second = await register({ name: 'Mallory', email: 'GRACE@example.org', password: 'Other-Pass-1!' });
    expect(second.statusCode).toBe(first.statusCode);
    expect(second.json()).toEqual(first.json());
    const warning = await waitForMail(t, (m) => m.to.includes('grace@example.org') && m.subject.includes('tried'));
    expect(warning.text).toContain('already has one');
    const rows = await t.app.db.select().from(users).where(eq(users.email, 'grace@example.org'));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.name).toBe('Grace');
  });

  it.each([
    [{ name: ' ', email: 'a@example.org', password: GOOD_PASSWORD }, 'Name is required.'],
    [{ name: 'A', email: 'not-an-address', password: GOOD_PASSWORD }, 'Enter a valid email address.'],
    [
      { name: 'A', email: 'a@example.org', password: 'abcdefgh' },
      'Password too weak. Use 8+ chars with uppercase, number, and special char.',
    ],
    [
      { name: 'A', email: 'a@example.org', password: 'Ab1!' },
      'Password too weak. Use 8+ chars with uppercase, number, and special char.',
    ],
  ])('refuses %j with 400 and a clear detail', async (payload, detail) => {
    const response = await register(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail });
  });

  it('refuses a body without a password with 400', async () => {
    const response = await register({ name: 'A', email: 'a@example.org' });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toContain('password');
  });
});

describe('GET /auth/verify/{token}', () => {
  it('verifies once, then answers "already" for the same link, and the account can sign in', async () => {
    const token = await registerAndGetToken(t, 'linus@example.org');
    expect((await login(t, 'linus@example.org', GOOD_PASSWORD)).statusCode).toBe(403);
    const first = await verify(token);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ message: 'Email verified successfully.' });
    const again = await verify(token);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ message: 'Email already verified.' });
    expect((await login(t, 'linus@example.org', GOOD_PASSWORD)).statusCode).toBe(200);
    const [event] = await t.app.db.select().from(auditEvents).where(eq(auditEvents.action, 'auth.verify'));
    expect(event!.ip).toBe('127.0.0.1');
  });

  it('refuses an unknown token with 400 and a detail', async () => {
    const response = await verify('x'.repeat(43));
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toBe('Verification failed. The link may be invalid or expired.');
  });

  it('refuses a link older than 24 hours, and a new registration mails a fresh one that works', async () => {
    const token = await registerAndGetToken(t, 'late@example.org');
    t.clock.advance(24 * 3_600_000 + 1_000);
    const expired = await verify(token);
    expect(expired.statusCode).toBe(400);
    expect(expired.json().detail).toMatch(/expired/);
    await register({ name: 'Late', email: 'late@example.org', password: GOOD_PASSWORD });
    const resend = await waitForMail(t, (m) => m.to.includes('late@example.org') && m.subject.includes('tried'));
    const fresh = linkTo(t, resend, '/verify-email').searchParams.get('token')!;
    expect((await verify(fresh)).json()).toEqual({ message: 'Email verified successfully.' });
  });

  it('never writes a password or token into the audit log or a mail other than the link', async () => {
    const events = await t.app.db.select().from(auditEvents);
    expect(events.length).toBeGreaterThan(0);
    const text = JSON.stringify(events);
    expect(text).not.toContain(GOOD_PASSWORD);
    const mails = await readOutbox(t.dataDir);
    const tokens = mails.flatMap((m) => m.links.map((l) => new URL(l).searchParams.get('token')).filter(Boolean));
    expect(tokens.length).toBeGreaterThan(0);
    for (const token of tokens) expect(text).not.toContain(token!);
    for (const mail of await readOutbox(t.dataDir)) expect(mail.text).not.toContain(GOOD_PASSWORD);
  });
});
