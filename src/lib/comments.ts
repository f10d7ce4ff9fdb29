/** One comment on one image, kept in this browser only (SPEC §3). */
export interface ImageComment {
  text: string;
  /** When it was written, in milliseconds since the epoch. */
  ts: number;
}

/** Every image's comments, by stored_filename, as kept under `image_comments_v1`. */
export type CommentBook = Record<string, ImageComment[]>;

/** Prefix of a quality-control result added to the comments. */
export const QC_PREFIX = '[QC]';

/**
 * The book with one more comment for that image; blank text (after trimming) changes nothing.
 * @example addComment({}, 'a.png', ' ok ', 5) // { 'a.png': [{ text: 'ok', ts: 5 }] }
 */
export function addComment(book: CommentBook, storedFilename: string, text: string, ts: number): CommentBook {
  const trimmed = text.trim();
  if (!trimmed) return book;
  return { ...book, [storedFilename]: [...(book[storedFilename] ?? []), { text: trimmed, ts }] };
}

/** An image's comments, newest first. */
export function commentsNewestFirst(book: CommentBook, storedFilename: string): ImageComment[] {
  return [...(book[storedFilename] ?? [])].sort((a, b) => b.ts - a.ts);
}

/** Reads the stored book, tolerating anything malformed (another version, a hand edit) as empty. */
export function parseCommentBook(raw: string | undefined): CommentBook {
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const book: CommentBook = {};
    for (const [key, list] of Object.entries(parsed)) {
      if (!Array.isArray(list)) continue;
      book[key] = list.filter((c): c is ImageComment => typeof c?.text === 'string' && typeof c?.ts === 'number');
    }
    return book;
  } catch {
    return {};
  }
}
