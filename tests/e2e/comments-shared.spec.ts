import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures.ts';
import { mailLink, waitForMail } from './auth-helpers.ts';
import { pngFile, signedInAccount, useSession, type SignedInAccount } from './dashboard-session.ts';

/** A team workspace of `admin` that `colleague` joined as `role` through the mailed invitation. */
async function teamOf(request: APIRequestContext, admin: SignedInAccount, colleague: SignedInAccount, role: string) {
  const auth = (who: SignedInAccount) => ({ authorization: `Bearer ${who.token}` });
  const team = await request.post('/api/v1/workspaces', { headers: auth(admin), data: { name: 'Knee QC' } });
  const teamId = (await team.json()).id as string;
  const invited = await request.post(`/api/v1/workspaces/${teamId}/invites`, {
    headers: auth(admin),
    data: { email: colleague.email, role },
  });
  expect(invited.status()).toBe(201);
  const link = mailLink(await waitForMail(colleague.email, 'Ada Admin invited you'), '?invite=');
  const token = new URLSearchParams(link.split('?')[1]).get('invite')!;
  expect((await request.post(`/api/v1/invites/${token}/accept`, { headers: auth(colleague) })).status()).toBe(200);
  const uploaded = await request.post('/api/v1/uploads', {
    headers: { ...auth(admin), 'x-workspace-id': teamId },
    multipart: { file: { name: 'shared-knee.png', mimeType: 'image/png', buffer: await pngFile(48, 48) } },
  });
  expect(uploaded.status()).toBe(201);
  return teamId;
}

/** Signs `page` in as `account`, in the team workspace, with the image's details open. */
async function openImage(page: Page, account: SignedInAccount, teamId: string) {
  await useSession(page, account);
  await page.evaluate((id) => localStorage.setItem('workspace_id', id), teamId);
  await page.goto('/dashboard/images');
  await page.getByRole('button', { name: 'Details of shared-knee.png' }).click();
  return page.getByRole('dialog', { name: 'shared-knee.png' });
}

test('two members comment on the same image in two browsers and see each other’s comments', async ({
  browser,
  page,
  request,
}) => {
  const ada = await signedInAccount(request, 'Ada Admin');
  const rosalind = await signedInAccount(request, 'Rosalind Franklin');
  const teamId = await teamOf(request, ada, rosalind, 'reviewer');

  // Ada writes first, mentioning her colleague.
  await page.clock.install();
  const adaDialog = await openImage(page, ada, teamId);
  await expect(adaDialog.getByText('No comments yet.')).toBeVisible();
  const adaBox = adaDialog.getByLabel('Add a comment');
  // Typing "@" and the start of a name offers the workspace's members (never oneself).
  await adaBox.fill('Meniscus edge blurred on slice 9. @fra');
  const offered = adaDialog.getByRole('group', { name: 'Mention a member' });
  await expect(offered.getByRole('button')).toHaveCount(1);
  await expectAccessible(page);
  await offered.getByRole('button', { name: 'Mention Rosalind Franklin' }).click();
  await expect(offered).toHaveCount(0);
  await adaBox.press('End');
  await adaBox.pressSequentially('can you confirm?');
  await expect(adaBox).toHaveValue('Meniscus edge blurred on slice 9. @Rosalind Franklin can you confirm?');
  await adaDialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(adaBox).toHaveValue('');
  const adaList = adaDialog.getByRole('list', { name: 'Comments, newest first' });
  await expect(adaList.getByRole('listitem').first()).toContainText('Ada Admin');
  await expect(adaList.getByRole('listitem').first()).toContainText('Meniscus edge blurred on slice 9.');
  await expectAccessible(page);

  // The mention reached Rosalind by e-mail.
  const mention = await waitForMail(rosalind.email, 'Ada Admin mentioned you in a comment on shared-knee.png');
  expect(mention.text).toContain('Knee QC');

  // Rosalind, in a browser of her own, sees Ada's comment, answers it and adds one of her own.
  const context = await browser.newContext();
  const other = await context.newPage();
  const rosDialog = await openImage(other, rosalind, teamId);
  const rosList = rosDialog.getByRole('list', { name: 'Comments, newest first' });
  const adaComment = rosList.getByRole('listitem').filter({ hasText: 'Meniscus edge blurred' });
  await expect(adaComment).toContainText('Ada Admin');
  // Only Ada may edit or delete Ada's comment.
  await expect(adaComment.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await expect(adaComment.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await adaComment.getByRole('button', { name: 'Reply' }).click();
  await rosDialog.getByLabel('Reply to Ada Admin').fill('Confirmed, it is motion.');
  await rosDialog.getByRole('button', { name: 'Save reply' }).click();
  const replies = rosList.getByRole('list', { name: 'Replies to Ada Admin' });
  await expect(replies.getByRole('listitem')).toContainText('Confirmed, it is motion.');
  await rosDialog.getByLabel('Add a comment').fill('Please repeat the sagittal series.');
  await rosDialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(rosList.getByRole('listitem').first()).toContainText('Please repeat the sagittal series.');
  await expect(rosList.getByRole('listitem').first()).toContainText('Rosalind Franklin');
  await expectAccessible(other);

  // Ada's open panel shows both at its next refresh, newest first, the reply under her comment.
  await expect(adaList.locator(':scope > li')).toHaveCount(1);
  await page.clock.fastForward(31_000);
  await expect(adaList.getByRole('listitem').first()).toContainText('Please repeat the sagittal series.');
  await expect(adaList.getByRole('list', { name: 'Replies to Ada Admin' })).toContainText('Confirmed, it is motion.');
  await expect(adaList.locator(':scope > li')).toHaveCount(2);
  expect(await adaList.evaluate((el) => getComputedStyle(el).maxHeight)).toBe('200px');

  // Ada corrects her comment; Rosalind sees the change when she comes back to the page.
  const own = adaList.locator(':scope > li').filter({ hasText: 'Meniscus edge blurred' });
  await own.getByRole('button', { name: 'Edit' }).first().click();
  const editBox = adaDialog.getByLabel('Edit comment');
  await editBox.fill('Meniscus edge blurred on slices 9-10.');
  await own.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(own).toContainText('(edited)');
  await expectAccessible(page);
  await rosDialog.getByRole('button', { name: 'Close' }).click();
  await other.getByRole('button', { name: 'Details of shared-knee.png' }).click();
  await expect(rosList).toContainText('Meniscus edge blurred on slices 9-10.');

  // Offline, the copy kept in the browser is still shown, with the reason.
  await rosDialog.getByRole('button', { name: 'Close' }).click();
  await context.setOffline(true);
  await other.getByRole('button', { name: 'Details of shared-knee.png' }).click();
  await expect(rosDialog.getByText('Showing the copy saved in this browser.')).toBeVisible();
  await expect(rosList.locator(':scope > li')).toHaveCount(2);
  await expect(rosList).toContainText('Please repeat the sagittal series.');
  await expectAccessible(other);
  await context.close();
});

test('a viewer reads the team’s comments but has no box to write one, and no Run button on Analysis', async ({
  page,
  request,
}) => {
  const ada = await signedInAccount(request, 'Ada Admin');
  const vic = await signedInAccount(request, 'Vic Viewer');
  const teamId = await teamOf(request, ada, vic, 'viewer');
  const files = await request.get('/api/v1/uploads', {
    headers: { authorization: `Bearer ${ada.token}`, 'x-workspace-id': teamId },
  });
  const [image] = (await files.json()) as { stored_filename: string }[];
  const posted = await request.post(`/api/v1/uploads/${image!.stored_filename}/comments`, {
    headers: { authorization: `Bearer ${ada.token}`, 'x-workspace-id': teamId },
    data: { text: 'For everyone to read.' },
  });
  expect(posted.status()).toBe(201);

  const dialog = await openImage(page, vic, teamId);
  await expect(dialog.getByRole('list', { name: 'Comments, newest first' })).toContainText('For everyone to read.');
  await expect(dialog.getByText('Your role in this workspace lets you read comments, not write them.')).toBeVisible();
  await expect(dialog.getByLabel('Add a comment')).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Reply' })).toHaveCount(0);
  await expectAccessible(page);

  // The same read-only role sees the team's images on the Analysis page but no Run button the server would refuse.
  await page.goto('/dashboard/analysis');
  await expect(
    page.getByText('Your role in this workspace lets you read batch results, not run checks.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: /^Run Analysis/ })).toHaveCount(0);
  await expectAccessible(page);
});
