/** Where RedirectIfSignedOut keeps the dashboard page a signed-out visitor asked for. */
export const AFTER_SIGN_IN_KEY = 'after_sign_in';

/**
 * The page to open after signing in: the dashboard page kept before the redirect to /login (an invitation
 * link, for example), used once, else /dashboard. Only dashboard paths are followed, never another site.
 * @example afterSignInPath('/dashboard/workspace?invite=abc') // '/dashboard/workspace?invite=abc'
 */
export function afterSignInPath(kept: string | null): string {
  return kept && /^\/dashboard(\/|\?|$)/.test(kept) ? kept : '/dashboard';
}

/** Reads and forgets the kept page. */
export function takeAfterSignInPath(): string {
  let kept: string | null = null;
  try {
    kept = localStorage.getItem(AFTER_SIGN_IN_KEY);
    localStorage.removeItem(AFTER_SIGN_IN_KEY);
  } catch {
    // Storage refused: the dashboard's home is a fine place to land.
  }
  return afterSignInPath(kept);
}
