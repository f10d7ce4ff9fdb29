/** The compressions this server makes for its own answers, best first. */
export type ContentEncoding = 'br' | 'gzip';

const PREFERENCE: ContentEncoding[] = ['br', 'gzip'];

/** Headers already weighed, and how many are kept (a header is at most the server's header size limit). */
const known = new Map<string, ContentEncoding | undefined>();
const MAX_KNOWN = 64;

/**
 * The encoding an `Accept-Encoding` header weighs highest, or undefined for the bytes as they are. A coding
 * listed with q=0 is refused even when `*` would allow it (RFC 9110 §12.5.3).
 */
export function preferredEncoding(header: string | undefined): ContentEncoding | undefined {
  if (!header) return undefined;
  // A browser sends the same few headers on every request, so each is weighed once.
  if (known.has(header)) return known.get(header);
  const encoding = weigh(header);
  if (known.size >= MAX_KNOWN) known.clear();
  known.set(header, encoding);
  return encoding;
}

function weigh(header: string): ContentEncoding | undefined {
  const weights = new Map<string, number>();
  for (const item of header.split(',')) {
    const [name = '', ...params] = item.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (name) weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const wildcard = weights.get('*') ?? 0;
  const weightOf = (coding: ContentEncoding) => weights.get(coding) ?? wildcard;
  // The client's weights first; among equals, this server's preference (the sort is stable).
  const best = [...PREFERENCE].sort((a, b) => weightOf(b) - weightOf(a))[0]!;
  return weightOf(best) > 0 ? best : undefined;
}
