import { randomInt } from 'node:crypto';
import { hashToken } from '../auth/tokens.ts';

/** How many recovery codes an enrolment gives. */
export const RECOVERY_CODE_COUNT = 10;

// Crockford-like alphabet without look-alikes (0/o, 1/l/i), so a code copied from paper is read right.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/**
 * A fresh recovery code of two groups of five characters (about 49 bits), easy to write down.
 * @example newRecoveryCode() // 'k7m2q-xw9ta'
 */
export function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/**
 * The canonical form of a recovery code as typed: lower-cased, without spaces or dashes; undefined
 * when it cannot be one.
 * @example normalizeRecoveryCode(' K7M2Q XW9TA ') // 'k7m2qxw9ta'
 */
export function normalizeRecoveryCode(typed: string): string | undefined {
  const code = typed.toLowerCase().replace(/[\s-]/g, '');
  return /^[a-z0-9]{10}$/.test(code) ? code : undefined;
}

/** The SHA-256 of a normalised recovery code: the only form stored. Codes are random, so no salt is needed. */
export function hashRecoveryCode(normalized: string): string {
  return hashToken(`recovery:${normalized}`);
}
