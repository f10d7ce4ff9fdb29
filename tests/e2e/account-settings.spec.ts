import { createHmac } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { mailLink, STRONG_PASSWORD, uniqueEmail, waitForMail } from './auth-helpers.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { apiUpload, pngFile, signedInAccount, useSession, type SignedInAccount } from './dashboard-session.ts';

/** The `modified` moment (epoch seconds) the server lists for the upload. */
async function modifiedOf(request: APIRequestContext, account: SignedInAccount, storedFilename: string) {
  const res = await request.get('/api/v1/uploads', { headers: { authorization: `Bearer ${account.token}` } });
  const items = (await res.json()) as { stored_filename: string; modified: number }[];
  return items.find((item) => item.stored_filename === storedFilename)!.modified;
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * The six-digit TOTP code (RFC 6238: HMAC-SHA1, 30 s steps) of a base32 secret at `atMs`, computed
 * here from the RFC rather than with the product's library, so the test checks the product against it.
 */
function totp(base32Secret: string, atMs: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of base32Secret.replace(/[\s=]/g, '').toUpperCase()) {
    bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  }
  const key = Buffer.from(bits.match(/.{8}/g)!.map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 1000 / 30)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

test.describe('account settings', () => {
  test('dates are shown in the time zone and date format chosen in Settings', async ({ page, request }) => {
    const account = await signedInAccount(request, 'Rosalind Franklin');
    const { stored_filename } = await apiUpload(request, account, 'knee.png', await pngFile(48, 48));
    const modified = await modifiedOf(request, account, stored_filename);
    // Tokyo keeps UTC+9 all year (no daylight saving), so the expected text is plain arithmetic.
    const tokyo = new Date((modified + 9 * 3600) * 1000);
    const expected = `${two(tokyo.getUTCDate())}/${two(tokyo.getUTCMonth() + 1)}/${tokyo.getUTCFullYear()} ${two(tokyo.getUTCHours())}:${two(tokyo.getUTCMinutes())}`;

    await useSession(page, account);
    await page.goto('/dashboard/settings');
    await page.getByLabel('Timezone').selectOption('Asia/Tokyo');
    await page.getByLabel('Date format').selectOption('dmy');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
    await expectAccessible(page);

    await page.goto('/dashboard/images');
    await page.getByRole('button', { name: 'Details of knee.png' }).click();
    const uploaded = page.getByRole('dialog').locator('dt:text-is("Uploaded") + dd');
    await expect(uploaded).toHaveText(expected);
    await expect(uploaded.locator('time')).toHaveAttribute('datetime', new Date(modified * 1000).toISOString());
    await expectAccessible(page);
    // The card keeps its relative age and offers the same date as its tooltip.
    await page.keyboard.press('Escape');
    await expect(page.locator('.dash-image-card time').first()).toHaveAttribute('title', expected);
  });

  test('MFA: enrol with the QR code page, sign in with a code, turn it off with a recovery code', async ({
    page,
    request,
    consoleErrors,
  }) => {
    const account = await signedInAccount(request, 'Chien-Shiung Wu');
    await useSession(page, account);
    await page.goto('/dashboard/settings');
    const mfaBox = page.getByLabel('Enable multi-factor authentication (MFA)');
    await expect(page.getByText('Off: signing in needs your password only.')).toBeVisible();
    // The box follows the server: it shows ticked once the set-up has started, not on the click itself.
    await mfaBox.click();
    await expect(mfaBox).toBeChecked();

    await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    const manual = (await page.locator('#mfa-manual-key code').textContent())!;
    const secret = manual.replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expectAccessible(page);
    // A wrong first code leaves MFA off and says so.
    await page.getByLabel('Verification code').fill('000000');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'That code is not right, or it was used already. Try the current code.',
    );
    await page.getByLabel('Verification code').fill(totp(secret, Date.now()));
    await page.getByRole('button', { name: 'Confirm' }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    const recoveryCodes = await codes.allTextContents();
    await expect(page.getByRole('status').filter({ hasText: 'Multi-factor authentication is on.' })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'I have saved my recovery codes' }).click();
    await expect(page.getByText('Recovery codes left: 10.')).toBeVisible();
    await expect(mfaBox).toBeChecked();

    // Sign out, then sign in again: the password alone is not enough any more.
    await page.getByRole('button', { name: 'Chien-Shiung Wu' }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL('/login');
    // Typed only once the form has hydrated: text typed into the server-rendered form would be reset.
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('heading', { name: 'Enter your code' })).toBeFocused();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await expectAccessible(page);
    await page.getByLabel('Authentication code').fill('123456');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText('That code is not right, or it was used already. Try the current code.')).toBeVisible();
    // The code of the next 30-second step: the one used to confirm cannot be used twice, and the server
    // accepts one step of clock drift either way.
    await page.getByLabel('Authentication code').fill(totp(secret, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();

    // Turning it off asks for a code; a recovery code does (a lost phone).
    await page.goto('/dashboard/settings');
    await expect(mfaBox).toBeChecked();
    await mfaBox.click();
    await page.getByLabel('Code', { exact: true }).fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Turn off MFA' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Multi-factor authentication is off.' })).toBeVisible();
    await expect(mfaBox).not.toBeChecked();
    await expectAccessible(page);
    const login = await request.post('/api/v1/auth/login', {
      data: { email: account.email, password: STRONG_PASSWORD },
    });
    expect((await login.json()).access_token).toEqual(expect.any(String));
    // The only failed calls are the two wrong codes typed on purpose (the browser logs each refusal).
    expect(consoleErrors).toEqual([
      'Failed to load resource: the server responded with a status of 400 (Bad Request)',
      'Failed to load resource: the server responded with a status of 401 (Unauthorized)',
    ]);
  });

  test('e-mail change: the link mailed to the new address, opened while signed out, changes it after sign-in', async ({
    page,
    request,
  }) => {
    const account = await signedInAccount(request, 'Lise Meitner');
    const newEmail = uniqueEmail('moved');
    await useSession(page, account);
    await page.goto('/dashboard/settings');
    const email = page.getByLabel('Email', { exact: true });
    await expect(email).toHaveValue(account.email);
    await expect(page.getByLabel('Current password')).toBeHidden();
    await email.fill(newEmail);
    await page.getByLabel('Current password').fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'We sent a confirmation link to the new address.' }),
    ).toBeVisible();
    await expectAccessible(page);
    // Nothing changes until the link is opened.
    await expect(email).toHaveValue(account.email);
    const me = async () => {
      const token = await page.evaluate(() => localStorage.getItem('token'));
      const res = await request.get('/api/v1/profile/me', { headers: { authorization: `Bearer ${token}` } });
      return ((await res.json()) as { email: string }).email;
    };
    expect(await me()).toBe(account.email);

    // Signed out, the link leads through the sign-in (with the old address) back to Settings.
    const link = mailLink(await waitForMail(newEmail, 'Confirm your new'), '/dashboard/settings?email_token=');
    await page.getByRole('button', { name: 'Lise Meitner' }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL('/login');
    await page.goto(link);
    await expect(page).toHaveURL('/login');
    // Typed only once the form has hydrated: text typed into the server-rendered form would be reset.
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL('/dashboard/settings');
    await expect(page.getByRole('status').filter({ hasText: 'Your e-mail address has been changed.' })).toContainText(
      `You now sign in with ${newEmail}.`,
    );
    await expect(email).toHaveValue(newEmail);
    await expectAccessible(page);
    expect(await me()).toBe(newEmail);
    const notice = await waitForMail(account.email, 'Your LumenQC e-mail address was changed');
    expect(notice.text).toContain(`was changed to ${newEmail}`);
  });
});
