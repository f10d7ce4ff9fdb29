// Lighthouse (mobile preset, Debian's Chromium) on /, /user-guide and /careers of a fresh build served
// by the real server; prints the four category scores of each page. Target: 100 everywhere.
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { buildSite } from './lib/build-site.ts';
import { startApiServer } from './lib/child-server.ts';

const routes = ['/', '/user-guide', '/careers'];
const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const port = Number(process.env.BENCH_LIGHTHOUSE_PORT ?? 18801);
const distDir = path.join(tmpdir(), `imageqc-bench-lighthouse-${process.pid}`);

buildSite(distDir, { PUBLIC_SITE_URL: `http://127.0.0.1:${port}` });
const server = await startApiServer(port, { DIST_DIR: distDir });
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
let below = 0;
try {
  for (const route of routes) {
    const result = await lighthouse(`${server.url}${route}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...categories],
    });
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`no Lighthouse result for ${route}`);
    const scores = categories.map((c) => Math.round((lhr.categories[c]?.score ?? 0) * 100));
    below += scores.filter((s) => s < 100).length;
    const line = categories.map((c, i) => `${c} ${scores[i]}`).join(', ');
    console.log(`lighthouse: ${route.padEnd(12)} ${line}`);
    for (const audit of Object.values(lhr.audits)) {
      if (audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== 'informative')
        if (categories.some((c) => lhr.categories[c]?.auditRefs.some((r) => r.id === audit.id && r.weight > 0)))
          console.log(`lighthouse:   ${route} loses on ${audit.id}: ${audit.displayValue ?? audit.title}`);
    }
  }
  console.log(`lighthouse: ${below === 0 ? 'all scores 100' : `${below} score(s) below 100`} (target: 100 for each)`);
} finally {
  await chrome.kill();
  await server.stop();
  rmSync(distDir, { recursive: true, force: true });
}
