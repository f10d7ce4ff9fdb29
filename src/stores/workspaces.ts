import { atom, computed } from 'nanostores';
import type { InviteItem, InvitePreview } from '../../contract/invites.ts';
import type { MemberItem, WorkspaceItem, WorkspaceRoleName } from '../../contract/workspaces.ts';
import { api, backgroundApi, errorMessage } from '../lib/api.ts';
import { $activity, $metrics } from './metrics.ts';
import { $images } from './images.ts';
import { resetLibrary } from './library.ts';
import { $workspaceId } from './workspace-choice.ts';

/** The caller's workspaces as last loaded. */
export type WorkspacesState =
  { status: 'loading' } | { status: 'ready'; items: WorkspaceItem[] } | { status: 'failed'; message: string };

export const $workspaces = atom<WorkspacesState>({ status: 'loading' });

/** The workspace the dashboard acts in: the chosen one, else the personal one. */
export const $currentWorkspace = computed([$workspaces, $workspaceId], (state, id) => {
  if (state.status !== 'ready') return undefined;
  return state.items.find((w) => w.id === id) ?? state.items.find((w) => w.personal);
});

/** Loads the list; a chosen workspace the caller no longer belongs to falls back to the personal one. */
export async function loadWorkspaces(): Promise<void> {
  try {
    const items = await backgroundApi.get('/workspaces').json<WorkspaceItem[]>();
    const chosen = $workspaceId.get();
    if (chosen && !items.some((w) => w.id === chosen)) switchWorkspace(undefined);
    $workspaces.set({ status: 'ready', items });
  } catch (error) {
    $workspaces.set({ status: 'failed', message: errorMessage(error, 'Failed to load workspaces') });
  }
}

/**
 * Acts in another workspace from now on (undefined: the personal one). What was shown of the previous one
 * is dropped at once, so its images never show under the new name; the views load the new one's.
 */
export function switchWorkspace(id: string | undefined): void {
  const personal = $workspaces.get();
  const isPersonal = personal.status === 'ready' && personal.items.find((w) => w.id === id)?.personal;
  $workspaceId.set(isPersonal ? undefined : id);
  $images.set({ items: [], loading: false, loaded: false, error: undefined });
  resetLibrary();
  $metrics.set({ status: 'loading' });
  $activity.set({ status: 'loading' });
}

/** What the Workspace page last confirmed; kept here, as switching remounts the page. */
export const $workspaceNotice = atom('');

/** Creates a team workspace and switches to it; resolves to an error message, or undefined on success. */
export async function createWorkspace(name: string): Promise<string | undefined> {
  try {
    const created = await api.post({ name }, '/workspaces').json<WorkspaceItem>();
    await loadWorkspaces();
    switchWorkspace(created.id);
    $workspaceNotice.set(`Created ${created.name}; you are its admin.`);
    return undefined;
  } catch (error) {
    return errorMessage(error, 'Failed to create workspace');
  }
}

/** Renames the current workspace; resolves to an error message, or undefined on success. */
export async function renameWorkspace(id: string, name: string): Promise<string | undefined> {
  try {
    await api.patch({ name }, `/workspaces/${id}`).res();
    await loadWorkspaces();
    return undefined;
  } catch (error) {
    return errorMessage(error, 'Failed to rename workspace');
  }
}

/** The members of the workspace shown on the Workspace page. */
export type MembersState =
  { status: 'loading' } | { status: 'ready'; items: MemberItem[] } | { status: 'failed'; message: string };

export const $members = atom<MembersState>({ status: 'loading' });

/** Loads the members of a workspace. */
export async function loadMembers(workspaceId: string): Promise<void> {
  $members.set({ status: 'loading' });
  try {
    $members.set({ status: 'ready', items: await api.get(`/workspaces/${workspaceId}/members`).json<MemberItem[]>() });
  } catch (error) {
    $members.set({ status: 'failed', message: errorMessage(error, 'Failed to load members') });
  }
}

/** Changes a member's role or permissions; resolves to an error message, or undefined on success. */
export async function updateMember(
  workspaceId: string,
  userId: string,
  changes: { role?: WorkspaceRoleName; permissions?: 'dataset.write'[] },
): Promise<string | undefined> {
  try {
    const items = await api.patch(changes, `/workspaces/${workspaceId}/members/${userId}`).json<MemberItem[]>();
    $members.set({ status: 'ready', items });
    return undefined;
  } catch (error) {
    return errorMessage(error, 'Failed to change the member');
  }
}

/**
 * Removes a member, or the caller themself (leaving): they then act in their personal workspace.
 * Resolves to an error message, or undefined on success.
 */
export async function removeMember(workspaceId: string, userId: string, self: boolean): Promise<string | undefined> {
  try {
    await api.delete(`/workspaces/${workspaceId}/members/${userId}`).res();
    if (self) {
      switchWorkspace(undefined);
      await loadWorkspaces();
    } else await loadMembers(workspaceId);
    return undefined;
  } catch (error) {
    return errorMessage(error, 'Failed to remove the member');
  }
}

/** The current workspace's pending invitations, for its admins. */
export const $invites = atom<InviteItem[]>([]);

/** Loads the pending invitations of a workspace (admins only; others see none). */
export async function loadInvites(workspaceId: string): Promise<void> {
  try {
    $invites.set(await api.get(`/workspaces/${workspaceId}/invites`).json<InviteItem[]>());
  } catch {
    $invites.set([]);
  }
}

/** Invites an address by e-mail; resolves to an error message, or undefined on success. */
export async function inviteMember(
  workspaceId: string,
  email: string,
  role: WorkspaceRoleName,
): Promise<string | undefined> {
  try {
    await api.post({ email, role }, `/workspaces/${workspaceId}/invites`).res();
    await loadInvites(workspaceId);
    return undefined;
  } catch (error) {
    return errorMessage(error, 'Failed to send the invitation');
  }
}

/** Withdraws a pending invitation; resolves to an error message, or undefined on success. */
export async function withdrawInvite(workspaceId: string, inviteId: string): Promise<string | undefined> {
  try {
    await api.delete(`/workspaces/${workspaceId}/invites/${inviteId}`).res();
    await loadInvites(workspaceId);
    return undefined;
  } catch (error) {
    return errorMessage(error, 'Failed to withdraw the invitation');
  }
}

/** An invitation link opened in the dashboard (`?invite=`), as the server describes it. */
export type OpenedInvite =
  | { status: 'none' }
  | { status: 'loading' }
  | { status: 'ready'; token: string; invite: InvitePreview }
  | { status: 'failed'; message: string };

export const $openedInvite = atom<OpenedInvite>({ status: 'none' });

/** Reads the invitation of a link's secret. */
export async function openInvite(token: string): Promise<void> {
  $openedInvite.set({ status: 'loading' });
  try {
    const invite = await api.get(`/invites/${encodeURIComponent(token)}`).json<InvitePreview>();
    $openedInvite.set({ status: 'ready', token, invite });
  } catch (error) {
    $openedInvite.set({ status: 'failed', message: errorMessage(error, 'This invitation is invalid or has expired') });
  }
}

/** Joins the workspace of the opened invitation and switches to it. */
export async function acceptInvite(token: string): Promise<string | undefined> {
  try {
    const joined = await api.post(undefined, `/invites/${encodeURIComponent(token)}/accept`).json<WorkspaceItem>();
    $openedInvite.set({ status: 'none' });
    // The link has been used: a reload must not offer it again.
    window.history.replaceState(window.history.state, '', window.location.pathname);
    await loadWorkspaces();
    switchWorkspace(joined.id);
    $workspaceNotice.set(`You joined ${joined.name} as ${joined.role}.`);
    return undefined;
  } catch (error) {
    return errorMessage(error, 'This invitation is invalid or has expired');
  }
}
