import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_PASSWORD, login } from './auth-helpers.ts';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from './helpers/smtp-sink.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

let received: ReceivedMail[] = [];
let smtp: SmtpSink;
let t: TestApp;

// A real SMTP server on loopback: the app talks SMTP to it exactly as it would to a mail relay.
beforeAll(async () => {
  smtp = await startSmtpSink();
  received = smtp.received;
  t = await createTestApp({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'qc@lumenqc.test',
    PUBLIC_SITE_URL: 'https://qc.example.org',
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** Waits for the SMTP server to receive a message for `to` whose raw text contains `fragment`. */
async function receivedFor(to: string, fragment: string): Promise<ReceivedMail> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = received.filter((m) => m.to.includes(to) && m.raw.includes(fragment)).at(-1);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no SMTP message for ${to} containing ${fragment}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The link of the message that starts with `prefix`, with quoted-printable soft breaks undone. */
function linkIn(message: ReceivedMail, prefix: string): URL {
  const text = message.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = text.match(new RegExp(`${prefix.replace(/[.?/]/g, '\\$&')}[^\\s<>"]+`));
  if (!match) throw new Error(`no ${prefix} link`);
  return new URL(match[0]);
}

describe('mail through a real SMTP server', () => {
  it('delivers the verification mail over SMTP and its link verifies the account', async () => {
    const register = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { name: 'Dorothy Hodgkin', email: 'dorothy@example.org', password: GOOD_PASSWORD, organization: null },
    });
    expect(register.statusCode).toBe(201);
    const mail = await receivedFor('dorothy@example.org', 'verify-email');
    expect(mail.from).toBe('qc@lumenqc.test');
    expect(mail.raw).toMatch(/^Subject: Verify your LumenQC e-mail address/m);
    const link = linkIn(mail, 'https://qc.example.org/verify-email?token=');
    const token = link.searchParams.get('token')!;
    const verify = await t.app.inject({ method: 'GET', url: `/api/v1/auth/verify/${encodeURIComponent(token)}` });
    expect(verify.json()).toEqual({ message: 'Email verified successfully.' });
    expect((await login(t, 'dorothy@example.org', GOOD_PASSWORD)).statusCode).toBe(200);
  });

  it('delivers the reset mail over SMTP and its link resets the password', async () => {
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgot-password',
      payload: { email: 'dorothy@example.org' },
    });
    expect(forgot.statusCode).toBe(200);
    const mail = await receivedFor('dorothy@example.org', 'reset-password');
    const link = linkIn(mail, 'https://qc.example.org/reset-password?token=');
    expect(link.searchParams.get('email')).toBe('dorothy@example.org');
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/reset-password',
      payload: {
        token: link.searchParams.get('token'),
        email: link.searchParams.get('email'),
        password: 'Insulin-1969!',
      },
    });
    expect(reset.statusCode).toBe(200);
    expect((await login(t, 'dorothy@example.org', 'Insulin-1969!')).statusCode).toBe(200);
    expect((await login(t, 'dorothy@example.org', GOOD_PASSWORD)).statusCode).toBe(401);
  });

  it('delivers a second verification link over SMTP when asked again, and that link verifies the account', async () => {
    const email = 'chien-shiung@example.org';
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { name: 'Chien-Shiung Wu', email, password: GOOD_PASSWORD, organization: null },
    });
    const first = linkIn(await receivedFor(email, 'verify-email'), 'https://qc.example.org/verify-email?token=');
    const resend = await t.app.inject({ method: 'POST', url: '/api/v1/auth/resend-verification', payload: { email } });
    expect(resend.statusCode).toBe(200);
    await expect.poll(() => received.filter((m) => m.to.includes(email)).length).toBe(2);
    const second = linkIn(
      received.filter((m) => m.to.includes(email))[1]!,
      'https://qc.example.org/verify-email?token=',
    );
    expect(second.searchParams.get('token')).not.toBe(first.searchParams.get('token'));
    const verify = await t.app.inject({
      method: 'GET',
      url: `/api/v1/auth/verify/${encodeURIComponent(second.searchParams.get('token')!)}`,
    });
    expect(verify.json()).toEqual({ message: 'Email verified successfully.' });
    expect((await login(t, email, GOOD_PASSWORD)).statusCode).toBe(200);
  });
});
