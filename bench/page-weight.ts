// Bytes (brotli, quality 11) of HTML, CSS and JavaScript loaded on the first view of every public page.
// Islands hydrated later (client:visible) are counted apart: they are not part of the first load.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { buildSite } from './lib/build-site.ts';

const JS_TARGET_BYTES = 15 * 1024;
const outDir = path.join(tmpdir(), `imageqc-bench-weight-${process.pid}`);

const brotli = (text: string | Buffer) =>
  brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const read = (urlPath: string) => readFileSync(path.join(outDir, urlPath.replace(/^\//, '')), 'utf8');

/** A JavaScript file and every module it imports statically, each counted once. */
function moduleGraph(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const code = read(entry);
  for (const match of code.matchAll(/(?:^|[;\s}])import\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+)["']/g)) {
    const target = match[1]!;
    if (target.startsWith('.') || target.startsWith('/'))
      moduleGraph(path.posix.resolve(path.posix.dirname(entry), target), seen);
  }
  return seen;
}

function weigh(file: string) {
  const html = read(file);
  const css = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);
  const inlineJs = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  const firstLoad = new Set<string>();
  for (const m of html.matchAll(/<script[^>]+src="([^"]+)"/g)) moduleGraph(m[1]!, firstLoad);
  const later = new Set<string>();
  for (const m of html.matchAll(/(?:component-url|renderer-url)="([^"]+)"/g)) moduleGraph(m[1]!, later);
  for (const f of firstLoad) later.delete(f);
  const js = brotli(inlineJs.join('\n')) + [...firstLoad].reduce((sum, f) => sum + brotli(read(f)), 0);
  return {
    html: brotli(html),
    css: css.reduce((sum, f) => sum + brotli(read(f)), 0),
    js,
    later: [...later].reduce((sum, f) => sum + brotli(read(f)), 0),
  };
}

buildSite(outDir);
try {
  const pages = readdirSync(outDir)
    .filter((name) => name.endsWith('.html') && !name.startsWith('dashboard') && !name.startsWith('dev-'))
    .sort();
  const kb = (n: number) => `${(n / 1024).toFixed(1).padStart(6)} kB`;
  console.log(`page-weight: ${'route'.padEnd(36)}  html (br)   css (br)    js (br)  on view (br)`);
  let worst = 0;
  for (const name of pages) {
    const route = name === 'index.html' ? '/' : `/${name.replace(/\.html$/, '')}`;
    const w = weigh(name);
    worst = Math.max(worst, w.js);
    console.log(`page-weight: ${route.padEnd(36)} ${kb(w.html)}  ${kb(w.css)}  ${kb(w.js)}  ${kb(w.later)}`);
  }
  const verdict = worst <= JS_TARGET_BYTES ? 'within' : 'OVER';
  console.log('page-weight: html includes its inline styles and scripts; js counts inline scripts too');
  console.log(`page-weight: largest first-load JavaScript ${kb(worst).trim()} (${verdict} the 15 kB target)`);
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
