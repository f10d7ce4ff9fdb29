/** Where a page keeps the secrets it took from its address, in its own history entry. */
const STATE_KEY = 'linkSecrets';

/**
 * Takes the named query parameters out of the address bar and answers them. They stay in this history
 * entry's state, which no address bar, Referer header, server log or shared screenshot shows, so a
 * reload (the Retry buttons) still finds them; the rest of the address is kept as it was.
 * @example takeFromAddressBar(['token']).get('token') // on /verify-email?token=abc: 'abc', address now /verify-email
 */
export function takeFromAddressBar(names: readonly string[]): URLSearchParams {
  const url = new URL(window.location.href);
  const state: Record<string, unknown> =
    typeof window.history.state === 'object' && window.history.state !== null ? window.history.state : {};
  const kept = (state[STATE_KEY] ?? {}) as Record<string, string>;
  const taken = new URLSearchParams();
  for (const name of names) {
    const value = url.searchParams.get(name) ?? kept[name];
    if (typeof value === 'string') taken.set(name, value);
    url.searchParams.delete(name);
  }
  if (taken.size === 0) return taken;
  window.history.replaceState(
    { ...state, [STATE_KEY]: Object.fromEntries(taken) },
    '',
    url.pathname + url.search + url.hash,
  );
  return taken;
}
