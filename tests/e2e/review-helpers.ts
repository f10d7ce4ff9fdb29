import type { APIRequestContext, Page } from '@playwright/test';
import { mailLink, waitForMail } from './auth-helpers.ts';
import type { SignedInAccount } from './dashboard-session.ts';

/** Calls the API as `account`, acting in `workspaceId`. */
export async function apiAs(
  request: APIRequestContext,
  account: SignedInAccount,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH',
  path: string,
  workspaceId?: string,
  data?: unknown,
) {
  const res = await request.fetch(`/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${account.token}`, ...(workspaceId ? { 'x-workspace-id': workspaceId } : {}) },
    ...(data !== undefined ? { data } : {}),
  });
  if (res.status() >= 300) throw new Error(`${method} ${path} answered ${res.status()}: ${await res.text()}`);
  return res.status() === 204 ? undefined : ((await res.json()) as Record<string, unknown>);
}

/** A team workspace of `admin`, joined by each colleague through the real invitation mail. */
export async function teamWorkspace(
  request: APIRequestContext,
  admin: SignedInAccount,
  name: string,
  colleagues: { account: SignedInAccount; role: 'member' | 'reviewer' | 'viewer' }[],
): Promise<string> {
  const created = await apiAs(request, admin, 'POST', '/workspaces', undefined, { name });
  const id = created!.id as string;
  for (const { account, role } of colleagues) {
    await apiAs(request, admin, 'POST', `/workspaces/${id}/invites`, undefined, { email: account.email, role });
    const link = mailLink(await waitForMail(account.email, `${admin.name} invited you`), '?invite=');
    const token = new URL(link, 'http://x').searchParams.get('invite')!;
    await apiAs(request, account, 'POST', `/invites/${encodeURIComponent(token)}/accept`);
  }
  return id;
}

/** Uploads a file into a workspace through the API. */
export async function uploadTo(
  request: APIRequestContext,
  account: SignedInAccount,
  workspaceId: string | undefined,
  name: string,
  buffer: Buffer,
): Promise<string> {
  const res = await request.post('/api/v1/uploads', {
    headers: { authorization: `Bearer ${account.token}`, ...(workspaceId ? { 'x-workspace-id': workspaceId } : {}) },
    multipart: { file: { name, mimeType: 'application/octet-stream', buffer } },
  });
  if (res.status() !== 201) throw new Error(`upload answered ${res.status()}: ${await res.text()}`);
  return ((await res.json()) as { stored_filename: string }).stored_filename;
}

/** Makes the dashboard of this page act in `workspaceId`, as the header's switcher would. */
export async function chooseWorkspace(page: Page, workspaceId: string): Promise<void> {
  await page.evaluate((id) => localStorage.setItem('workspace_id', id), workspaceId);
}
