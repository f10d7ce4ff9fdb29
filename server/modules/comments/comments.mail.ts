import { brand } from '../../../contract/brand.ts';
import type { MailMessage } from '../../mail/mailer.ts';

// Long comments are cut in the mail: the whole one is in the product, behind sign-in.
const QUOTE_MAX = 1000;

/** The notice to a workspace member that someone mentioned them in a comment on an image. */
export function mentionMail(fields: {
  to: string;
  authorName: string;
  workspaceName: string;
  imageName: string;
  text: string;
  siteUrl: string;
}): MailMessage {
  const quote = fields.text.length > QUOTE_MAX ? `${fields.text.slice(0, QUOTE_MAX)}…` : fields.text;
  return {
    to: fields.to,
    subject: `${fields.authorName} mentioned you in a comment on ${fields.imageName}`,
    text: [
      'Hello,',
      '',
      `${fields.authorName} mentioned you in a comment on the image "${fields.imageName}" in the workspace "${fields.workspaceName}":`,
      '',
      ...quote.split('\n').map((line) => `> ${line}`),
      '',
      `To read and answer it, sign in, choose the workspace "${fields.workspaceName}", open My Images and select Details on that image:`,
      `${fields.siteUrl}/dashboard/images`,
      '',
      `You get this mail because you are a member of that workspace on ${brand.name}.`,
      '',
      `— The ${brand.name} team`,
      brand.email,
    ].join('\n'),
  };
}
