import { atom } from 'nanostores';
import type { UploadItem } from '../../contract/uploads.ts';
import { api, errorMessage } from '../lib/api.ts';
import { openDetails } from './details.ts';
import { loadLibrary } from './library.ts';
import { $workspaceId } from './workspace-choice.ts';
import { $workspaces, switchWorkspace, type WorkspacesState } from './workspaces.ts';

/** Shown when a mailed link names a workspace the reader is not a member of. */
export const NOT_A_MEMBER =
  'You are not a member of the workspace this link opens. Ask one of its admins for an invitation.';

/** Why a link to an image could not open it, or '' while nothing went wrong. */
export const $imageLinkError = atom('');

/**
 * The image a link asks My Images to open (`?workspace=<id>&image=<stored_filename>`, as comment mails send),
 * or undefined when the address names none.
 */
export function imageLinkOf(search: string): { workspace: string | undefined; image: string } | undefined {
  const query = new URLSearchParams(search);
  const image = query.get('image');
  if (!image) return undefined;
  return { workspace: query.get('workspace') ?? undefined, image };
}

function workspacesReady(): Promise<WorkspacesState> {
  return new Promise((resolve) => {
    const stop = $workspaces.subscribe((state) => {
      if (state.status === 'loading') return;
      queueMicrotask(() => stop());
      resolve(state);
    });
  });
}

/**
 * Opens the linked image's details: first switches to its workspace (only one the reader belongs to), then
 * loads that one item, so an image beyond the grid's first page opens too. Returns the opened item.
 */
export async function openImageLink(link: {
  workspace: string | undefined;
  image: string;
}): Promise<UploadItem | undefined> {
  $imageLinkError.set('');
  if (link.workspace) {
    const state = await workspacesReady();
    if (state.status !== 'ready') return undefined;
    const target = state.items.find((w) => w.id === link.workspace);
    if (!target) {
      $imageLinkError.set(NOT_A_MEMBER);
      return undefined;
    }
    const current = $workspaceId.get();
    if (target.personal ? current !== undefined : current !== target.id) {
      switchWorkspace(target.id);
      void loadLibrary();
    }
  }
  try {
    const item = await api.get(`/uploads/${encodeURIComponent(link.image)}/item`).json<UploadItem>();
    void openDetails(item);
    return item;
  } catch (error) {
    $imageLinkError.set(errorMessage(error, 'Image not found'));
    return undefined;
  }
}
