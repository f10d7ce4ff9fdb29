import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { isApiPath } from './api-path.ts';
import { inlineHashes, type InlineHashes } from './page-inline-hashes.ts';

type HelmetOptions = NonNullable<Parameters<FastifyReply['helmet']>[0]>;

/**
 * The pages' policy. Scripts: the site's own files, WebAssembly compilation (the decoders and WebGL
 * viewers), and the inline scripts of the built pages by their hashes; no other inline script runs.
 * Styles: the site's own files and the pages' inline `<style>` elements by their hashes; no style
 * attribute in markup applies (React's style props and the viewers set styles through the CSSOM, which
 * CSP does not govern).
 */
const pageDirectives = ({ scripts, styles }: InlineHashes) => ({
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'script-src': ["'self'", "'wasm-unsafe-eval'", ...scripts],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", ...styles],
  'img-src': ["'self'", 'data:', 'blob:'],
  'connect-src': ["'self'", 'blob:', 'data:'],
  'worker-src': ["'self'", 'blob:'],
  'font-src': ["'self'", 'data:'],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'form-action': ["'self'", 'mailto:'],
});

/** Powerful browser features the product never uses, switched off for every answer and any frame (helmet has no option for it). */
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

/** Helmet's defaults for pages, except: the page-view beacon records the referring page, frames are denied. */
const pageOptions = (hashes: InlineHashes) =>
  ({
    contentSecurityPolicy: { useDefaults: false, directives: pageDirectives(hashes) },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
    // Set per request below: only answers over HTTPS may carry it.
    strictTransportSecurity: false,
    // Headers for browsers no longer supported (IE8's download prompt, the removed XSS auditor).
    xDownloadOptions: false,
    xXssProtection: false,
  }) satisfies HelmetOptions;

/** The OWASP set for JSON answers: nothing in them may run, be framed or be sniffed as another type. */
const apiOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] },
  },
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xPermittedCrossDomainPolicies: false,
} satisfies HelmetOptions;

/**
 * Security headers on every answer through @fastify/helmet: the short API set for the API (judged on the
 * decoded path, as the router matches it), the page set with the built pages' inline hashes everywhere
 * else. HSTS goes on answers over HTTPS (the socket's, or a trusted proxy's X-Forwarded-Proto) unless
 * HSTS_MAX_AGE is 0.
 */
export default fp(async function securityHeaders(app: FastifyInstance) {
  const maxAge = app.config.hstsMaxAge;
  await app.register(helmet, { global: false, ...pageOptions(await inlineHashes(app.config.distDir)) });
  app.addHook('onRequest', async (request, reply) => {
    const https = maxAge > 0 && request.protocol === 'https';
    const hsts = https ? { maxAge, includeSubDomains: true } : false;
    await reply.helmet(
      isApiPath(request.url)
        ? { ...apiOptions, strictTransportSecurity: hsts }
        : https
          ? { strictTransportSecurity: hsts }
          : undefined,
    );
    reply.header('permissions-policy', PERMISSIONS_POLICY);
  });
});
