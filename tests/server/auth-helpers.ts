import { expect } from 'vitest';
import { readOutbox, type OutboxMessage } from './helpers/outbox.ts';
import type { TestApp } from './helpers/test-app.ts';

/** A password that meets all five rules. */
export const GOOD_PASSWORD = 'Radiology-2026!';

/** Waits (polling, mail is sent after the answer) until the outbox holds more than `alreadySeen` messages matching `match`; returns the newest. */
export async function waitForMail(
  t: TestApp,
  match: (message: OutboxMessage) => boolean,
  timeoutMs = 5_000,
  alreadySeen = 0,
): Promise<OutboxMessage> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const matching = (await readOutbox(t.dataDir)).filter(match);
    if (matching.length > alreadySeen) return matching.at(-1)!;
    if (Date.now() > deadline) throw new Error('no matching mail arrived in the outbox');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The first link in the mail that starts with the site URL and the given path. */
export function linkTo(t: TestApp, message: OutboxMessage, pathname: string): URL {
  const link = message.links.find((l) => l.startsWith(`${t.config.publicSiteUrl}${pathname}`));
  if (!link) throw new Error(`no ${pathname} link in "${message.subject}"`);
  return new URL(link);
}

/** Registers through the API and returns the verification token from the mail. */
export async function registerAndGetToken(t: TestApp, email: string, name = 'Ada Lovelace'): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: { name, email, password: GOOD_PASSWORD, organization: null },
  });
  expect(response.statusCode).toBe(201);
  const mail = await waitForMail(t, (m) => m.to.includes(email) && m.subject.startsWith('Verify'));
  return linkTo(t, mail, '/verify-email').searchParams.get('token')!;
}

/** Registers, verifies and signs in through the API; returns the login answer. */
export async function registerVerifiedUser(t: TestApp, email: string, name = 'Ada Lovelace') {
  const token = await registerAndGetToken(t, email, name);
  const verified = await t.app.inject({ method: 'GET', url: `/api/v1/auth/verify/${encodeURIComponent(token)}` });
  expect(verified.statusCode).toBe(200);
  return { email, password: GOOD_PASSWORD };
}

/** POST /auth/login. */
export function login(t: TestApp, email: string, password: string, remoteAddress?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}
