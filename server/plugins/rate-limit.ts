import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** The size and window of a counter: `max` hits per `timeWindow` milliseconds. */
export interface CounterLimit {
  max: number;
  timeWindow: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * A named fixed-window counter that increments atomically (in Redis with REDIS_URL, in process
     * otherwise), and can also be refunded and cleared: what a route needs when it must count an attempt
     * before doing the costly work, then take the hit back when the attempt turned out legitimate.
     */
    createCounter(name: string, limit: CounterLimit): RateLimiterAbstract;
  }
}

/**
 * Registers @fastify/rate-limit without a global limit (routes opt in with `config.rateLimit`) and the
 * `createCounter` decorator. Counters live in Redis when REDIS_URL is set, so replicas share them.
 */
export default fp(async function rateLimitPlugin(app: FastifyInstance) {
  const redis = app.config.redisUrl
    ? new Redis(app.config.redisUrl, { maxRetriesPerRequest: 1, lazyConnect: false })
    : undefined;
  // ioredis reconnects by itself; without a listener each failed attempt is printed as unhandled.
  redis?.on('error', (error: Error) => app.log.warn({ err: error }, 'rate-limit store (Redis) unreachable'));
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'imageqc-rl-' } : {}),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      detail: `Too many requests. Try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
      message: `Too many requests. Try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
    }),
  });

  app.decorate('createCounter', (name: string, limit: CounterLimit): RateLimiterAbstract => {
    const options = { keyPrefix: `imageqc-${name}`, points: limit.max, duration: Math.ceil(limit.timeWindow / 1000) };
    if (!redis) return new RateLimiterMemory(options);
    // While Redis cannot be reached, this process's counters stand in at once, rather than every sign-in
    // waiting on a queued command (or failing, or going uncounted).
    return new RateLimiterRedis({
      ...options,
      storeClient: redis,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory(options),
    });
  });
  if (redis) {
    // A Redis that never answered cannot take a polite QUIT: the connection is then just dropped.
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  }
});
