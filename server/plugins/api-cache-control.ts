import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { isApiPath, requestPath } from './api-path.ts';

/**
 * API answers are not stored by any cache unless a route says otherwise, and never when the request
 * carries a token or signs in: a shared cache must not keep one person's data for the next.
 */
export default fp(async function apiCacheControl(app: FastifyInstance) {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!isApiPath(request.url)) return done(null, payload);
    const private_ =
      request.headers.authorization !== undefined || requestPath(request.url).startsWith('/api/v1/auth/');
    if (private_ || !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
});
