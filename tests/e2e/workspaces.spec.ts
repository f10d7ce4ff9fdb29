import { expect, expectAccessible, test } from './fixtures.ts';
import { apiUpload, pngFile, signedInAccount, useSession } from './dashboard-session.ts';

test.describe('workspaces', () => {
  test('a user creates a team workspace, switches to it from the header, and each library stays its own', async ({
    page,
    request,
  }) => {
    const account = await signedInAccount(request, 'Rosalind Franklin');
    await apiUpload(request, account, 'personal-scan.png', await pngFile(40, 40));
    await useSession(page, account);
    await page.goto('/dashboard/images');
    await expect(page.getByText('personal-scan.png')).toBeVisible();
    const switcher = page.getByRole('combobox', { name: 'Workspace', exact: true });
    await expect(switcher).toHaveValue(/.+/);
    await expect(switcher.locator('option:checked')).toHaveText('Personal');

    await page.getByRole('link', { name: 'Manage' }).click();
    await expect(page).toHaveURL('/dashboard/workspace');
    await expect(page.getByRole('heading', { name: 'Workspace', level: 1 })).toBeVisible();
    await expect(page.getByText('your personal workspace, which only you can see')).toBeVisible();
    await expectAccessible(page);
    await page.getByLabel('Name', { exact: true }).fill('Crystallography');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await expect(page.getByText('Created Crystallography; you are its admin.')).toBeVisible();
    await expect(switcher.locator('option:checked')).toHaveText('Crystallography');
    await expect(page.getByRole('cell', { name: 'Rosalind Franklin (you)' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Role of Rosalind Franklin' })).toHaveValue('admin');
    await expectAccessible(page);

    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'My Images' }).click();
    await expect(page.getByText('No images found.')).toBeVisible();
    await page
      .locator('input[type="file"]')
      .first()
      .setInputFiles({
        name: 'team-scan.png',
        mimeType: 'image/png',
        buffer: await pngFile(48, 48),
      });
    await expect(page.getByText('team-scan.png').first()).toBeVisible();
    await expect(page.getByText('personal-scan.png')).toHaveCount(0);
    await expectAccessible(page);

    // A reload stays in the chosen workspace.
    await page.reload();
    await expect(page.getByText('team-scan.png').first()).toBeVisible();
    await expect(page.getByText('personal-scan.png')).toHaveCount(0);

    await switcher.selectOption({ label: 'Personal' });
    await expect(page.getByText('personal-scan.png')).toBeVisible();
    await expect(page.getByText('team-scan.png')).toHaveCount(0);
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Overview' }).click();
    const total = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Total Images' }) });
    await expect(total).toContainText('1');
    await switcher.selectOption({ label: 'Crystallography' });
    await expect(page.getByText('Uploaded team-scan.png')).toBeVisible();
    await expect(page.getByText('Uploaded personal-scan.png')).toHaveCount(0);
  });
});
