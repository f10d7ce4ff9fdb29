import { brand } from '../../../contract/brand.ts';
import type { MailMessage } from '../../mail/mailer.ts';

const signature = ['', `— The ${brand.name} team`, brand.email];

/** The link that verifies a new account's address, valid 24 hours. */
export function verificationMail(to: string, name: string, siteUrl: string, token: string): MailMessage {
  const link = `${siteUrl}/verify-email?token=${encodeURIComponent(token)}`;
  return {
    to,
    subject: `Verify your ${brand.name} e-mail address`,
    text: [
      `Hello ${name},`,
      '',
      `Welcome to ${brand.name}. Open this link to verify your e-mail address and activate your account:`,
      '',
      link,
      '',
      'The link works for 24 hours. If you did not create an account, ignore this message.',
      ...signature,
    ].join('\n'),
  };
}

/**
 * Sent instead of a second account when someone registers an address that already has one; an unverified
 * owner also gets a fresh verification link, since a lost first mail is the usual reason.
 */
export function alreadyRegisteredMail(
  to: string,
  name: string,
  siteUrl: string,
  freshVerifyToken: string | undefined,
): MailMessage {
  const verify = freshVerifyToken
    ? [
        'Your account is not verified yet. Open this link to verify it (it works for 24 hours):',
        '',
        `${siteUrl}/verify-email?token=${encodeURIComponent(freshVerifyToken)}`,
        '',
      ]
    : [`If it was you, sign in at ${siteUrl}/login, or reset your password from there.`, ''];
  return {
    to,
    subject: `Someone tried to register with your ${brand.name} address`,
    text: [
      `Hello ${name},`,
      '',
      `Someone just tried to create a ${brand.name} account with this e-mail address, which already has one.`,
      'No new account was created.',
      '',
      ...verify,
      'If it was not you, you can ignore this message: your account is unchanged.',
      ...signature,
    ].join('\n'),
  };
}

/** The password reset link, valid 30 minutes; the address travels URL-encoded beside the token. */
export function resetMail(to: string, name: string, siteUrl: string, token: string): MailMessage {
  const link = `${siteUrl}/reset-password?token=${encodeURIComponent(token)}&email=${encodeURIComponent(to)}`;
  return {
    to,
    subject: `Reset your ${brand.name} password`,
    text: [
      `Hello ${name},`,
      '',
      'Someone (hopefully you) asked to reset the password of your account. Open this link to choose a new one:',
      '',
      link,
      '',
      'The link works for 30 minutes and only once. If you did not ask, ignore this message: your password is unchanged.',
      ...signature,
    ].join('\n'),
  };
}
