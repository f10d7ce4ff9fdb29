import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../auth/auth.context.ts';
import type { MfaRepository } from './mfa.repository.ts';
import { hashRecoveryCode, normalizeRecoveryCode } from './recovery-codes.ts';
import { totpStep } from './totp.ts';

/** Which kind of code proved the second factor. */
export type SecondFactor = 'totp' | 'recovery';

/**
 * Checks a code for a user whose MFA is on: the authenticator's current code (each 30-second code once
 * only), or an unused recovery code, which is then used up. Wrong codes count against the account's
 * code limit, and past it every check answers 429 until the window ends, right code or not.
 */
export async function checkSecondFactor(
  request: FastifyRequest,
  auth: AuthContext,
  mfa: MfaRepository,
  userId: string,
  typed: string,
  now: Date,
): Promise<SecondFactor | undefined> {
  // Counted before the check, so concurrent guesses get no more checks than the limit.
  const attempt = await auth.limits.startCodeCheck(request, userId);
  const factor = await mfa.find(userId);
  let proof: SecondFactor | undefined;
  if (factor?.confirmedAt) {
    const code = typed.replace(/\s/g, '');
    const step = totpStep(factor.secret, code, now);
    const recovery = normalizeRecoveryCode(typed);
    if (step !== undefined && (await mfa.useStep(userId, step))) proof = 'totp';
    else if (recovery && (await mfa.useRecoveryCode(userId, hashRecoveryCode(recovery), now))) proof = 'recovery';
  }
  if (proof) await attempt.codeWasRight();
  return proof;
}
