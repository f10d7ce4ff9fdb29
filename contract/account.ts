import { z } from './zod.ts';

/** Messages of the account settings (MFA and e-mail change), shared by the API and the Settings view. */
export const accountMessages = {
  wrongCode: 'That code is not right, or it was used already. Try the current code.',
  mfaEnabled: 'Multi-factor authentication is on.',
  mfaDisabled: 'Multi-factor authentication is off.',
  mfaAlreadyOn: 'Multi-factor authentication is already on. Turn it off first to change authenticators.',
  mfaNotStarted: 'Start the set-up again: no authenticator is waiting for its first code.',
  mfaNotOn: 'Multi-factor authentication is not on.',
  signInExpired: 'This sign-in has expired. Enter your password again.',
  emailChangeSent: 'We sent a confirmation link to the new address. Your address changes when you open it.',
  emailChanged: 'Your e-mail address has been changed.',
  emailTaken: 'That address belongs to another account.',
  emailUnchanged: 'That is already your address.',
  invalidEmailLink: 'This confirmation link is invalid, expired or already used. Ask for a new one from Settings.',
  wrongPassword: 'Your current password is not right.',
} as const;

const code = z
  .string()
  .max(64)
  .describe('Six-digit code from the authenticator app, or one of the recovery codes (dashes and spaces ignored)');

/** The MFA state of the signed-in user, as GET /account/mfa answers. */
export const mfaStatusResponse = z.object({
  enabled: z.boolean().describe('Whether sign-in asks for an authenticator code'),
  recovery_codes_left: z.number().int().describe('Unused recovery codes (0 when MFA is off)'),
});
export type MfaStatusResponse = z.infer<typeof mfaStatusResponse>;

/** Answer of POST /account/mfa/enrol: what the authenticator app needs, shown once. */
export const mfaEnrolmentResponse = z.object({
  secret: z.string().describe('Base32 TOTP secret, for typing into the app by hand'),
  otpauth_uri: z.string().describe('otpauth:// URI the QR code holds'),
  qr_svg: z.string().describe('The QR code of otpauth_uri as an SVG document'),
});
export type MfaEnrolmentResponse = z.infer<typeof mfaEnrolmentResponse>;

/** Body of POST /account/mfa/confirm and /account/mfa/disable. */
export const mfaCodeRequest = z.object({ code });
export type MfaCodeRequest = z.infer<typeof mfaCodeRequest>;

/** Answer of POST /account/mfa/confirm: the recovery codes, shown this once and stored only hashed. */
export const recoveryCodesResponse = z.object({
  message: z.string().describe('Human-readable outcome'),
  recovery_codes: z.array(z.string()).describe('Single-use codes for signing in without the app'),
});
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponse>;

/** Answer of POST /auth/login for an account with MFA: the password was right, a code is needed next. */
export const mfaChallengeResponse = z.object({
  mfa_required: z.literal(true).describe('Always true: send a code to POST /auth/login/mfa'),
  mfa_token: z.string().describe('Single-use token of this sign-in, valid 5 minutes'),
});
export type MfaChallengeResponse = z.infer<typeof mfaChallengeResponse>;

/** Body of POST /auth/login/mfa, the second step of signing in. */
export const loginMfaRequest = z.object({
  mfa_token: z.string().max(200).describe('The token POST /auth/login answered'),
  code,
});
export type LoginMfaRequest = z.infer<typeof loginMfaRequest>;

/** Body of POST /account/email: ask to change the sign-in address. */
export const emailChangeRequest = z.object({
  email: z.string().max(320).describe('The new address; a confirmation link is sent to it'),
  password: z.string().max(1024).describe('Current password, so a borrowed session cannot take the account'),
});
export type EmailChangeRequest = z.infer<typeof emailChangeRequest>;

/** Body of POST /account/email/confirm: the token from the link mailed to the new address. */
export const emailConfirmRequest = z.object({
  token: z.string().max(200).describe('Single-use token from the confirmation link'),
});

/** Answer of POST /account/email/confirm. */
export const emailChangedResponse = z.object({
  message: z.string().describe('Human-readable outcome'),
  email: z.string().describe('The address the account now signs in with'),
});
export type EmailChangedResponse = z.infer<typeof emailChangedResponse>;

/** The time zones Settings offers (SPEC §2). */
export const TIME_ZONES = ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Tokyo'] as const;
/** The date formats Settings offers: 2026-11-24, 24/11/2026, 11/24/2026 (12-hour clock), 24 Nov 2026. */
export const DATE_FORMAT_IDS = ['iso', 'dmy', 'mdy', 'long'] as const;

/** How the user's dates are written, as GET and PUT /account/preferences carry it. */
export const datePreferences = z.object({
  time_zone: z.enum(TIME_ZONES).describe('IANA time zone every date is shown in'),
  date_format: z.enum(DATE_FORMAT_IDS).describe('iso (YYYY-MM-DD), dmy (DD/MM/YYYY), mdy (MM/DD/YYYY) or long'),
});
export type DatePreferencesBody = z.infer<typeof datePreferences>;
