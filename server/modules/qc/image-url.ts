import type { GenerateMessagesRequest } from '../../../contract/qc.ts';
import { badRequest } from '../../http-errors.ts';

/** The refusal for any image URL that is not one of the caller's uploads on this server. */
export const FOREIGN_URL = 'Only images you uploaded here can be checked: send the url of one of your uploads.';

const uploadPath = /^\/api\/v1\/uploads\/([A-Za-z0-9][A-Za-z0-9._-]{0,250})(?:\/preview\.png)?$/;

/** Every image_url of the chat messages. */
export function imageUrlsOf(body: GenerateMessagesRequest): string[] {
  return body.messages
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .flatMap((p) => (p.type === 'image_url' ? [p.image_url.url] : []));
}

/**
 * The stored filename an image URL names, accepting only a path on this API (relative, or absolute on
 * one of `ownOrigins`). Anything else (another host, a data: or file: URL, a path outside the uploads) is
 * refused before any request is made, so the server can never be made to fetch an outside address.
 * @example storedFilenameOfUrl('/api/v1/uploads/ab.dcm', []) // 'ab.dcm'
 */
export function storedFilenameOfUrl(url: string, ownOrigins: string[]): string {
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://relative.invalid');
  } catch {
    throw badRequest(FOREIGN_URL);
  }
  const relative = parsed.origin === 'http://relative.invalid' && url.startsWith('/') && !url.startsWith('//');
  if (!relative && !ownOrigins.includes(parsed.origin)) throw badRequest(FOREIGN_URL);
  if (parsed.search || parsed.hash || parsed.username || parsed.password) throw badRequest(FOREIGN_URL);
  const match = uploadPath.exec(parsed.pathname);
  if (!match || match[1]!.includes('..')) throw badRequest(FOREIGN_URL);
  return match[1]!;
}
