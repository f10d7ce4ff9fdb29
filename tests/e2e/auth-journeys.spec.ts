import {
  createVerifiedAccount,
  mailLink,
  STRONG_PASSWORD,
  storedToken,
  uniqueEmail,
  waitForMail,
} from './auth-helpers.ts';
import { totpCodeAt } from '../../server/modules/mfa/totp.ts';
import { expect, expectAccessible, test } from './fixtures.ts';

test('register, open the link from the mail, sign in, reach the dashboard and sign out', async ({
  page,
  consoleErrors,
}) => {
  const email = uniqueEmail('journey');
  await page.goto('/register');
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('Name').fill('Rosalind Franklin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
  await page.getByLabel('Confirm password', { exact: true }).fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Register' }).click();

  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeFocused();
  await expect(page.getByText(email)).toBeVisible();
  await expect(page).toHaveURL(`/register?verify=${encodeURIComponent(email)}`);
  await expect(page.getByRole('link', { name: 'Go to Login' })).toBeVisible();
  await expectAccessible(page);

  const link = mailLink(await waitForMail(email, 'Verify'), '/verify-email?token=');
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Email Verified' })).toBeVisible();
  await expect(page.getByText('Email verified successfully.')).toBeVisible();
  // The token left the address bar once read; a reload still finds it in the page's own history entry.
  await expect(page).toHaveURL('/verify-email');
  await expectAccessible(page);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Email Already Verified' })).toBeVisible();
  await expect(page).toHaveURL('/verify-email');
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Email Already Verified' })).toBeVisible();
  await expect(page.getByText('Email already verified.')).toBeVisible();

  await page.getByRole('link', { name: 'Go to Login' }).click();
  await expect(page).toHaveURL('/login');
  await expectAccessible(page);
  await page.getByLabel('Email').fill(email.toUpperCase());
  await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const keys = await page.evaluate(() =>
    ['token', 'authToken', 'user_id', 'user_name', 'user_email', 'session_ts', 'user'].map((k) =>
      localStorage.getItem(k),
    ),
  );
  expect(keys.every((value) => value !== null)).toBe(true);
  expect(JSON.parse(keys[6]!)).toMatchObject({ name: 'Rosalind Franklin', email });
  const token = keys[0]!;

  // The dashboard's user menu (its button shows the user's name) holds Sign Out.
  await page.getByRole('button', { name: 'Rosalind Franklin' }).click({ timeout: 15_000 });
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL('/login');
  expect(await storedToken(page)).toBeNull();
  // The token was revoked on the server, not only forgotten by the browser.
  const after = await page.request.get('/api/v1/profile/me', { headers: { authorization: `Bearer ${token}` } });
  expect(after.status()).toBe(401);
  expect(consoleErrors).toEqual([]);
});

test('forgot password, follow the mailed link, reset, sign in automatically and land on the dashboard', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('reset');
  await createVerifiedAccount(request, email, 'Barbara McClintock');
  await page.goto('/login');
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { name: 'Forgot password' })).toBeFocused();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toHaveText('If the email exists, a reset link has been sent.');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

  const link = mailLink(await waitForMail(email, 'Reset'), '/reset-password?token=');
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  // Token and address left the address bar once read.
  await expect(page).toHaveURL('/reset-password');
  expect(page.url()).not.toContain(email.split('@')[0]!);
  const newPassword = 'Fresh-Start-42!';
  await page.getByLabel('New Password', { exact: true }).fill('abc');
  await expect(page.getByText('Strength weak')).toBeVisible();
  await page.getByLabel('New Password', { exact: true }).fill(newPassword);
  await expect(page.getByText('Strength strong')).toBeVisible();
  await expect(page.locator('.strength-bar .filled')).toHaveCount(4);
  await page.getByRole('button', { name: 'Show new password' }).click();
  await expect(page.getByLabel('New Password', { exact: true })).toHaveAttribute('type', 'text');
  await page.getByLabel('Confirm New Password', { exact: true }).fill(newPassword);
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText(/Your password has been reset/)).toBeVisible();
  await expectAccessible(page);
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 5_000 });
  expect(await storedToken(page)).not.toBeNull();
  // The reset page was replaced in history: going back does not return to it.
  await page.goBack();
  await expect(page).not.toHaveURL(/reset-password/);
});

test('when the automatic sign-in after a reset fails, the page asks to sign in and opens /login', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('reset-mfa');
  await createVerifiedAccount(request, email);
  // An authenticator on the account: the new password alone cannot sign in, the code is asked at /login.
  const signedIn = await request.post('/api/v1/auth/login', { data: { email, password: STRONG_PASSWORD } });
  const headers = { authorization: `Bearer ${(await signedIn.json()).access_token}` };
  const { secret } = await (await request.post('/api/v1/account/mfa/enrol', { headers })).json();
  const code = totpCodeAt(secret, new Date());
  expect((await request.post('/api/v1/account/mfa/confirm', { headers, data: { code } })).status()).toBe(200);
  await request.post('/api/v1/auth/forgot-password', { data: { email } });
  await page.goto(mailLink(await waitForMail(email, 'Reset'), '/reset-password?token='));
  await page.getByLabel('New Password', { exact: true }).fill('Fresh-Start-43!');
  await page.getByLabel('Confirm New Password', { exact: true }).fill('Fresh-Start-43!');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'Your password has been reset. Please sign in with your new password.',
  );
  await expectAccessible(page);
  await expect(page).toHaveURL('/login', { timeout: 5_000 });
  expect(await storedToken(page)).toBeNull();
});
