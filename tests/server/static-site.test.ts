import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

const INLINE = "document.documentElement.dataset.theme = 'light';";
const INLINE_STYLE = '.careers[data-astro-cid-1]{margin:0}';

async function writeSite(dist: string) {
  const page = (title: string) => `<!doctype html><title>${title}</title><h1>${title}</h1>${' '.repeat(600)}`;
  await mkdir(path.join(dist, '_astro'), { recursive: true });
  await mkdir(path.join(dist, 'dashboard'), { recursive: true });
  await writeFile(path.join(dist, 'index.html'), page('Home'));
  await writeFile(path.join(dist, 'index.html.br'), brotliCompressSync(page('Home')));
  await writeFile(
    path.join(dist, 'careers.html'),
    `${page('Careers')}<style>${INLINE_STYLE}</style><script>${INLINE}</script><script type="application/ld+json">{}</script>`,
  );
  await writeFile(path.join(dist, '404.html'), page('Page not found'));
  await writeFile(path.join(dist, 'dashboard.html'), page('Dashboard'));
  await writeFile(path.join(dist, 'dashboard', 'images.html'), page('My Images'));
  await writeFile(path.join(dist, '_astro', 'app.3f2a1b.js'), 'console.log(1)');
}

describe('the static site served by the API server', () => {
  let t: TestApp;
  const dist = path.join(tmpdir(), `imageqc-dist-${process.pid}-${Date.now()}`);
  beforeAll(async () => {
    await writeSite(dist);
    t = await createTestApp({ DIST_DIR: dist });
  });
  afterAll(async () => {
    await t.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('serves a page at its route with no-cache', async () => {
    const res = await t.app.inject({ url: '/careers' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<h1>Careers</h1>');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it("allows the pages' inline scripts by hash, and no other inline script", async () => {
    const res = await t.app.inject({ url: '/careers' });
    const scripts = String(res.headers['content-security-policy'])
      .split(';')
      .find((directive) => directive.startsWith('script-src '))!;
    const hash = createHash('sha256').update(INLINE).digest('base64');
    expect(scripts.split(' ')).toContain(`'sha256-${hash}'`);
    expect(scripts).not.toContain('unsafe-inline');
    // The JSON data block is not a script: it needs no hash.
    expect(scripts.match(/'sha256-/g)).toHaveLength(1);
  });

  it("allows the pages' inline style elements by hash, and no other inline style", async () => {
    const res = await t.app.inject({ url: '/careers' });
    const styles = String(res.headers['content-security-policy'])
      .split(';')
      .find((directive) => directive.startsWith('style-src '))!;
    const hash = createHash('sha256').update(INLINE_STYLE).digest('base64');
    expect(styles.split(' ')).toEqual(['style-src', "'self'", `'sha256-${hash}'`]);
  });

  it('serves hashed assets as immutable', async () => {
    const res = await t.app.inject({ url: '/_astro/app.3f2a1b.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves the brotli file when the browser accepts it', async () => {
    const res = await t.app.inject({ url: '/', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
  });

  it('serves each known dashboard route its own page', async () => {
    const res = await t.app.inject({ url: '/dashboard/images' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('My Images');
  });

  it('answers an unknown dashboard route with the dashboard shell and 404', async () => {
    const res = await t.app.inject({ url: '/dashboard/nowhere' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('<h1>Dashboard</h1>');
  });

  it('answers any other unknown path with the 404 page', async () => {
    const res = await t.app.inject({ url: '/nowhere/../../etc/passwd' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('Page not found');
  });

  it('answers unknown API paths with JSON, not the page', async () => {
    const res = await t.app.inject({ url: '/api/v1/nowhere' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found' });
  });
});
