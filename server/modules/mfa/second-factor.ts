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
  await auth.limits.checkCode(request, userId);
  const factor = await mfa.find(userId);
  if (factor?.confirmedAt) {
    const code = typed.replace(/\s/g, '');
    const step = totpStep(factor.secret, code, now);
    if (step !== undefined && (await mfa.useStep(userId, step))) return 'totp';
    const recovery = normalizeRecoveryCode(typed);
    if (recovery && (await mfa.useRecoveryCode(userId, hashRecoveryCode(recovery), now))) return 'recovery';
  }
  await auth.limits.countCodeFailure(request, userId);
  return undefined;
}
