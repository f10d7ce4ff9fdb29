import type { APIRequestContext } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures.ts';
import { mailLink, STRONG_PASSWORD, waitForMail } from './auth-helpers.ts';
import { pngFile, signedInAccount, useSession, type SignedInAccount } from './dashboard-session.ts';

const auth = (who: SignedInAccount) => ({ authorization: `Bearer ${who.token}` });

/** A team workspace of `admin` that `colleague` joined as a reviewer through the mailed invitation. */
async function teamOf(request: APIRequestContext, admin: SignedInAccount, colleague: SignedInAccount) {
  const team = await request.post('/api/v1/workspaces', { headers: auth(admin), data: { name: 'Spine QC' } });
  const teamId = (await team.json()).id as string;
  const invited = await request.post(`/api/v1/workspaces/${teamId}/invites`, {
    headers: auth(admin),
    data: { email: colleague.email, role: 'reviewer' },
  });
  expect(invited.status()).toBe(201);
  const link = mailLink(await waitForMail(colleague.email, 'Ada Admin invited you'), '?invite=');
  const token = new URLSearchParams(link.split('?')[1]).get('invite')!;
  expect((await request.post(`/api/v1/invites/${token}/accept`, { headers: auth(colleague) })).status()).toBe(200);
  return teamId;
}

async function upload(request: APIRequestContext, who: SignedInAccount, teamId: string, name: string, png: Buffer) {
  const uploaded = await request.post('/api/v1/uploads', {
    headers: { ...auth(who), 'x-workspace-id': teamId },
    multipart: { file: { name, mimeType: 'image/png', buffer: png } },
  });
  expect(uploaded.status()).toBe(201);
  return (await uploaded.json()).stored_filename as string;
}

test('the mention mail’s link opens the image’s details and comments, through sign-in, beyond the first page', async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const ada = await signedInAccount(request, 'Ada Admin');
  const rosalind = await signedInAccount(request, 'Rosalind Franklin');
  const teamId = await teamOf(request, ada, rosalind);
  const png = await pngFile(24, 24);
  const image = await upload(request, ada, teamId, 'lumbar-sagittal.png', png);
  // 96 newer images fill the grid's first page, so the linked one is not on it.
  for (let batch = 0; batch < 12; batch++) {
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => upload(request, ada, teamId, `filler-${batch * 8 + i}.png`, png)),
    );
  }
  const posted = await request.post(`/api/v1/uploads/${image}/comments`, {
    headers: { ...auth(ada), 'x-workspace-id': teamId },
    data: { text: '@Rosalind Franklin is L4 cut off at the edge?' },
  });
  expect(posted.status()).toBe(201);
  const mail = await waitForMail(rosalind.email, 'Ada Admin mentioned you in a comment on lumbar-sagittal.png');
  const link = mailLink(mail, '/dashboard/images?workspace=');
  expect(link).toBe(`/dashboard/images?workspace=${teamId}&image=${image}`);

  // Rosalind, signed out in a fresh browser, opens the link: sign-in first, then straight back to the image.
  const context = await browser.newContext();
  const other = await context.newPage();
  await other.goto(link);
  await expect(other).toHaveURL('/login');
  await expect(other.locator('astro-island[ssr]')).toHaveCount(0);
  await other.getByLabel('Email').fill(rosalind.email);
  await other.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
  await other.getByRole('button', { name: 'Sign In' }).click();
  const dialog = other.getByRole('dialog', { name: 'lumbar-sagittal.png' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('list', { name: 'Comments, newest first' })).toContainText(
    '@Rosalind Franklin is L4 cut off at the edge?',
  );
  await expect(dialog.getByRole('list', { name: 'Comments, newest first' })).toContainText('Ada Admin');
  // In the team's workspace, though her own was chosen before; the grid's first page lacks the image.
  await expect(other.getByRole('combobox', { name: 'Workspace', exact: true }).locator('option:checked')).toHaveText(
    'Spine QC',
  );
  await expect(other.getByRole('button', { name: 'Details of filler-95.png' })).toBeVisible();
  await expect(other.getByRole('button', { name: 'Details of lumbar-sagittal.png' })).toHaveCount(0);
  await expectAccessible(other);
  // Closed, the modal leaves the grid and an address that no longer opens it again.
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(other.getByRole('heading', { name: 'My Images' })).toBeFocused();
  await expect(other).toHaveURL('/dashboard/images');
  await context.close();

  // Someone outside the workspace who gets hold of the link is told so, and sees nothing of the image.
  const otto = await signedInAccount(request, 'Otto Outsider');
  await useSession(page, otto);
  await page.goto(link);
  await expect(
    page.getByText('You are not a member of the workspace this link opens. Ask one of its admins for an invitation.'),
  ).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expectAccessible(page);
});
