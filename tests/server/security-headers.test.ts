import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

const INLINE = "document.documentElement.dataset.theme = 'dark';";
const sha = (body: string) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`;

const SECURITY_HEADERS = [
  'content-security-policy',
  'cross-origin-embedder-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'permissions-policy',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];
const PERMISSIONS =
  'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=(), browsing-topics=()';

const securityHeadersOf = (headers: Record<string, unknown>) =>
  Object.fromEntries(
    SECURITY_HEADERS.filter((name) => headers[name] !== undefined).map((name) => [name, headers[name]]),
  );

const API_HEADERS = {
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': PERMISSIONS,
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

describe('security headers', () => {
  let t: TestApp;
  const dist = path.join(tmpdir(), `imageqc-headers-${process.pid}-${Date.now()}`);
  beforeAll(async () => {
    await mkdir(dist, { recursive: true });
    await writeFile(path.join(dist, 'index.html'), `<!doctype html><title>Home</title><script>${INLINE}</script>`);
    await writeFile(path.join(dist, '404.html'), '<!doctype html><title>Page not found</title>');
    t = await createTestApp({ DIST_DIR: dist });
  });
  afterAll(async () => {
    await t.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('gives a page the page set, its inline script allowed by hash', async () => {
    const res = await t.app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(securityHeadersOf(res.headers)).toEqual({
      'content-security-policy': [
        "default-src 'self'",
        "base-uri 'self'",
        `script-src 'self' 'wasm-unsafe-eval' ${sha(INLINE)}`,
        "script-src-attr 'none'",
        "style-src 'self'",
        "img-src 'self' data: blob:",
        "connect-src 'self' blob: data:",
        "worker-src 'self' blob:",
        "font-src 'self' data:",
        "object-src 'none'",
        "frame-ancestors 'none'",
        "form-action 'self' mailto:",
      ].join(';'),
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'permissions-policy': PERMISSIONS,
      'referrer-policy': 'strict-origin-when-cross-origin',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-frame-options': 'DENY',
      'x-permitted-cross-domain-policies': 'none',
    });
  });

  it('gives an API answer the short JSON set and no-store', async () => {
    const res = await t.app.inject({ url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(securityHeadersOf(res.headers)).toEqual(API_HEADERS);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it("gives a percent-encoded path that routes to the API the API's headers, not the site's", async () => {
    const res = await t.app.inject({ url: '/%61pi/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(securityHeadersOf(res.headers)).toEqual(API_HEADERS);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers an unknown percent-encoded API path with JSON, not the 404 page', async () => {
    const res = await t.app.inject({ url: '/%61pi/v1/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found' });
    expect(securityHeadersOf(res.headers)).toEqual(API_HEADERS);
  });
});
