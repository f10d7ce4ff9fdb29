import { brand } from '../../../contract/brand.ts';
import type { MailMessage } from '../../mail/mailer.ts';

/** The invitation to a team workspace: a link that works once, for seven days, for this address only. */
export function inviteMail(fields: {
  to: string;
  inviterName: string;
  workspaceName: string;
  role: string;
  siteUrl: string;
  token: string;
}): MailMessage {
  const link = `${fields.siteUrl}/dashboard/workspace?invite=${encodeURIComponent(fields.token)}`;
  return {
    to: fields.to,
    subject: `${fields.inviterName} invited you to ${fields.workspaceName} on ${brand.name}`,
    text: [
      'Hello,',
      '',
      `${fields.inviterName} invited you to join the workspace "${fields.workspaceName}" on ${brand.name} as ${fields.role}.`,
      'Open this link to join:',
      '',
      link,
      '',
      `No account yet? The link takes you to sign in: choose "Create one" there and register with ${fields.to},`,
      'verify your address from the mail we send, sign in, and you come back to this invitation.',
      '',
      'The link works once, for 7 days, and only for this e-mail address. If you did not expect it, ignore this message.',
      '',
      `— The ${brand.name} team`,
      brand.email,
    ].join('\n'),
  };
}
