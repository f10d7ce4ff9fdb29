/** A workspace member who can be mentioned in a comment. */
export interface MentionCandidate {
  user_id: string;
  name: string;
}

/**
 * The name being typed after an "@" that ends `beforeCaret`, or undefined when the caret is not in one.
 * @example mentionQuery('thanks @Ros') // 'Ros'
 */
export function mentionQuery(beforeCaret: string): string | undefined {
  return /(?:^|\s)@([^@\n]{0,40})$/u.exec(beforeCaret)?.[1];
}

/**
 * Up to `limit` members whose name starts with the query, or has a word that does (any case); never
 * `selfId`, nor a member whose whole name the query already is.
 */
export function mentionSuggestions(
  query: string,
  members: readonly MentionCandidate[],
  selfId: string | undefined,
  limit = 5,
): MentionCandidate[] {
  const q = query.trim().toLowerCase();
  return members
    .filter((m) => m.user_id !== selfId)
    .filter((m) => {
      const name = m.name.toLowerCase();
      // A name already typed in full is not offered again.
      if (name === q) return false;
      return name.startsWith(q) || name.split(/\s+/).some((word) => word.startsWith(q));
    })
    .slice(0, limit);
}

/**
 * The text with the "@query" before the caret replaced by "@Full Name ", and where the caret goes next.
 * @example insertMention('hi @ro', 6, 'Rosalind Franklin') // { text: 'hi @Rosalind Franklin ', caret: 22 }
 */
export function insertMention(text: string, caret: number, name: string): { text: string; caret: number } {
  const before = text.slice(0, caret);
  const query = mentionQuery(before) ?? '';
  const start = caret - query.length;
  const inserted = `${name} `;
  return { text: text.slice(0, start) + inserted + text.slice(caret), caret: start + inserted.length };
}
