import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { inlineHashes, type InlineHashes } from './page-inline-hashes.ts';

/**
 * The pages' policy. Scripts: the site's own files, WebAssembly compilation (the decoders and WebGL
 * viewers), and the inline scripts of the built pages by their hashes; no other inline script runs.
 * Styles: the site's own files and the pages' inline `<style>` elements by their hashes; no style
 * attribute in markup applies (React's style props and the viewers set styles through the CSSOM, which
 * CSP does not govern).
 */
const contentSecurityPolicy = ({ scripts, styles }: InlineHashes) =>
  [
    "default-src 'self'",
    "base-uri 'self'",
    ["script-src 'self' 'wasm-unsafe-eval'", ...scripts].join(' '),
    "script-src-attr 'none'",
    ["style-src 'self'", ...styles].join(' '),
    "img-src 'self' data: blob:",
    "connect-src 'self' blob: data:",
    "worker-src 'self' blob:",
    "font-src 'self' data:",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "form-action 'self' mailto:",
  ].join(';');

/** Powerful browser features the product never uses, switched off for every page and any frame. */
const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'camera=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'payment=()',
  'usb=()',
  'browsing-topics=()',
].join(', ');

/** The headers every answer carries; helmet's defaults, fixed once instead of rebuilt per request. */
const pageHeaderValues: Readonly<Record<string, string>> = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  // The page-view beacon records the referring page; other origins only ever see ours.
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'permissions-policy': PERMISSIONS_POLICY,
};

/** The OWASP set for JSON answers: nothing in them may run, be framed or be sniffed as another type. */
const apiSecurityHeaderValues: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'permissions-policy': PERMISSIONS_POLICY,
};

/**
 * Security headers on every answer: the short API set under /api/, the page set everywhere else, fixed
 * objects set once per request. HSTS goes on answers over HTTPS (the socket's, or a trusted proxy's
 * X-Forwarded-Proto) unless HSTS_MAX_AGE is 0. API answers are not stored by any cache unless a route
 * says otherwise, and never when the request carries a token or signs in.
 */
export default fp(async function securityHeaders(app: FastifyInstance) {
  const hsts = app.config.hstsMaxAge > 0 ? `max-age=${app.config.hstsMaxAge}; includeSubDomains` : undefined;
  const pageHeaders = {
    ...pageHeaderValues,
    'content-security-policy': contentSecurityPolicy(await inlineHashes(app.config.distDir)),
  };
  app.addHook('onRequest', (request, reply, done) => {
    const api = request.url.startsWith('/api/');
    reply.headers(api ? apiSecurityHeaderValues : pageHeaders);
    if (hsts && request.protocol === 'https') reply.header('strict-transport-security', hsts);
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!request.url.startsWith('/api/')) return done(null, payload);
    const private_ = request.headers.authorization !== undefined || request.url.startsWith('/api/v1/auth/');
    if (private_ || !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
});
