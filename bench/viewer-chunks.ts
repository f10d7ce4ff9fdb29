// The viewers are separate chunks: this builds the site and prints (1) the dashboard's first-load
// JavaScript, proving it holds none of 3Dmol.js or NiiVue, and (2) the chunks each viewer loads when
// opened, raw and brotli. Run: npm run bench -- viewer
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { buildSite } from './lib/build-site.ts';

const outDir = path.join(tmpdir(), `imageqc-bench-viewers-${process.pid}`);
const read = (urlPath: string) => readFileSync(path.join(outDir, urlPath.replace(/^\//, '')), 'utf8');
const brotli = (text: string) => brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const kb = (n: number) => `${(n / 1024).toFixed(1).padStart(7)} kB`;
// Strings only the libraries' own code contains.
const markers = { '3Dmol.js': 'GLViewer', NiiVue: 'NVImage' };

const staticImports = (code: string) =>
  [...code.matchAll(/(?:^|[;\s}])import\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+)["']/g)].map((m) => m[1]!);
const dynamicImports = (code: string) => [...code.matchAll(/import\(\s*[`"'](\.[^`"']+)[`"']\s*\)/g)].map((m) => m[1]!);

/** A module and everything it imports statically, each once. */
function closure(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  for (const target of staticImports(read(entry))) {
    if (target.startsWith('.') || target.startsWith('/'))
      closure(path.posix.resolve(path.posix.dirname(entry), target), seen);
  }
  return seen;
}

/** What a page loads before any interaction: its scripts and its client:only island with the renderer. */
function firstLoad(page: string): Set<string> {
  const html = read(page);
  const seen = new Set<string>();
  for (const m of html.matchAll(/(?:<script[^>]+src|component-url|renderer-url)="([^"]+)"/g)) closure(m[1]!, seen);
  return seen;
}

/**
 * The chunks a viewer fetches when it opens: its own chunk, what that imports statically, and the
 * libraries it imports lazily itself; beyond what the page already holds. Chunks the libraries import
 * lazily in turn (NiiVue's Zarr codecs) come apart: they load only for the files that need them.
 */
function viewerChunks(entry: string, loaded: Set<string>) {
  const own = new Set<string>();
  const libraries = dynamicImports(read(entry)).map((t) => path.posix.resolve(path.posix.dirname(entry), t));
  for (const start of [entry, ...libraries]) for (const file of closure(start)) if (!loaded.has(file)) own.add(file);
  const onDemand = new Set<string>();
  for (const file of own) {
    if (file === entry) continue;
    for (const t of dynamicImports(read(file))) {
      for (const lazy of closure(path.posix.resolve(path.posix.dirname(file), t))) {
        if (!own.has(lazy) && !loaded.has(lazy)) onDemand.add(lazy);
      }
    }
  }
  return { own: [...own], onDemand: [...onDemand] };
}

buildSite(outDir);
try {
  const pages = [
    '/dashboard.html',
    ...readdirSync(path.join(outDir, 'dashboard'))
      .filter((f) => f.endsWith('.html'))
      .map((f) => `/dashboard/${f}`),
  ];
  for (const page of pages) {
    const files = firstLoad(page);
    const bytes = [...files].reduce((sum, f) => sum + brotli(read(f)), 0);
    const leaks = Object.entries(markers).filter(([, marker]) => [...files].some((f) => read(f).includes(marker)));
    const verdict = leaks.length ? `CONTAINS ${leaks.map(([name]) => name).join(', ')}` : 'no 3Dmol.js, no NiiVue';
    console.log(
      `viewer-chunks: first load ${page.padEnd(30)} ${kb(bytes)} br in ${String(files.size).padStart(2)} files: ${verdict}`,
    );
  }
  const dashboard = firstLoad('/dashboard/images.html');
  const lazyEntries = [...dashboard].flatMap((f) =>
    dynamicImports(read(f)).map((target) => path.posix.resolve(path.posix.dirname(f), target)),
  );
  for (const name of ['ModelViewerPage', 'VolumeViewer']) {
    const entry = lazyEntries.find((f) => path.posix.basename(f).startsWith(`${name}.`));
    if (!entry) throw new Error(`no lazy chunk for ${name}`);
    const { own, onDemand } = viewerChunks(entry, dashboard);
    let raw = 0;
    let br = 0;
    for (const file of own) {
      const code = read(file);
      raw += code.length;
      br += brotli(code);
      console.log(
        `viewer-chunks:   ${name.padEnd(16)} ${path.posix.basename(file).padEnd(34)} ${kb(code.length)} raw ${kb(brotli(code))} br`,
      );
    }
    console.log(
      `viewer-chunks: ${name} with the libraries it imports lazily, ${own.length} chunks: ${kb(raw).trim()} raw, ${kb(br).trim()} br`,
    );
    for (const file of onDemand) {
      const code = read(file);
      console.log(
        `viewer-chunks:   only if a file needs it: ${path.posix.basename(file).padEnd(30)} ${kb(code.length)} raw ${kb(brotli(code))} br`,
      );
    }
  }
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
