import { brand } from '../../../contract/brand.ts';
import type { MailMessage } from '../../mail/mailer.ts';

// Long comments are cut in the mail: the whole one is in the product, behind sign-in.
const QUOTE_MAX = 1000;

/** The address that opens one image's details and comments in My Images, in its workspace. */
export function imageLink(siteUrl: string, workspaceId: string, storedFilename: string): string {
  const query = new URLSearchParams({ workspace: workspaceId, image: storedFilename });
  return `${siteUrl}/dashboard/images?${query.toString()}`;
}

function quoted(text: string): string[] {
  const quote = text.length > QUOTE_MAX ? `${text.slice(0, QUOTE_MAX)}…` : text;
  return quote.split('\n').map((line) => `> ${line}`);
}

/** The notice to a workspace member that someone mentioned them in a comment on an image. */
export function mentionMail(fields: {
  to: string;
  authorName: string;
  workspaceName: string;
  imageName: string;
  text: string;
  /** Where the image opens, from imageLink. */
  link: string;
}): MailMessage {
  return {
    to: fields.to,
    subject: `${fields.authorName} mentioned you in a comment on ${fields.imageName}`,
    text: [
      'Hello,',
      '',
      `${fields.authorName} mentioned you in a comment on the image "${fields.imageName}" in the workspace "${fields.workspaceName}":`,
      '',
      ...quoted(fields.text),
      '',
      'To read and answer it, open the image (you may be asked to sign in first):',
      fields.link,
      '',
      `You get this mail because you are a member of that workspace on ${brand.name}.`,
      '',
      `— The ${brand.name} team`,
      brand.email,
    ].join('\n'),
  };
}

/** The notice to the author of a thread's first comment that someone replied to it. */
export function replyMail(fields: {
  to: string;
  authorName: string;
  workspaceName: string;
  imageName: string;
  text: string;
  link: string;
}): MailMessage {
  return {
    to: fields.to,
    subject: `${fields.authorName} replied to your comment on ${fields.imageName}`,
    text: [
      'Hello,',
      '',
      `${fields.authorName} replied to your comment on the image "${fields.imageName}" in the workspace "${fields.workspaceName}":`,
      '',
      ...quoted(fields.text),
      '',
      'To read the thread and answer, open the image (you may be asked to sign in first):',
      fields.link,
      '',
      `You get this mail because you started that thread on ${brand.name}.`,
      '',
      `— The ${brand.name} team`,
      brand.email,
    ].join('\n'),
  };
}
