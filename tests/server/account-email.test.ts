import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMessages } from '../../contract/account.ts';
import { AUTH_LIMITS } from '../../server/modules/auth/auth.limits.ts';
import { users } from '../../server/modules/auth/users.table.ts';
import { emailChanges } from '../../server/modules/email-change/email-change.table.ts';
import { login } from './auth-helpers.ts';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from './helpers/smtp-sink.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';

let received: ReceivedMail[] = [];
let smtp: SmtpSink;
let t: TestApp;

// A real SMTP server on loopback: the confirmation and the notice go out as they would through a relay.
beforeAll(async () => {
  smtp = await startSmtpSink();
  received = smtp.received;
  t = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_SITE_URL: 'https://qc.example.org' });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/**
 * Waits until more than `alreadySeen` messages to `to` with a subject starting `subject` arrived (mail is
 * sent after the answer) and returns the newest: a test asking twice gets the mail of its own request.
 */
async function waitForSmtp(to: string, subject: string, alreadySeen = 0): Promise<ReceivedMail> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const matching = received.filter((m) => m.to.includes(to) && m.subject.startsWith(subject));
    if (matching.length > alreadySeen) return matching.at(-1)!;
    if (Date.now() > deadline) throw new Error(`no "${subject}" mail for ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const seen = (to: string, subject: string) =>
  received.filter((m) => m.to.includes(to) && m.subject.startsWith(subject)).length;

/** The token of the confirmation link in a mail. */
function tokenIn(mail: ReceivedMail): string {
  const link = mail.text.match(/https:\/\/qc\.example\.org\/dashboard\/settings\?email_token=[A-Za-z0-9_%-]+/)?.[0];
  if (!link) throw new Error(`no confirmation link in "${mail.subject}"`);
  return new URL(link).searchParams.get('email_token')!;
}

const ask = (user: TestUser, email: string, password = user.password) =>
  t.app.inject({ method: 'POST', url: '/api/v1/account/email', headers: user.auth, payload: { email, password } });
const confirm = (user: TestUser, token: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/account/email/confirm', headers: user.auth, payload: { token } });
const emailOf = async (user: TestUser) =>
  (await t.app.db.select({ email: users.email }).from(users).where(eq(users.id, user.id)))[0]!.email;

const CONFIRM = 'Confirm your new LumenQC e-mail address';
const NOTICE = 'Your LumenQC e-mail address was changed';

describe('changing the e-mail address', () => {
  it('mails a link to the new address, changes it only when opened, and tells the old address', async () => {
    const user = await createSignedInUser(t, { email: 'old-address@example.org' });
    const asked = await ask(user, ' New.Address@Example.org ');
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual({ message: accountMessages.emailChangeSent });
    const mail = await waitForSmtp('new.address@example.org', CONFIRM);
    const token = tokenIn(mail);
    expect(mail.text).toContain('The link works for 24 hours and only once.');
    // Nothing changed yet: the old address still signs in, the new one does not.
    expect(await emailOf(user)).toBe('old-address@example.org');
    expect((await login(t, 'new.address@example.org', user.password)).statusCode).toBe(401);
    // The token is kept only as a hash.
    const stored = await t.app.db.select().from(emailChanges).where(eq(emailChanges.userId, user.id));
    expect(JSON.stringify(stored)).not.toContain(token);

    const done = await confirm(user, token);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ message: accountMessages.emailChanged, email: 'new.address@example.org' });
    expect(await emailOf(user)).toBe('new.address@example.org');
    expect((await login(t, 'new.address@example.org', user.password)).statusCode).toBe(200);
    expect((await login(t, 'old-address@example.org', user.password)).statusCode).toBe(401);
    const notice = await waitForSmtp('old-address@example.org', NOTICE);
    expect(notice.text).toContain('was changed to new.address@example.org');

    // Single use: the same link again is refused.
    const again = await confirm(user, token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ detail: accountMessages.invalidEmailLink });
  });

  it('asks for the current password, and refuses an unchanged or malformed address', async () => {
    const user = await createSignedInUser(t);
    const wrong = await ask(user, 'somewhere@example.org', 'Not-My-Password-1');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ detail: accountMessages.wrongPassword });
    expect((await ask(user, user.email.toUpperCase())).json()).toEqual({ detail: accountMessages.emailUnchanged });
    expect((await ask(user, 'not an address')).statusCode).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received.some((m) => m.to.includes('somewhere@example.org'))).toBe(false);
  });

  it("answers an address another account has exactly as a free one, and mails only that account's owner", async () => {
    const user = await createSignedInUser(t);
    const other = await createSignedInUser(t);
    const free = await ask(user, `free-${Date.now()}@example.org`);
    const taken = await ask(user, other.email.toUpperCase());
    expect(taken.statusCode).toBe(202);
    expect(taken.headers['content-type']).toBe(free.headers['content-type']);
    expect(taken.body).toBe(free.body);
    // The owner hears of it; the asker is sent nothing, and no link exists that could move the address.
    const notice = await waitForSmtp(other.email, 'Someone asked to use your LumenQC e-mail address');
    expect(notice.text).toContain('nothing was changed');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received.filter((m) => m.to.includes(user.email))).toEqual([]);
    expect(received.filter((m) => m.to.includes(other.email) && m.subject.startsWith(CONFIRM))).toEqual([]);
    const links = await t.app.db.select().from(emailChanges).where(eq(emailChanges.userId, user.id));
    expect(links.map((l) => l.newEmail)).not.toContain(other.email);
    expect(await emailOf(other)).toBe(other.email);
  });

  it('refuses the link when another account took the address after it was sent', async () => {
    const user = await createSignedInUser(t);

    // Free when asked, registered by someone else before the link is opened.
    const address = `race-${Date.now()}@example.org`;
    expect((await ask(user, address)).statusCode).toBe(202);
    const token = tokenIn(await waitForSmtp(address, CONFIRM));
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { name: 'Quick', email: address, password: 'Another-Pass-9', organization: null },
    });
    expect(registered.statusCode).toBe(201);
    expect((await confirm(user, token)).statusCode).toBe(409);
    expect(await emailOf(user)).toBe(user.email);
  });

  it("is refused with another account's session, after 24 hours, and once a newer link was sent", async () => {
    const user = await createSignedInUser(t);
    const stranger = await createSignedInUser(t);
    const first = `first-${Date.now()}@example.org`;
    expect((await ask(user, first)).statusCode).toBe(202);
    const firstToken = tokenIn(await waitForSmtp(first, CONFIRM));
    expect((await confirm(stranger, firstToken)).json()).toEqual({ detail: accountMessages.invalidEmailLink });
    expect(await emailOf(stranger)).toBe(stranger.email);

    // A second request to the same address: its own mail, found past the first one.
    const before = seen(first, CONFIRM);
    expect((await ask(user, first)).statusCode).toBe(202);
    const secondToken = tokenIn(await waitForSmtp(first, CONFIRM, before));
    expect(secondToken).not.toBe(firstToken);
    expect((await confirm(user, firstToken)).statusCode).toBe(400);

    t.clock.advance(24 * 3_600_000 + 1_000);
    // The session has ended meanwhile too (12 hours idle): sign in again, then open the link.
    const fresh = await t.app.sessions.create(user.id, t.clock.now());
    const late = { ...user, auth: { authorization: `Bearer ${fresh}` } };
    expect((await confirm(late, secondToken)).json()).toEqual({ detail: accountMessages.invalidEmailLink });
    expect(await emailOf(user)).toBe(user.email);
  });

  it('answers 401 without a session, and 400 (never 500) to a malformed body', async () => {
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/v1/account/email',
      payload: { email: 'a@example.org', password: 'x' },
    });
    expect(anonymous.statusCode).toBe(401);
    const user = await createSignedInUser(t);
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/account/email/confirm',
      headers: user.auth,
      payload: { token: ['x'] },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toHaveProperty('detail');
  });

  it('limits the mails one new address can be sent', async () => {
    const user = await createSignedInUser(t);
    const target = `flooded-${Date.now()}@example.org`;
    const statuses: number[] = [];
    for (let i = 0; i <= AUTH_LIMITS.mailsPerAddress.max; i++) statuses.push((await ask(user, target)).statusCode);
    expect(statuses.slice(0, -1).every((s) => s === 202)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
