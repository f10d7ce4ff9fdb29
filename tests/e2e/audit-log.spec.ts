import { readFile } from 'node:fs/promises';
import type { APIRequestContext } from '@playwright/test';
import { mailLink, waitForMail } from './auth-helpers.ts';
import { logIn, pngFile, signedInAccount, useSession, type SignedInAccount } from './dashboard-session.ts';
import { expect, expectAccessible, test } from './fixtures.ts';

const bearer = (account: SignedInAccount, workspace?: string) => ({
  authorization: `Bearer ${account.token}`,
  ...(workspace ? { 'x-workspace-id': workspace } : {}),
});

async function uploadTo(request: APIRequestContext, account: SignedInAccount, workspace: string, name: string) {
  const res = await request.post('/api/v1/uploads', {
    headers: bearer(account, workspace),
    multipart: { file: { name, mimeType: 'image/png', buffer: await pngFile(48, 48) } },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { stored_filename: string }).stored_filename;
}

test('an admin filters the audit log of a team workspace and exports what it shows as CSV', async ({
  page,
  browser,
  request,
}) => {
  const admin = await signedInAccount(request, 'Ada Admin');
  // A name a spreadsheet would run as a formula: the CSV must hold it as text.
  const member = await signedInAccount(request, '=Mallory Member');
  const team = (await (
    await request.post('/api/v1/workspaces', { headers: bearer(admin), data: { name: 'Neuro QC' } })
  ).json()) as { id: string };
  const invited = await request.post(`/api/v1/workspaces/${team.id}/invites`, {
    headers: bearer(admin),
    data: { email: member.email, role: 'member' },
  });
  expect(invited.status()).toBe(201);
  const token = new URL(
    mailLink(await waitForMail(member.email, 'Ada Admin invited you'), '/dashboard/workspace?invite='),
    'http://x',
  ).searchParams.get('invite')!;
  expect((await request.post(`/api/v1/invites/${token}/accept`, { headers: bearer(member) })).status()).toBe(200);

  const knee = await uploadTo(request, member, team.id, 'knee.png');
  expect((await request.get(`/api/v1/uploads/${knee}`, { headers: bearer(member, team.id) })).status()).toBe(200);
  // Enough events for a second page.
  for (let i = 0; i < 50; i++)
    expect((await request.get(`/api/v1/uploads/${knee}`, { headers: bearer(admin, team.id) })).status()).toBe(200);
  const hand = await uploadTo(request, admin, team.id, 'hand.png');
  expect((await request.delete(`/api/v1/uploads/${hand}`, { headers: bearer(admin, team.id) })).status()).toBe(204);
  await logIn(request, member.email);

  await useSession(page, admin);
  await page.evaluate((id) => localStorage.setItem('workspace_id', id), team.id);
  await page.goto('/dashboard/workspace');
  await page.getByRole('link', { name: 'See the audit log' }).click();
  await expect(page).toHaveURL('/dashboard/audit');
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Audit log of Neuro QC' });
  await expect(table.getByRole('row', { name: /Deleted an image hand\.png/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /=Mallory Member Signed in/ })).toBeVisible();
  const count = page.getByRole('status').filter({ hasText: /^Showing/ });
  await expect(count).toHaveText('Showing 50 events; more are older.');
  await expect(table.getByRole('row', { name: /Joined from an invitation/ })).toHaveCount(0);
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Show older events' }).click();
  await expect(count).toHaveText('Showing 58 events.');
  await expect(table.getByRole('row', { name: /Joined from an invitation/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Show older events' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Audit log of Neuro QC' })).toBeFocused();

  // Who: the member; What: downloads. Applied with the keyboard, from the last field.
  await page.getByLabel('Who').selectOption({ label: `=Mallory Member (${member.email})` });
  await page.getByLabel('What').selectOption({ label: 'Downloads' });
  // Days are taken in the time zone of Settings, UTC unless changed.
  const day = new Date().toISOString().slice(0, 10);
  await page.getByLabel('To (day, included)').fill(day);
  await page.getByLabel('To (day, included)').press('Enter');
  await expect(count).toHaveText('Showing 1 event.');
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('row').nth(1)).toContainText('Downloaded an image');
  await expect(table.getByRole('row').nth(1)).toContainText('knee.png');
  await expectAccessible(page);

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^lumenqc-audit-\d{4}-\d{2}-\d{2}\.csv$/);
  await expect(page.getByText(`Downloaded ${download.suggestedFilename()}.`)).toBeVisible();
  const csv = await readFile((await download.path())!, 'utf8');
  const lines = csv.split('\r\n');
  expect(lines[0]).toBe('time_utc,actor_name,actor_email,action,description,ip,detail');
  expect(lines).toHaveLength(3);
  expect(lines[1]).toMatch(
    new RegExp(`^\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z,'=Mallory Member,${member.email},upload.download,Downloaded an image,`),
  );
  expect(lines[1]).toContain(`""original_name"":""knee.png""`);
  expect(lines[2]).toBe('');

  // A range with nothing in it: the empty state says so.
  await page.getByLabel('From (day)').fill('2020-01-01');
  await page.getByLabel('To (day, included)').fill('2020-01-02');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByText('No events match these filters.')).toBeVisible();
  await expect(table).toHaveCount(0);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page.getByLabel('What')).toHaveValue('');
  await expect(table.getByRole('row', { name: /Deleted an image hand\.png/ })).toBeVisible();
  await expectAccessible(page);

  // The member is no admin: the page says so, and the API refuses.
  const context = await browser.newContext();
  const other = await context.newPage();
  await useSession(other, member);
  await other.evaluate((id) => localStorage.setItem('workspace_id', id), team.id);
  await other.goto('/dashboard/audit');
  await expect(other.getByText('Only the admins of Neuro QC see its audit log.')).toBeVisible();
  await expect(other.getByRole('table')).toHaveCount(0);
  await expectAccessible(other);
  await context.close();
});

test('the Analysis page shows the batch checks of the workspace chosen in the header', async ({ page, request }) => {
  const admin = await signedInAccount(request, 'Ada Admin');
  // The personal workspace, made on first use, gets a batch of its own image.
  const personal = (await (await request.get('/api/v1/workspaces', { headers: bearer(admin) })).json()) as {
    id: string;
  }[];
  const own = await uploadTo(request, admin, personal[0]!.id, 'own.png');
  const team = (await (
    await request.post('/api/v1/workspaces', { headers: bearer(admin), data: { name: 'Neuro QC' } })
  ).json()) as { id: string };
  const shared = [
    await uploadTo(request, admin, team.id, 'team-1.png'),
    await uploadTo(request, admin, team.id, 'team-2.png'),
  ];
  for (const [workspace, names] of [
    [personal[0]!.id, [own]],
    [team.id, shared],
  ] as const) {
    const started = await request.post('/api/v1/qc/batches', {
      headers: bearer(admin, workspace),
      data: { scope: 'selection', stored_filenames: names },
    });
    expect(started.status()).toBe(202);
    const id = ((await started.json()) as { id: string }).id;
    await expect
      .poll(
        async () =>
          (
            (await (await request.get(`/api/v1/qc/batches/${id}`, { headers: bearer(admin, workspace) })).json()) as {
              status: string;
            }
          ).status,
      )
      .toBe('done');
  }

  await useSession(page, admin);
  await page.evaluate((id) => localStorage.setItem('workspace_id', id), team.id);
  await page.goto('/dashboard/analysis');
  await expect(page.getByText('Analysis complete: 2 images checked.')).toBeVisible();
  await expect(page.getByRole('rowheader', { name: 'team-1.png' })).toBeVisible();
  await expectAccessible(page);

  // One image unticked here: the choice is this workspace's and must not carry over.
  await page.getByRole('checkbox', { name: /team-2\.png/ }).uncheck();
  await expect(page.getByRole('button', { name: 'Run Analysis on 1 Image' })).toBeEnabled();

  const switcher = page.getByRole('combobox', { name: 'Workspace', exact: true });
  await switcher.selectOption({ label: 'Personal' });
  await expect(page.getByText('Analysis complete: 1 images checked.')).toBeVisible();
  await expect(page.getByRole('rowheader', { name: 'own.png' })).toBeVisible();
  await expect(page.getByRole('rowheader', { name: 'team-1.png' })).toHaveCount(0);
  // The chooser offers this workspace's images, all ticked, not the other's.
  await expect(page.getByRole('checkbox', { name: /own\.png/ })).toBeChecked();
  await expect(page.getByRole('button', { name: 'Run Analysis on 1 Image' })).toBeEnabled();

  await switcher.selectOption({ label: 'Neuro QC' });
  await expect(page.getByText('Analysis complete: 2 images checked.')).toBeVisible();
  await expect(page.getByRole('rowheader', { name: 'own.png' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Run Analysis on 2 Images' })).toBeEnabled();
});
