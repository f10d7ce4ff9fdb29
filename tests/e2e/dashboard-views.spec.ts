import { expect, expectAccessible, test } from './fixtures.ts';
import { apiUpload, logIn, pngFile, signedInAccount, useSession, type SignedInAccount } from './dashboard-session.ts';

test.describe('dashboard views', () => {
  let account: SignedInAccount;
  test.beforeEach(async ({ request }) => {
    account = await signedInAccount(request, 'Ada Lovelace');
  });

  test('Overview shows the real metrics and recent uploads; the header moves between views with history', async ({
    page,
    request,
    consoleErrors,
  }) => {
    const png = await pngFile(64, 64);
    await apiUpload(request, account, 'spine.png', png);
    await useSession(page, account);
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
    const card = (title: string) =>
      page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
    await expect(card('Total Images')).toContainText('1');
    await expect(card('Analyzed Images')).toContainText('0');
    await expect(card('Storage Used')).toContainText('0.00 MB');
    await expect(page.getByText('Uploaded spine.png')).toBeVisible();
    await expectAccessible(page);

    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    await nav.getByRole('link', { name: 'My Images' }).click();
    await expect(page).toHaveURL('/dashboard/images');
    await expect(page.getByRole('heading', { name: 'My Images' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'My Images' })).toHaveAttribute('aria-current', 'page');
    await nav.getByRole('link', { name: 'Analysis' }).click();
    await expect(page.getByRole('heading', { name: 'Analysis', level: 1 })).toBeVisible();
    await expectAccessible(page);
    await nav.getByRole('link', { name: '3D Models' }).click();
    await expect(page).toHaveURL('/dashboard/model-viewer');
    await expect(page.locator('#dash-main h1').first()).toBeVisible({ timeout: 15_000 });
    await page.goBack();
    await expect(page).toHaveURL('/dashboard/analysis');
    await page.goBack();
    await expect(page.getByRole('heading', { name: 'My Images' })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('every route is its own page on reload, and an unknown one shows not-found inside the dashboard', async ({
    page,
  }) => {
    await useSession(page, account);
    for (const [path, heading] of [
      ['/dashboard/images', 'My Images'],
      ['/dashboard/settings', 'Settings'],
      ['/dashboard/profile', 'Profile'],
    ]) {
      const response = await page.goto(path!);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    }
    const missing = await page.goto('/dashboard/no-such-view');
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Dashboard' })).toBeVisible();
    await expectAccessible(page);
  });

  test('the user menu works from the keyboard', async ({ page }) => {
    await useSession(page, account);
    await page.goto('/dashboard/settings');
    const button = page.getByRole('button', { name: 'Ada Lovelace' });
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menuitem', { name: 'Profile' })).toBeFocused();
    await expectAccessible(page);
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menuitem', { name: 'Sign Out' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toBeHidden();
    await expect(button).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/dashboard/profile');
    await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();
  });

  test('settings are saved and kept after a reload', async ({ page }) => {
    await useSession(page, account);
    await page.goto('/dashboard/settings');
    await expect(page.getByLabel('Full name')).toHaveValue('Ada Lovelace');
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue(account.email);
    await page.getByLabel('Full name').fill('Augusta Ada King');
    await page.getByLabel('Timezone').selectOption('Asia/Tokyo');
    await page.getByLabel('Send me email summaries').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
    await expectAccessible(page);
    await page.reload();
    await expect(page.getByLabel('Full name')).toHaveValue('Augusta Ada King');
    await expect(page.getByLabel('Timezone')).toHaveValue('Asia/Tokyo');
    await expect(page.getByLabel('Send me email summaries')).toBeChecked();
    await expect(page.getByText('Saved', { exact: true })).toBeHidden();
  });

  test('profile is read-only until Edit; Save keeps the change, Cancel restores', async ({ page }) => {
    await useSession(page, account);
    await page.goto('/dashboard/profile');
    const name = page.getByLabel('Display name');
    await expect(name).toHaveValue('Ada Lovelace');
    await expect(name).toHaveAttribute('readonly', '');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Edit' }).click();
    await name.fill('Ada King');
    await page.getByLabel('Role').fill('Radiologist');
    await page.getByLabel('Institution').fill('Analytical Engine Hospital');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Profile saved.')).toBeVisible();
    await expect(name).toHaveAttribute('readonly', '');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Edit' }).click();
    await name.fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert')).toHaveText('Display name is required.');
    await name.fill('Someone Else');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(name).toHaveValue('Ada King');

    await page.reload();
    await expect(name).toHaveValue('Ada King');
    await expect(page.getByLabel('Role')).toHaveValue('Radiologist');
  });

  test('a revoked token sends the user to /login and clears the session', async ({ page, request }) => {
    const session = await logIn(request, account.email);
    await useSession(page, { ...account, token: session.token });
    await page.goto('/dashboard/images');
    await expect(page.getByRole('heading', { name: 'My Images' })).toBeVisible();
    const logout = await request.post('/api/v1/auth/logout', { headers: { authorization: `Bearer ${session.token}` } });
    expect(logout.ok()).toBe(true);
    await page.getByRole('link', { name: 'Overview' }).click();
    await expect(page).toHaveURL('/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  test('the profile shows the session-missing notice on a 401, then redirects', async ({ page, request }) => {
    const session = await logIn(request, account.email);
    await useSession(page, { ...account, token: session.token });
    await request.post('/api/v1/auth/logout', { headers: { authorization: `Bearer ${session.token}` } });
    await page.goto('/dashboard/profile');
    const notice = page.getByRole('alert');
    await expect(notice).toContainText('Redirecting in ~6s...');
    await expect(notice.getByRole('link', { name: 'sign in' })).toHaveAttribute('href', '/login');
    await expectAccessible(page);
    await expect(page).toHaveURL('/login', { timeout: 9_000 });
  });
});
