import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';

/**
 * Registers @fastify/rate-limit without a global limit; routes opt in with `config.rateLimit`.
 * Counters live in Redis when REDIS_URL is set, so replicas share them; in process otherwise.
 */
export default fp(async function rateLimitPlugin(app: FastifyInstance) {
  const redis = app.config.redisUrl
    ? new Redis(app.config.redisUrl, { maxRetriesPerRequest: 1, lazyConnect: false })
    : undefined;
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'imageqc-rl-' } : {}),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      detail: `Too many requests. Try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
      message: `Too many requests. Try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
    }),
  });
  if (redis) app.addHook('onClose', async () => void redis.quit());
});
