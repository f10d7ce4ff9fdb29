import { persistentAtom } from '@nanostores/persistent';
import { atom } from 'nanostores';
import type { CommentThread } from '../../contract/comments.ts';
import { api, errorMessage } from '../lib/api.ts';
import {
  localOnlyNotes,
  parseCommentBook,
  withThreads,
  type CachedComment,
  type CommentBook,
} from '../lib/comments.ts';
import type { MemberItem } from '../../contract/workspaces.ts';
import type { MentionCandidate } from '../lib/mention-suggestions.ts';
import { $token } from './session.ts';
import { $currentWorkspace } from './workspaces.ts';

/** Delay before a comment is saved (SPEC §9). */
export const COMMENT_SAVE_DELAY_MS = 150;

/** How often an open comment panel asks the server for what colleagues wrote meanwhile. */
export const COMMENTS_REFRESH_MS = 30_000;

/**
 * The offline copy of every image's comments, kept in this browser under `image_comments_v1` (SPEC §3):
 * shown while the server's answer is on its way or when the server cannot be reached, then replaced by it.
 */
export const $comments = persistentAtom<CommentBook>(
  'image_comments_v1',
  {},
  {
    encode: JSON.stringify,
    decode: (raw) => parseCommentBook(raw),
  },
);

// Comments may describe patients: the copy in this browser goes with the session that could read them.
$token.listen((token) => {
  if (!token) $comments.set({});
});

/** Where the comments of the open image come from right now. */
export type CommentsLoad =
  | { storedFilename: string; status: 'loading' }
  | { storedFilename: string; status: 'ready' }
  | { storedFilename: string; status: 'offline'; message: string };

/** The state of the last load of an image's comments. */
export const $commentsLoad = atom<CommentsLoad | undefined>(undefined);

/** Whether a comment is being saved. */
export const $commentSaving = atom(false);

const commentsPath = (storedFilename: string) => `/uploads/${encodeURIComponent(storedFilename)}/comments`;

/** Whether the caller's role in the current workspace lets them write comments (viewers read only). */
export function canWriteComments(): boolean {
  return $currentWorkspace.get()?.role !== 'viewer';
}

// Sending the notes kept from before is done once at a time per image, so two loads never send one twice.
const sendingNotes = new Set<string>();

/**
 * Sends the notes this browser kept before comments were shared to the server, oldest first, so they are
 * not lost when the server's answer replaces the copy. Resolves to the notes that could not be sent.
 */
async function sendLocalNotes(storedFilename: string): Promise<CachedComment[]> {
  const notes = localOnlyNotes($comments.get(), storedFilename).sort((a, b) => a.ts - b.ts);
  if (notes.length === 0 || !canWriteComments() || sendingNotes.has(storedFilename)) return notes;
  sendingNotes.add(storedFilename);
  try {
    while (notes.length > 0) {
      await api.post({ text: notes[0]!.text }, commentsPath(storedFilename)).res();
      notes.shift();
    }
  } catch {
    // Kept for the next time the image is opened.
  } finally {
    sendingNotes.delete(storedFilename);
  }
  return notes;
}

/** Loads an image's comments from the server into the offline copy; on failure the copy stays shown. */
export async function loadComments(storedFilename: string): Promise<void> {
  const current = $commentsLoad.get();
  if (current?.storedFilename !== storedFilename || current.status !== 'ready')
    $commentsLoad.set({ storedFilename, status: 'loading' });
  try {
    const unsent = await sendLocalNotes(storedFilename);
    const threads = await api.get(commentsPath(storedFilename)).json<CommentThread[]>();
    $comments.set(withThreads($comments.get(), storedFilename, [...threads, ...unsent]));
    if ($commentsLoad.get()?.storedFilename === storedFilename) $commentsLoad.set({ storedFilename, status: 'ready' });
  } catch (error) {
    if ($commentsLoad.get()?.storedFilename !== storedFilename) return;
    $commentsLoad.set({ storedFilename, status: 'offline', message: errorMessage(error, 'Failed to load comments') });
  }
}

/** Runs one change after the save delay, then reloads the image's comments; resolves to an error message. */
async function change(storedFilename: string, send: () => Promise<unknown>, fallback: string) {
  $commentSaving.set(true);
  try {
    await new Promise((resolve) => setTimeout(resolve, COMMENT_SAVE_DELAY_MS));
    await send();
  } catch (error) {
    return errorMessage(error, fallback);
  } finally {
    $commentSaving.set(false);
  }
  // Reloading shows what colleagues wrote meanwhile too.
  await loadComments(storedFilename);
  return undefined;
}

/**
 * Saves a comment (or a reply to `parentId`) on an image after the save delay; blank text is ignored.
 * Resolves to an error message, or undefined once saved.
 */
export async function saveComment(storedFilename: string, text: string, parentId?: string) {
  if (!text.trim()) return undefined;
  const body = parentId ? { text, parent_id: parentId } : { text };
  return change(storedFilename, () => api.post(body, commentsPath(storedFilename)).res(), 'Failed to save comment');
}

/** Replaces the text of one's own comment; resolves to an error message, or undefined once saved. */
export async function editComment(storedFilename: string, id: string, text: string) {
  if (!text.trim()) return undefined;
  const path = `${commentsPath(storedFilename)}/${encodeURIComponent(id)}`;
  return change(storedFilename, () => api.patch({ text }, path).res(), 'Failed to save comment');
}

/** Deletes a comment; resolves to an error message, or undefined once deleted. */
export async function deleteComment(storedFilename: string, id: string) {
  const path = `${commentsPath(storedFilename)}/${encodeURIComponent(id)}`;
  $commentSaving.set(true);
  try {
    await api.delete(path).res();
  } catch (error) {
    return errorMessage(error, 'Failed to delete comment');
  } finally {
    $commentSaving.set(false);
  }
  await loadComments(storedFilename);
  return undefined;
}

/** The members of the current team workspace, offered when a comment's writer types "@". */
export const $mentionable = atom<MentionCandidate[]>([]);

/** Loads whom a comment can mention: nobody in a personal workspace; suggestions are only a help, so a failure is quiet. */
export async function loadMentionable(): Promise<void> {
  const workspace = $currentWorkspace.get();
  if (!workspace || workspace.personal) return $mentionable.set([]);
  try {
    const members = await api.get(`/workspaces/${encodeURIComponent(workspace.id)}/members`).json<MemberItem[]>();
    $mentionable.set(members.map((m) => ({ user_id: m.user_id, name: m.name })));
  } catch {
    $mentionable.set([]);
  }
}
