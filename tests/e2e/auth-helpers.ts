import type { APIRequestContext, Page } from '@playwright/test';
import { e2eDataDir } from '../../playwright.config.ts';
import { readOutbox, type OutboxMessage } from '../server/helpers/outbox.ts';

/** A password meeting all five rules. */
export const STRONG_PASSWORD = 'Radiology-2026!';

/** A fresh address for each call, so tests never collide on the shared server. */
export function uniqueEmail(label: string): string {
  return `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.org`;
}

/** Waits for the newest mail to `to` whose subject starts with `subject`, from the server's outbox. */
export async function waitForMail(to: string, subject: string, timeoutMs = 10_000): Promise<OutboxMessage> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await readOutbox(e2eDataDir))
      .filter((m) => m.to.includes(to) && m.subject.startsWith(subject))
      .at(-1);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no "${subject}" mail for ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The path and query of the first link in the mail that contains `fragment`. */
export function mailLink(message: OutboxMessage, fragment: string): string {
  const link = message.links.find((l) => l.includes(fragment));
  if (!link) throw new Error(`no link with ${fragment} in "${message.subject}"`);
  const url = new URL(link);
  return url.pathname + url.search;
}

/** Registers through the API and follows the verification link from the mail: a verified account. */
export async function createVerifiedAccount(request: APIRequestContext, email: string, name = 'Test User') {
  const registered = await request.post('/api/v1/auth/register', {
    data: { name, email, password: STRONG_PASSWORD, organization: null },
  });
  if (registered.status() !== 201) throw new Error(`register answered ${registered.status()}`);
  const token = new URL(mailLink(await waitForMail(email, 'Verify'), '/verify-email'), 'http://x').searchParams.get(
    'token',
  )!;
  const verified = await request.get(`/api/v1/auth/verify/${encodeURIComponent(token)}`);
  if (verified.status() !== 200) throw new Error(`verify answered ${verified.status()}`);
}

/** The token held in local storage, or null. */
export function storedToken(page: Page): Promise<string | null> {
  return page.evaluate(() => localStorage.getItem('token'));
}
