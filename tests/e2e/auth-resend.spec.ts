import { e2eDataDir } from '../../playwright.config.ts';
import { readOutbox } from '../server/helpers/outbox.ts';
import { mailLink, STRONG_PASSWORD, uniqueEmail } from './auth-helpers.ts';
import { expect, expectAccessible, test } from './fixtures.ts';

const NEUTRAL = 'If the account exists and is not verified yet, a new verification link has been sent.';

/** The verification links mailed to `to` so far, oldest first. */
async function verificationLinks(to: string): Promise<string[]> {
  return (await readOutbox(e2eDataDir))
    .filter((m) => m.to.includes(to) && m.subject.startsWith('Verify'))
    .map((m) => mailLink(m, '/verify-email?token='));
}

test('the check-your-inbox screen sends a second verification link, and that link activates the account', async ({
  page,
  consoleErrors,
}) => {
  const email = uniqueEmail('resend-inbox');
  await page.goto('/register');
  await page.getByLabel('Name').fill('Gertrude Elion');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
  await page.getByLabel('Confirm password', { exact: true }).fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
  await expect.poll(() => verificationLinks(email)).toHaveLength(1);

  await page.getByRole('button', { name: 'Resend verification e-mail' }).click();
  await expect(page.getByRole('status').filter({ hasText: NEUTRAL })).toBeVisible();
  await expectAccessible(page);
  await expect.poll(() => verificationLinks(email)).toHaveLength(2);
  const [first, second] = await verificationLinks(email);
  expect(second).not.toBe(first);

  await page.goto(second!);
  await expect(page.getByRole('heading', { name: 'Email Verified' })).toBeVisible();
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(consoleErrors).toEqual([]);
});

test('a sign-in refused as not verified offers to resend the link to the address typed', async ({ page, request }) => {
  const email = uniqueEmail('resend-login');
  await request.post('/api/v1/auth/register', {
    data: { name: 'Pending', email, password: STRONG_PASSWORD, organization: null },
  });
  await expect.poll(() => verificationLinks(email)).toHaveLength(1);
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Resend verification e-mail' })).toHaveCount(0);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toHaveText('Email not verified. Please check your inbox.');
  await page.getByRole('button', { name: 'Resend verification e-mail' }).click();
  await expect(page.getByRole('status').filter({ hasText: NEUTRAL })).toBeVisible();
  await expect.poll(() => verificationLinks(email)).toHaveLength(2);
  await page.goto((await verificationLinks(email))[1]!);
  await expect(page.getByRole('heading', { name: 'Email Verified' })).toBeVisible();
});

test('resending to an address without an account gives the same answer and sends nothing', async ({ page }) => {
  const email = uniqueEmail('resend-nobody');
  await page.goto(`/register?verify=${encodeURIComponent(email)}`);
  await page.getByRole('button', { name: 'Resend verification e-mail' }).click();
  await expect(page.getByRole('status').filter({ hasText: NEUTRAL })).toBeVisible();
  await page.waitForTimeout(500);
  expect(await verificationLinks(email)).toEqual([]);
});

test('past the hourly limit for one address, the screen shows the wait instead of the neutral answer', async ({
  page,
}) => {
  const email = uniqueEmail('resend-limit');
  await page.goto(`/register?verify=${encodeURIComponent(email)}`);
  const button = page.getByRole('button', { name: 'Resend verification e-mail' });
  for (let i = 0; i < 5; i++) {
    await button.click();
    await expect(page.getByRole('status').filter({ hasText: NEUTRAL })).toBeVisible();
  }
  await button.click();
  await expect(page.getByRole('alert')).toHaveText(/^Too many e-mails requested\. Try again in \d+ minutes?\.$/);
});
