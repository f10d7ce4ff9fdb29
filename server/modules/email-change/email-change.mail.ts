import { brand } from '../../../contract/brand.ts';
import type { MailMessage } from '../../mail/mailer.ts';

const signature = ['', `— The ${brand.name} team`, brand.email];

/** The link, sent to the new address, that changes the account's address when opened (24 hours, once). */
export function confirmEmailChangeMail(to: string, name: string, siteUrl: string, token: string): MailMessage {
  const link = `${siteUrl}/dashboard/settings?email_token=${encodeURIComponent(token)}`;
  return {
    to,
    subject: `Confirm your new ${brand.name} e-mail address`,
    text: [
      `Hello ${name},`,
      '',
      `You asked to sign in to ${brand.name} with this address from now on. Open this link to confirm it`,
      '(you may be asked to sign in first, with your current address):',
      '',
      link,
      '',
      'The link works for 24 hours and only once. Until you open it, your account keeps its current address.',
      'If you did not ask for this, ignore this message.',
      ...signature,
    ].join('\n'),
  };
}

/** The notice to the old address once the change is done, so a takeover does not go unseen. */
export function emailChangedNotice(to: string, name: string, newEmail: string): MailMessage {
  return {
    to,
    subject: `Your ${brand.name} e-mail address was changed`,
    text: [
      `Hello ${name},`,
      '',
      `The e-mail address of your ${brand.name} account was changed to ${newEmail}.`,
      'You will sign in with the new address from now on; this address will get no more mail about the account.',
      '',
      `If you did not make this change, write to us at once at ${brand.email}: we will restore your address.`,
      ...signature,
    ].join('\n'),
  };
}

/**
 * The notice to an address that already signs in to an account when someone asks to move another account
 * to it: its owner learns of it, the asker learns nothing (their answer is the one a free address gets).
 */
export function addressInUseNotice(to: string, name: string): MailMessage {
  return {
    to,
    subject: `Someone asked to use your ${brand.name} e-mail address`,
    text: [
      `Hello ${name},`,
      '',
      `Someone signed in to another ${brand.name} account asked to change its address to this one. This address`,
      'already belongs to your account, so nothing was changed and you need do nothing.',
      '',
      `If this keeps happening, write to us at ${brand.email}.`,
      ...signature,
    ].join('\n'),
  };
}
