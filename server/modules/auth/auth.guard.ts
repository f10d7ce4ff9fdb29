import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { unauthorized } from '../../http-errors.ts';
import { createSessionsRepository, type SessionsRepository, type SessionUser } from './sessions.repository.ts';

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionsRepository;
    /** preHandler: 401 unless the request carries a live bearer token; sets request.user. */
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    user: SessionUser | undefined;
  }
}

/** Reads `Authorization: Bearer …`; undefined when absent or malformed. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header?.match(/^Bearer\s+([A-Za-z0-9_-]{20,128})$/);
  return match?.[1];
}

/** The bearer-token guard and the sessions repository, shared by every module. */
export default fp(async function authGuard(app: FastifyInstance) {
  const hour = 3_600_000;
  app.decorate(
    'sessions',
    createSessionsRepository({
      db: app.db,
      policy: { idleMs: app.config.sessionIdleHours * hour, maxMs: app.config.sessionMaxDays * 24 * hour },
    }),
  );
  app.decorateRequest('user', undefined);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) throw unauthorized();
    const user = await app.sessions.resolve(token, app.clock());
    if (!user) throw unauthorized();
    request.user = user;
  });
});

/** The signed-in user of a route guarded by `app.authenticate`. */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
