import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const sourceRoots = ['src', 'public', 'contract', 'astro.config.mjs', 'package.json'];

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const info = statSync(entry);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const name of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

/** Where the site is built: DIST_DIR, as the server reads it, else dist/. */
const outDir = process.env.DIST_DIR ?? 'dist';

/** Whether the built site is missing or older than any source of the site. */
export function siteIsStale(): boolean {
  const marker = path.join(outDir, 'index.html');
  if (!existsSync(marker)) return true;
  const built = statSync(marker).mtimeMs;
  return sourceRoots.some((root) => newestMtime(root) > built);
}

/** Runs `astro build` when the site is stale; exits the process if the build fails. */
export function buildSiteIfStale(): void {
  if (!siteIsStale()) return;
  console.log(`Building the site (${outDir}/ is missing or older than the sources)…`);
  const result = spawnSync('npx', ['astro', 'build', '--outDir', outDir], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
