import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedactingLogController, redactUrl, serializeRequest } from '../../server/request-log-redaction.ts';
import { linkTo, registerAndGetToken, waitForMail } from './auth-helpers.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser } from './helpers/users.ts';

/** Every line the app logs, as written. */
const lines: string[] = [];
const logStream = { write: (line: string) => void lines.push(line) };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream });
});
afterAll(() => t.close());

/** A random token shaped like ours (256 bits, base64url). */
const fakeToken = () => randomBytes(32).toString('base64url');

describe('the request log', () => {
  it('writes no token or reset address from any link a mail or a share carries', async () => {
    const verifyToken = await registerAndGetToken(t, 'log-check@example.org');
    const user = await createSignedInUser(t, { email: 'ada+reset@example.org' });
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgot-password',
      payload: { email: user.email },
    });
    expect(forgot.statusCode).toBe(200);
    const reset = linkTo(t, await waitForMail(t, (m) => m.subject.startsWith('Reset')), '/reset-password');
    const resetToken = reset.searchParams.get('token')!;
    const [invite, share, emailChange] = [fakeToken(), fakeToken(), fakeToken()];
    const secrets = [verifyToken, resetToken, invite, share, emailChange, encodeURIComponent(verifyToken)];
    const addresses = [user.email, encodeURIComponent(user.email), 'ada%2Breset'];
    // Only what these requests log counts: the outbox mailer logs its links on purpose, for local use.
    lines.length = 0;

    const urls = [
      `/reset-password${reset.search}`,
      `/login?token=${resetToken}&email=${encodeURIComponent(user.email)}`,
      `/verify-email?token=${encodeURIComponent(verifyToken)}`,
      `/api/v1/auth/verify/${encodeURIComponent(verifyToken)}`,
      `/dashboard/settings?email_token=${emailChange}`,
      `/dashboard/workspace?invite=${invite}`,
      `/api/v1/invites/${invite}`,
      `/api/v1/shared/${share}`,
      `/api/v1/shared/${share}?download=1`,
    ];
    for (const url of urls) await t.app.inject({ method: 'GET', url });
    await t.app.inject({ method: 'POST', url: `/api/v1/invites/${invite}/accept`, headers: user.auth });

    const log = lines.join('');
    const incoming = lines.filter((line) => line.includes('"incoming request"'));
    expect(incoming.length).toBe(urls.length + 1);
    for (const secret of [...secrets, ...addresses]) expect(log).not.toContain(secret);
    // The lines still say what was asked.
    expect(log).toContain('"url":"/reset-password?token=[redacted]&email=[redacted]"');
    expect(log).toContain('"url":"/api/v1/auth/verify/[redacted]"');
    expect(log).toContain('"url":"/api/v1/shared/[redacted]?download=1"');
    expect(log).toContain('"url":"/api/v1/invites/[redacted]/accept"');
  });

  it('keeps the parts of an address that carry no secret', () => {
    expect(redactUrl('/api/v1/uploads?page=2&sort=name')).toBe('/api/v1/uploads?page=2&sort=name');
    expect(redactUrl('/dashboard/model-viewer?id=protein_001&type=protein')).toBe(
      '/dashboard/model-viewer?id=protein_001&type=protein',
    );
    expect(redactUrl('/x?mfa_token=a&Access%5FToken=b&q=' + 'z'.repeat(43))).toBe(
      '/x?mfa_token=[redacted]&Access%5FToken=[redacted]&q=[redacted]',
    );
    expect(redactUrl('/x?%E0%A4%A=1')).toBe('/x?%E0%A4%A=1');
  });

  it('redacts the route-not-found line of an app without its own not-found handler', async () => {
    const written: string[] = [];
    const bare = Fastify({
      logger: { level: 'info', serializers: { req: serializeRequest }, stream: { write: (l) => void written.push(l) } },
      logController: new RedactingLogController(),
    });
    const token = fakeToken();
    await bare.inject({ url: `/nowhere/verify/${token}?token=${token}` });
    await bare.close();
    expect(written.join('')).toContain('Route GET:/nowhere/verify/[redacted]?token=[redacted] not found');
    expect(written.join('')).not.toContain(token);
  });
});
