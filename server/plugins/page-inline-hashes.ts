import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const INLINE_STYLE = /<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi;
/** Script types a browser runs (others, such as application/ld+json, are data CSP does not govern). */
const RUNNABLE = /^\s*$|^(?:module|text\/javascript|application\/javascript)$/i;

/** The CSP sources (`'sha256-…'`) of the inline scripts and styles of the built site's pages. */
export interface InlineHashes {
  scripts: string[];
  styles: string[];
}

const source = (body: string) => `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`;

/**
 * The hashes of every inline script and `<style>` element in the built site's pages, read once at start:
 * the pages are fixed files, so the policy can allow exactly their inline code and no other, without
 * `'unsafe-inline'`. Empty when the site is not built.
 */
export async function inlineHashes(distDir: string): Promise<InlineHashes> {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  if (!existsSync(distDir)) return { scripts: [], styles: [] };
  const entries = await readdir(distDir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const html = await readFile(path.join(entry.parentPath, entry.name), 'utf8');
    for (const [, attributes = '', body = ''] of html.matchAll(INLINE_SCRIPT)) {
      if (/\bsrc\s*=/i.test(attributes)) continue;
      const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1] ?? '';
      if (!RUNNABLE.test(type)) continue;
      scripts.add(source(body));
    }
    for (const [, body = ''] of html.matchAll(INLINE_STYLE)) styles.add(source(body));
  }
  return { scripts: [...scripts].sort(), styles: [...styles].sort() };
}
