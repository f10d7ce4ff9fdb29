import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * preHandler, after the workspace guard: 429 once the signed-in account has started UPLOAD_RATE_PER_MINUTE
     * uploads (single files and series together) in the last minute.
     */
    uploadRateLimit: preHandlerAsyncHookHandler;
  }
}

/**
 * The per-account upload rate limit of every upload door. One limiter shared by the routes, keyed by the user
 * rather than the address (a team behind one NAT uploads side by side); in Redis when REDIS_URL is set, so
 * every replica counts the same uploads.
 */
export default fp(async function uploadRateLimit(app: FastifyInstance) {
  const limiter = app.rateLimit({
    max: app.config.uploadRatePerMinute,
    timeWindow: '1 minute',
    keyGenerator: (request: FastifyRequest) => `upload:${request.user?.id ?? request.ip}`,
  });
  app.decorate('uploadRateLimit', limiter as preHandlerAsyncHookHandler);
});
