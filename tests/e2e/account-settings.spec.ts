import type { APIRequestContext } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures.ts';
import { apiUpload, pngFile, signedInAccount, useSession, type SignedInAccount } from './dashboard-session.ts';

/** The `modified` moment (epoch seconds) the server lists for the upload. */
async function modifiedOf(request: APIRequestContext, account: SignedInAccount, storedFilename: string) {
  const res = await request.get('/api/v1/uploads', { headers: { authorization: `Bearer ${account.token}` } });
  const items = (await res.json()) as { stored_filename: string; modified: number }[];
  return items.find((item) => item.stored_filename === storedFilename)!.modified;
}

const two = (n: number) => String(n).padStart(2, '0');

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
});
