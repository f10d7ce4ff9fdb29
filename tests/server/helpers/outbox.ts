import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** One message written to DATA_DIR/outbox, decoded enough to read its text and links. */
export interface OutboxMessage {
  to: string;
  subject: string;
  text: string;
  links: string[];
}

function decodeQuotedPrintable(body: string): string {
  return body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Every message in the outbox, oldest first. */
export async function readOutbox(dataDir: string): Promise<OutboxMessage[]> {
  const folder = path.join(dataDir, 'outbox');
  let names: string[];
  try {
    names = (await readdir(folder)).filter((n) => n.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  const messages: OutboxMessage[] = [];
  for (const name of names) {
    const raw = await readFile(path.join(folder, name), 'utf8');
    const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
    const header = (key: string) => head.match(new RegExp(`^${key}: (.*)$`, 'mi'))?.[1]?.trim() ?? '';
    const text = decodeQuotedPrintable(rest.join('\n\n'));
    messages.push({
      to: header('To'),
      subject: header('Subject'),
      text,
      links: [...new Set(text.match(/https?:\/\/[^\s<>"]+/g) ?? [])],
    });
  }
  return messages;
}
