import { expect, expectAccessible, test } from './fixtures.ts';
import { mailLink, STRONG_PASSWORD, uniqueEmail, waitForMail } from './auth-helpers.ts';
import { signedInAccount, useSession } from './dashboard-session.ts';

test('an admin invites a colleague, who registers from the mail, joins and sees the shared library', async ({
  page,
  browser,
  request,
}) => {
  const admin = await signedInAccount(request, 'Ada Admin');
  const team = await request.post('/api/v1/workspaces', {
    headers: { authorization: `Bearer ${admin.token}` },
    data: { name: 'Neuro QC' },
  });
  const teamId = (await team.json()).id as string;
  await useSession(page, admin);
  await page.evaluate((id) => localStorage.setItem('workspace_id', id), teamId);
  await page.goto('/dashboard/images');
  await page
    .locator('input[type="file"]')
    .first()
    .setInputFiles({
      name: 'shared-brain.png',
      mimeType: 'image/png',
      buffer: Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEklEQVR4nGNoaGhgwAIGkIAAALkgCQEzkd9aAAAAAElFTkSuQmCC',
        'base64',
      ),
    });
  await expect(page.getByText('shared-brain.png').first()).toBeVisible();

  await page.goto('/dashboard/workspace');
  const colleague = uniqueEmail('colleague');
  await page.getByLabel('E-mail address').fill(colleague);
  await page.getByLabel('Role', { exact: true }).selectOption('reviewer');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${colleague}.`)).toBeVisible();
  await expect(page.getByText(`${colleague} as reviewer`)).toBeVisible();
  await expectAccessible(page);

  // The colleague, in a browser of their own, opens the mailed link without an account.
  const invitation = await waitForMail(colleague, 'Ada Admin invited you');
  const link = mailLink(invitation, '/dashboard/workspace?invite=');
  const context = await browser.newContext();
  const other = await context.newPage();
  await other.goto(link);
  await expect(other).toHaveURL('/login');
  await expectAccessible(other);
  await other.getByRole('link', { name: 'Create one' }).click();
  await other.getByLabel('Name').fill('Nora Newcomer');
  await other.getByLabel('Email').fill(colleague);
  await other.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
  await other.getByLabel('Confirm password', { exact: true }).fill(STRONG_PASSWORD);
  await other.getByRole('button', { name: 'Register' }).click();
  await expect(other.getByText(/check your inbox/i).first()).toBeVisible();
  await expectAccessible(other);
  await other.goto(mailLink(await waitForMail(colleague, 'Verify'), '/verify-email'));
  await other.getByRole('link', { name: 'Go to Login' }).click();
  await other.getByLabel('Email').fill(colleague);
  await other.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
  await other.getByRole('button', { name: 'Sign In' }).click();

  // Signing in comes back to the invitation, whose token then leaves the address bar.
  await expect(other.getByText(`Ada Admin invited ${colleague} to`)).toBeVisible();
  await expect(other).toHaveURL('/dashboard/workspace');
  await expectAccessible(other);
  await other.getByRole('button', { name: 'Join Neuro QC' }).click();
  await expect(other.getByText('You joined Neuro QC as reviewer.')).toBeVisible();
  await expect(other.getByRole('combobox', { name: 'Workspace', exact: true }).locator('option:checked')).toHaveText(
    'Neuro QC',
  );
  await other.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'My Images' }).click();
  await expect(other.getByText('shared-brain.png').first()).toBeVisible();
  await expectAccessible(other);
  await context.close();

  // The admin sees the new member.
  await page.reload();
  await expect(page.getByRole('cell', { name: 'Nora Newcomer', exact: true })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Role of Nora Newcomer' })).toHaveValue('reviewer');
  await expect(page.getByText(`${colleague} as reviewer`)).toHaveCount(0);
});
