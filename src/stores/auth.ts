import type { WretchError } from 'wretch';
import type { MfaChallengeResponse } from '../../contract/account.ts';
import type { LoginResponse, MessageResponse, RegisterRequest } from '../../contract/auth.ts';
import type { ProfileResponse } from '../../contract/profile.ts';
import { api, errorMessage } from '../lib/api.ts';
import { clearSession, storeSession, updateSessionUser } from './session.ts';

/** A failed account call, carrying the message to show (already chosen per SPEC §8). */
export class AuthError extends Error {
  /** Set when the sign-in was refused because the address is not verified yet. */
  readonly notVerified: boolean;

  constructor(message: string, { notVerified = false } = {}) {
    super(message);
    this.name = 'AuthError';
    this.notVerified = notVerified;
  }
}

const statusOf = (error: unknown) => (error as WretchError | undefined)?.status;

// The login answer may carry the user at the top level, nested under `user`, or not at all (SPEC §3).
type LoginAnswer = Partial<LoginResponse> & { access_token: string };

/** What a right password leads to: a session, or (MFA on) the request for an authenticator code. */
export type SignInResult = { status: 'signed-in' } | { status: 'code-needed'; mfaToken: string };

/** Stores the session of a login answer; if it names no user, GET /profile/me fills it in (best effort). */
async function storeLoginAnswer(answer: LoginAnswer): Promise<void> {
  const userId = answer.user_id ?? answer.user?.id;
  storeSession({
    token: answer.access_token,
    userId,
    name: answer.name ?? answer.user?.name,
    email: answer.email ?? answer.user?.email,
    orgId: answer.org_id,
  });
  if (userId) return;
  try {
    const profile = await api.url('/profile/me').get().json<ProfileResponse>();
    updateSessionUser({ userId: profile.user_id, name: profile.name, email: profile.email });
  } catch {
    // The session works without the user fields; the dashboard loads the profile again anyway.
  }
}

/**
 * Signs in and stores the session; for an account with MFA on, answers 'code-needed' with the token
 * that `signInWithCode` completes.
 */
export async function signIn(email: string, password: string): Promise<SignInResult> {
  let answer: LoginAnswer | MfaChallengeResponse;
  try {
    answer = await api.url('/auth/login').post({ email, password }).json<LoginAnswer | MfaChallengeResponse>();
  } catch (error) {
    if (statusOf(error) === 403)
      throw new AuthError('Email not verified. Please check your inbox.', { notVerified: true });
    if (statusOf(error) === 401) throw new AuthError('Invalid email or password.');
    throw new AuthError(errorMessage(error, 'Login failed. Try again.'));
  }
  if ('mfa_required' in answer) return { status: 'code-needed', mfaToken: answer.mfa_token };
  await storeLoginAnswer(answer);
  return { status: 'signed-in' };
}

/** The second step of signing in with MFA: the authenticator's code (or a recovery code). */
export async function signInWithCode(mfaToken: string, code: string): Promise<void> {
  let answer: LoginAnswer;
  try {
    answer = await api.url('/auth/login/mfa').post({ mfa_token: mfaToken, code }).json<LoginAnswer>();
  } catch (error) {
    throw new AuthError(errorMessage(error, 'Login failed. Try again.'));
  }
  await storeLoginAnswer(answer);
}

/** Signs out: revokes the token on the server when it can, and clears the local session in any case. */
export async function signOut(): Promise<void> {
  try {
    await api.url('/auth/logout').post().res();
  } catch {
    // Offline or already expired: the local session goes all the same.
  } finally {
    clearSession();
  }
}

/** Creates an account; the verification link goes to the address. */
export async function register(fields: Omit<RegisterRequest, 'organization'>): Promise<void> {
  try {
    await api
      .url('/auth/register')
      .post({ ...fields, organization: null })
      .res();
  } catch (error) {
    const message = errorMessage(error, '') || (error instanceof Error && !statusOf(error) ? error.message : '');
    throw new AuthError(message || 'Registration failed. Please try again.');
  }
}

/** Asks for a reset link; the answer is the same whether or not the address has an account. */
export async function requestPasswordReset(email: string): Promise<string> {
  try {
    await api.url('/auth/forgot-password').post({ email }).res();
    return 'If the email exists, a reset link has been sent.';
  } catch {
    throw new AuthError('Something went wrong. Try again.');
  }
}

/**
 * Asks for a new verification link. The answer is the same whether or not the address has an account
 * waiting for verification; a 429 says how long to wait.
 */
export async function resendVerification(email: string): Promise<string> {
  try {
    const answer = await api.url('/auth/resend-verification').post({ email }).json<MessageResponse>();
    return answer.message;
  } catch (error) {
    if (statusOf(error) === 429)
      throw new AuthError(errorMessage(error, 'Too many e-mails requested. Try again later.'));
    throw new AuthError('Something went wrong. Try again.');
  }
}

/** The outcome of opening a verification link. */
export type VerifyOutcome = 'success' | 'already';

/** Verifies an address from its link; "already" when the server says so (SPEC §4). */
export async function verifyEmail(token: string): Promise<{ outcome: VerifyOutcome; message: string }> {
  try {
    const answer = await api
      .url(`/auth/verify/${encodeURIComponent(token)}`)
      .get()
      .json<MessageResponse>();
    const message = answer.message ?? '';
    return { outcome: /already/i.test(message) ? 'already' : 'success', message };
  } catch (error) {
    throw new AuthError(errorMessage(error, 'Verification failed. The link may be invalid or expired.'));
  }
}

/** Checks a reset link before showing the form. */
export async function validateResetToken(token: string, email: string): Promise<void> {
  try {
    await api.url('/auth/validate-reset-token').post({ token, email }).res();
  } catch (error) {
    throw new AuthError(errorMessage(error, 'Invalid or expired reset token. Please request a new password reset.'));
  }
}

/** Sets the new password from a reset link. */
export async function resetPassword(token: string, email: string, password: string): Promise<void> {
  try {
    await api.url('/auth/reset-password').post({ token, email, password }).res();
  } catch (error) {
    throw new AuthError(errorMessage(error, 'Failed to reset password. Please try again.'));
  }
}

/** How long the reset page shows its outcome before moving on (SPEC §4, §9). */
export const AFTER_RESET_DELAY_MS = { signedIn: 1200, signInNeeded: 2500 } as const;

/**
 * After a reset, signs in with the new password, then opens the dashboard after 1200 ms (replacing the
 * reset page in history); if that fails, opens /login after 2500 ms so the user signs in by hand.
 */
export async function signInAfterReset(email: string, password: string): Promise<'signed-in' | 'sign-in-needed'> {
  try {
    // With MFA on, a code is needed too: that happens on the sign-in screen.
    if ((await signIn(email, password)).status !== 'signed-in') throw new Error('code needed');
    setTimeout(() => window.location.replace('/dashboard'), AFTER_RESET_DELAY_MS.signedIn);
    return 'signed-in';
  } catch {
    setTimeout(() => window.location.assign('/login'), AFTER_RESET_DELAY_MS.signInNeeded);
    return 'sign-in-needed';
  }
}
