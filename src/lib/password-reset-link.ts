/** The token and address a reset link carries. */
export interface ResetLink {
  token: string;
  email: string;
}

/**
 * Reads `?token=…&email=…`; undefined when either is missing. A "+" in an address that was not encoded
 * arrives as a space, so the trimmed address gets its plus signs back (SPEC §5).
 * @example parseResetLink('?token=abc&email=ada+qc@example.org') // { token: 'abc', email: 'ada+qc@example.org' }
 */
export function parseResetLink(search: string): ResetLink | undefined {
  const query = new URLSearchParams(search);
  const token = query.get('token')?.trim() ?? '';
  // Trimmed first: surrounding blanks come from copy and paste, inner ones from a "+" left unencoded.
  const email = (query.get('email') ?? '').trim().replace(/ /g, '+');
  return token && email ? { token, email } : undefined;
}
