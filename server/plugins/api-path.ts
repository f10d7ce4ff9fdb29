/**
 * A request URL's path, percent-decoded as the router decodes it before matching (`/%61pi/v1/health` routes
 * to `/api/v1/health`); an undecodable path, which never routes anywhere, comes back as sent.
 * @example requestPath('/%61pi/v1/health?x=1') // '/api/v1/health'
 */
export function requestPath(url: string): string {
  const raw = url.split('?', 1)[0] ?? '';
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * Whether a request URL addresses the API, judged on the decoded path: on the raw one an encoded letter
 * would route to the API yet be answered with the pages' headers and the site's 404 page.
 * @example isApiPath('/%61pi/v1/health') // true
 */
export function isApiPath(url: string): boolean {
  const path = requestPath(url);
  return path === '/api' || path.startsWith('/api/');
}
