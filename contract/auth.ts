import { z } from './zod.ts';

/** Messages the product states to the letter (SPEC §5 and §8), shared by the API and the islands. */
export const authMessages = {
  weakPassword: 'Password too weak. Use 8+ chars with uppercase, number, and special char.',
  invalidCredentials: 'Invalid email or password.',
  emailNotVerified: 'Email not verified. Please check your inbox.',
  registered: 'Registration successful. Please check your email to verify your account.',
  verified: 'Email verified successfully.',
  alreadyVerified: 'Email already verified.',
  invalidVerification: 'Verification failed. The link may be invalid or expired.',
  resetLinkSent: 'If the email exists, a reset link has been sent.',
  invalidResetToken: 'Invalid or expired reset token. Please request a new password reset.',
  resetDone: 'Password has been reset successfully.',
  signedOut: 'Signed out.',
  resetTokenValid: 'Reset link is valid.',
  verificationResent: 'If the account exists and is not verified yet, a new verification link has been sent.',
} as const;

/** The special characters that satisfy the fifth password rule (SPEC §5). */
export const PASSWORD_SPECIALS = '!@#$%^&*(),.?":{}|<>';
/** Shortest accepted password (SPEC §9). */
export const PASSWORD_MIN_LENGTH = 8;
/** Longest accepted password: argon2 of megabytes would be a cheap way to burn server CPU. */
export const PASSWORD_MAX_LENGTH = 256;
/** Lowest strength score, out of 5, that a new password must reach (SPEC §9). */
export const PASSWORD_MIN_SCORE = 3;

/** The five password rules of SPEC §5, in the order the register checklist shows them. */
export const passwordRules = [
  { id: 'length', label: 'At least 8 characters', test: (p: string) => p.length >= PASSWORD_MIN_LENGTH },
  { id: 'uppercase', label: 'An uppercase letter', test: (p: string) => /[A-Z]/.test(p) },
  { id: 'lowercase', label: 'A lowercase letter', test: (p: string) => /[a-z]/.test(p) },
  { id: 'digit', label: 'A number', test: (p: string) => /\d/.test(p) },
  {
    id: 'special',
    label: `A special character (${PASSWORD_SPECIALS})`,
    test: (p: string) => [...p].some((c) => PASSWORD_SPECIALS.includes(c)),
  },
] as const;

/**
 * How many of the five rules the password meets.
 * @example passwordScore('abcdefgh') // 2 (length, lowercase)
 */
export function passwordScore(password: string): number {
  return passwordRules.filter((rule) => rule.test(password)).length;
}

/** Whether a new password may be set: minimum length and a score of at least 3 of 5. */
export function isPasswordAcceptable(password: string): boolean {
  return (
    password.length >= PASSWORD_MIN_LENGTH &&
    password.length <= PASSWORD_MAX_LENGTH &&
    passwordScore(password) >= PASSWORD_MIN_SCORE
  );
}

/**
 * The canonical form of an e-mail address: trimmed and lower-cased, as stored.
 * @example normalizeEmail(' Ada@Example.ORG ') // "ada@example.org"
 */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Whether the text looks like an e-mail address (one @, a dot in the domain, no spaces). */
export function isEmailAddress(email: string): boolean {
  return email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
}

const email = z.string().max(320).describe('E-mail address; compared trimmed and lower-cased');
const password = z.string().max(1024).describe('Password as typed; never stored or logged');
const token = z.string().max(200).describe('Single-use token from the link in the e-mail');

/** Body of POST /auth/register. Rules are checked by the handler so each failure has its own message. */
export const registerRequest = z.object({
  name: z.string().max(500).describe('Full name shown in the product'),
  email,
  password,
  organization: z.string().max(200).nullish().describe('Organisation name; the site always sends null'),
});
export type RegisterRequest = z.infer<typeof registerRequest>;

/** A plain confirmation answer. */
export const messageResponse = z.object({ message: z.string().describe('Human-readable outcome') });
export type MessageResponse = z.infer<typeof messageResponse>;

/** Body of POST /auth/login. */
export const loginRequest = z.object({ email, password });
export type LoginRequest = z.infer<typeof loginRequest>;

/** The user a sign-in stands for. */
export const loginUser = z.object({
  id: z.string().describe('User id (UUID)'),
  name: z.string().describe('Full name'),
  email: z.string().describe('E-mail address'),
});

/** Answer of POST /auth/login: the bearer token and the user, nested and at the top level (SPEC §3). */
export const loginResponse = z.object({
  access_token: z.string().describe('Bearer token for the Authorization header'),
  token_type: z.literal('bearer').describe('Always "bearer"'),
  user: loginUser,
  user_id: z.string().describe('Same as user.id'),
  name: z.string().describe('Same as user.name'),
  email: z.string().describe('Same as user.email'),
  org_id: z.string().nullable().describe('Organisation id, null when none'),
});
export type LoginResponse = z.infer<typeof loginResponse>;

/** Path of GET /auth/verify/{token}. */
export const verifyParams = z.object({ token });

/** Body of POST /auth/forgot-password. */
export const forgotPasswordRequest = z.object({ email });

/** Body of POST /auth/resend-verification. */
export const resendVerificationRequest = z.object({ email });

/** Body of POST /auth/validate-reset-token. */
export const validateResetRequest = z.object({ token, email });

/** Body of POST /auth/reset-password. */
export const resetPasswordRequest = z.object({ token, email, password });
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;
