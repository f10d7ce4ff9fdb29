import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authMessages, loginRequest, loginResponse, messageResponse, normalizeEmail } from '../../../contract/auth.ts';
import { errorResponse } from '../../../contract/errors.ts';
import { forbidden, unauthorized } from '../../http-errors.ts';
import { currentUser } from '../../plugins/auth-guard.ts';
import type { AuthContext } from './auth.context.ts';

/** POST /auth/login and POST /auth/logout. */
export function sessionRoutes(app: FastifyInstance, auth: AuthContext): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/auth/login',
    {
      schema: {
        body: loginRequest,
        response: { 200: loginResponse, 401: errorResponse, 403: errorResponse, 429: errorResponse },
      },
    },
    async (request) => {
      await auth.limits.checkSignIn(request);
      const email = normalizeEmail(request.body.email);
      const user = email ? await auth.users.findByEmail(email) : undefined;
      // Unknown e-mails still pay for one hash check, so the answer time does not reveal which exist.
      if (!(await auth.passwordMatches(user?.passwordHash, request.body.password)) || !user) {
        await auth.limits.countFailure(request);
        await auth.record(request, 'auth.login_failed', user?.id ?? null, { email, reason: 'credentials' });
        throw unauthorized(authMessages.invalidCredentials);
      }
      // Said only after a correct password, so it reveals nothing to someone guessing addresses.
      if (!user.emailVerifiedAt) {
        await auth.record(request, 'auth.login_failed', user.id, { reason: 'unverified' });
        throw forbidden(authMessages.emailNotVerified);
      }
      const token = await app.sessions.create(user.id, app.clock());
      await auth.record(request, 'auth.login', user.id);
      return {
        access_token: token,
        token_type: 'bearer' as const,
        user: { id: user.id, name: user.name, email: user.email },
        user_id: user.id,
        name: user.name,
        email: user.email,
        org_id: user.orgId,
      };
    },
  );

  routes.post(
    '/auth/logout',
    { preHandler: app.authenticate, schema: { response: { 200: messageResponse, 401: errorResponse } } },
    async (request) => {
      const user = currentUser(request);
      await app.sessions.revoke(user.sessionId, app.clock());
      await auth.record(request, 'auth.logout', user.id);
      return { message: authMessages.signedOut };
    },
  );
}
