import type { CommentItem, CommentThread } from '../../contract/comments.ts';

export { QC_PREFIX } from '../../contract/comments.ts';

/**
 * One comment as kept in this browser under `image_comments_v1` (SPEC §3: text and ts in milliseconds),
 * with the server's other fields when it came from the server. An entry without `id` was written in this
 * browser before comments were shared.
 */
export type CachedComment = Pick<CommentItem, 'text' | 'ts'> &
  Partial<Omit<CommentThread, 'text' | 'ts' | 'replies'>> & { replies?: CachedComment[] };

/** Every image's comments, by stored_filename: the offline copy of what the server last answered. */
export type CommentBook = Record<string, CachedComment[]>;

/** The book with that image's threads replaced by the server's answer. */
export function withThreads(book: CommentBook, storedFilename: string, threads: CachedComment[]): CommentBook {
  return { ...book, [storedFilename]: threads };
}

/** An image's threads, newest first (the server's order; older cached entries sorted the same way). */
export function commentsNewestFirst(book: CommentBook, storedFilename: string): CachedComment[] {
  return [...(book[storedFilename] ?? [])].sort((a, b) => b.ts - a.ts);
}

/** Comments written in this browser before comments were shared: no id, and not a [QC] result. */
export function localOnlyNotes(book: CommentBook, storedFilename: string): CachedComment[] {
  return (book[storedFilename] ?? []).filter((c) => c.id === undefined && !c.text.startsWith('[QC]'));
}

function isComment(value: unknown): value is CachedComment {
  const c = value as CachedComment | null;
  return typeof c?.text === 'string' && typeof c?.ts === 'number';
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
      book[key] = list.filter(isComment).map((c) => ({
        ...c,
        replies: Array.isArray(c.replies) ? c.replies.filter(isComment) : undefined,
      }));
      for (const c of book[key]) if (c.replies === undefined) delete c.replies;
    }
    return book;
  } catch {
    return {};
  }
}
