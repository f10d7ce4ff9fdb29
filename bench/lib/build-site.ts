import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * Builds the site into `outDir` with `astro build` on the Node running this script (Node 24 under
 * `npm run bench`), so a benchmark never reads a dist/ another process is rewriting.
 */
export function buildSite(outDir: string, env: Record<string, string> = {}): void {
  const astro = path.resolve('node_modules/astro/bin/astro.mjs');
  const result = spawnSync(process.execPath, [astro, 'build', '--outDir', outDir], {
    env: { ...process.env, DIST_DIR: outDir, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`astro build into ${outDir} failed`);
}
