import { persistentAtom } from '@nanostores/persistent';
import { atom } from 'nanostores';
import { addComment, parseCommentBook, QC_PREFIX, type CommentBook } from '../lib/comments.ts';

/** Delay before a comment is saved (SPEC §9). */
export const COMMENT_SAVE_DELAY_MS = 150;

/** Every image's comments, kept in this browser under `image_comments_v1` (SPEC §3). */
export const $comments = persistentAtom<CommentBook>(
  'image_comments_v1',
  {},
  {
    encode: JSON.stringify,
    decode: (raw) => parseCommentBook(raw),
  },
);

/** Whether a comment is being saved. */
export const $commentSaving = atom(false);

/** Saves a comment on an image after the save delay; blank text is ignored. */
export async function saveComment(storedFilename: string, text: string): Promise<void> {
  if (!text.trim()) return;
  $commentSaving.set(true);
  await new Promise((resolve) => setTimeout(resolve, COMMENT_SAVE_DELAY_MS));
  $comments.set(addComment($comments.get(), storedFilename, text, Date.now()));
  $commentSaving.set(false);
}

/** Adds a quality-control result to an image's comments with the [QC] prefix. */
export function addQcComment(storedFilename: string, text: string): void {
  $comments.set(addComment($comments.get(), storedFilename, `${QC_PREFIX} ${text}`, Date.now()));
}
