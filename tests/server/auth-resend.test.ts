import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_PASSWORD, linkTo, login, registerAndGetToken, waitForMail } from './auth-helpers.ts';
import { readOutbox } from './helpers/outbox.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

const NEUTRAL = 'If the account exists and is not verified yet, a new verification link has been sent.';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const resend = (email: unknown, ip = '203.0.113.7') =>
  t.app.inject({ method: 'POST', url: '/api/v1/auth/resend-verification', payload: { email }, remoteAddress: ip });

/** Mails to `to` whose subject starts with "Verify", once the work after the answer has had time to run. */
async function verifyMailsTo(to: string) {
  await new Promise((resolve) => setTimeout(resolve, 150));
  return (await readOutbox(t.dataDir)).filter((m) => m.to.includes(to) && m.subject.startsWith('Verify'));
}

describe('POST /auth/resend-verification', () => {
  it('sends an unverified account a second, different link that verifies it', async () => {
    const first = await registerAndGetToken(t, 'rita@example.org', 'Rita Levi-Montalcini');
    expect((await login(t, 'rita@example.org', GOOD_PASSWORD)).statusCode).toBe(403);

    const answer = await resend(' Rita@Example.org ');
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ message: NEUTRAL });
    await expect.poll(async () => (await verifyMailsTo('rita@example.org')).length).toBe(2);
    const mail = await waitForMail(t, (m) => m.to.includes('rita@example.org') && m.subject.startsWith('Verify'));
    const second = linkTo(t, mail, '/verify-email').searchParams.get('token')!;
    expect(second).not.toBe(first);

    const verified = await t.app.inject({ method: 'GET', url: `/api/v1/auth/verify/${encodeURIComponent(second)}` });
    expect(verified.json()).toEqual({ message: 'Email verified successfully.' });
    expect((await login(t, 'rita@example.org', GOOD_PASSWORD)).statusCode).toBe(200);
  });

  it('answers the same words for an unknown address, a verified account and a malformed one, and mails none of them', async () => {
    for (const email of ['nobody@example.org', 'rita@example.org', 'not an address']) {
      const answer = await resend(email, '203.0.113.8');
      expect(answer.statusCode, email).toBe(200);
      expect(answer.json(), email).toEqual({ message: NEUTRAL });
    }
    expect(await verifyMailsTo('nobody@example.org')).toEqual([]);
    expect(await verifyMailsTo('rita@example.org')).toHaveLength(2);
  });

  it('refuses a sixth request for one address within the hour with 429, whatever the address holds', async () => {
    for (const email of ['flood@example.org', 'ghost@example.org']) {
      for (let i = 0; i < 5; i++) expect((await resend(email, `198.51.100.${i + 1}`)).statusCode).toBe(200);
      const refused = await resend(email, '198.51.100.99');
      expect(refused.statusCode).toBe(429);
      expect(refused.json().detail).toMatch(/^Too many e-mails requested\. Try again in \d+ minutes?\.$/);
    }
  });

  it('refuses a body without an address with 400 and a detail', async () => {
    const answer = await t.app.inject({ method: 'POST', url: '/api/v1/auth/resend-verification', payload: {} });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toHaveProperty('detail');
  });
});
