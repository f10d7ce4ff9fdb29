import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const contentSecurityPolicy = [
  "default-src 'self'",
  "base-uri 'self'",
  // Astro inlines small hoisted scripts; WebAssembly decoders and WebGL viewers need wasm eval.
  "script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self' blob: data:",
  "worker-src 'self' blob:",
  "font-src 'self' data:",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "form-action 'self' mailto:",
].join(';');

/** The headers every answer carries; helmet's defaults, fixed once instead of rebuilt per request. */
export const securityHeaderValues: Readonly<Record<string, string>> = {
  'content-security-policy': contentSecurityPolicy,
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  // The page-view beacon records the referring page; other origins only ever see ours.
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
};

/** The OWASP set for JSON answers: nothing in them may run, be framed or be sniffed as another type. */
export const apiSecurityHeaderValues: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/**
 * Security headers on every answer: the short API set under /api/, the page set everywhere else. The values never change, so they are set from one frozen object:
 * @fastify/helmet rebuilt them on each request and halved the throughput of small API answers.
 */
export default fp(async function securityHeaders(app: FastifyInstance) {
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith('/api/') ? apiSecurityHeaderValues : securityHeaderValues);
    done();
  });
});
