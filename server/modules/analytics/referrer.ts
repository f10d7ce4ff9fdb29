/**
 * The part of a referrer worth keeping: origin and path, without query or fragment (they can carry
 * tokens or e-mail addresses). Anything that is not an http(s) URL is dropped.
 * @example cleanReferrer('https://a.org/x?token=1#y') // "https://a.org/x"
 */
export function cleanReferrer(referrer: string | null | undefined): string | null {
  if (!referrer) return null;
  try {
    const url = new URL(referrer);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return `${url.origin}${url.pathname}`.slice(0, 1024);
  } catch {
    return null;
  }
}

/** The path without query or fragment, for the same reason. */
export function cleanPath(path: string): string {
  return path.split(/[?#]/)[0] || '/';
}
