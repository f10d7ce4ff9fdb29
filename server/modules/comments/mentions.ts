/** A workspace member who can be mentioned. */
export interface Mentionable {
  userId: string;
  name: string;
}

// A name ends where a letter or digit would carry on: "@Ada," mentions Ada, "@Adam" does not.
const WORD_CHAR = /[\p{L}\p{N}_]/u;

/**
 * The members a comment mentions with "@" and their display name (any case). At each "@" the longest
 * matching name wins, so "@Ada Lovelace" mentions Ada Lovelace and not a member named "Ada". An "@"
 * inside a word (an e-mail address) mentions no one.
 * @example mentionedIn('thanks @ada!', [{ userId: 'u1', name: 'Ada' }]) // ['u1']
 */
export function mentionedIn(text: string, members: readonly Mentionable[]): string[] {
  const byLength = [...members].filter((m) => m.name.trim() !== '').sort((a, b) => b.name.length - a.name.length);
  const found = new Set<string>();
  const lower = text.toLowerCase();
  for (let at = lower.indexOf('@'); at !== -1; at = lower.indexOf('@', at + 1)) {
    if (at > 0 && WORD_CHAR.test(lower[at - 1]!)) continue;
    const match = byLength.find((member) => {
      const name = member.name.toLowerCase();
      if (!lower.startsWith(name, at + 1)) return false;
      const next = lower[at + 1 + name.length];
      return next === undefined || !WORD_CHAR.test(next);
    });
    if (match) found.add(match.userId);
  }
  return [...found];
}
