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

/** What a comment notice is built from: who gets it, who wrote what, where, and where the image opens. */
interface CommentNotice {
  to: string;
  authorName: string;
  workspaceName: string;
  imageName: string;
  text: string;
  /** Where the image opens, from imageLink. */
  link: string;
}

/** A comment notice: the sentences that differ between mentions and replies around one quoted comment. */
function commentNoticeMail(fields: CommentNotice, words: { what: string; open: string; why: string }): MailMessage {
  return {
    to: fields.to,
    subject: `${fields.authorName} ${words.what} ${fields.imageName}`,
    text: [
      'Hello,',
      '',
      `${fields.authorName} ${words.what} the image "${fields.imageName}" in the workspace "${fields.workspaceName}":`,
      '',
      ...quoted(fields.text),
      '',
      `${words.open}, open the image (you may be asked to sign in first):`,
      fields.link,
      '',
      `You get this mail because you ${words.why} on ${brand.name}.`,
      '',
      `— The ${brand.name} team`,
      brand.email,
    ].join('\n'),
  };
}

/** The notice to a workspace member that someone mentioned them in a comment on an image. */
export function mentionMail(fields: CommentNotice): MailMessage {
  return commentNoticeMail(fields, {
    what: 'mentioned you in a comment on',
    open: 'To read and answer it',
    why: 'are a member of that workspace',
  });
}

/** The notice to the author of a thread's first comment that someone replied to it. */
export function replyMail(fields: CommentNotice): MailMessage {
  return commentNoticeMail(fields, {
    what: 'replied to your comment on',
    open: 'To read the thread and answer',
    why: 'started that thread',
  });
}
