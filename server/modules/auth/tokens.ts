import { hash, randomBytes } from 'node:crypto';

/** A fresh 256-bit random token, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The SHA-256 of a token, hex; the only form in which tokens are stored. Runs on every signed-in request. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}
