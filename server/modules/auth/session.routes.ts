import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountMessages, loginMfaRequest, mfaChallengeResponse } from '../../../contract/account.ts';
import { authMessages, loginRequest, loginResponse, messageResponse, normalizeEmail } from '../../../contract/auth.ts';
import { errorResponse } from '../../../contract/errors.ts';
import { forbidden, unauthorized } from '../../http-errors.ts';
import { currentUser } from './auth.guard.ts';
import { createMfaRepository } from '../mfa/mfa.repository.ts';
import { checkSecondFactor } from '../mfa/second-factor.ts';
import type { AuthContext } from './auth.context.ts';
import { isLive } from './auth-tokens.repository.ts';
import type { UserRow } from './users.repository.ts';

/** POST /auth/login and POST /auth/logout. */
export function sessionRoutes(app: FastifyInstance, auth: AuthContext): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const mfa = createMfaRepository({ db: app.db, secretKey: app.config.mfaEncryptionKey });

  /** Starts a session for the user and answers as SPEC §3 describes the login response. */
  async function signedIn(user: UserRow) {
    const token = await app.sessions.create(user.id, app.clock());
    return {
      access_token: token,
      token_type: 'bearer' as const,
      user: { id: user.id, name: user.name, email: user.email },
      user_id: user.id,
      name: user.name,
      email: user.email,
      org_id: user.orgId,
    };
  }

  routes.post(
    '/auth/login',
    {
      schema: {
        body: loginRequest,
        response: {
          200: loginResponse.or(mfaChallengeResponse),
          401: errorResponse,
          403: errorResponse,
          429: errorResponse,
        },
      },
    },
    async (request) => {
      const email = normalizeEmail(request.body.email);
      const user = email ? await auth.users.findByEmail(email) : undefined;
      // Unknown e-mails still pay for one hash check, so the answer time does not reveal which exist.
      if (!(await auth.passwordAttempt(request, email, user?.passwordHash, request.body.password)) || !user) {
        await auth.record(request, 'auth.login_failed', user?.id ?? null, { email, reason: 'credentials' });
        throw unauthorized(authMessages.invalidCredentials);
      }
      // Said only after a correct password, so it reveals nothing to someone guessing addresses.
      if (!user.emailVerifiedAt) {
        await auth.record(request, 'auth.login_failed', user.id, { reason: 'unverified' });
        throw forbidden(authMessages.emailNotVerified);
      }
      // The password is right; an account with an authenticator gets a session only after its code.
      if (await mfa.isEnabled(user.id)) {
        const mfaToken = await auth.tokens.issue(user.id, 'mfa', app.clock());
        await auth.record(request, 'auth.mfa_challenge', user.id);
        return { mfa_required: true as const, mfa_token: mfaToken };
      }
      await auth.record(request, 'auth.login', user.id);
      return signedIn(user);
    },
  );

  routes.post(
    '/auth/login/mfa',
    {
      schema: {
        body: loginMfaRequest,
        response: { 200: loginResponse, 401: errorResponse, 429: errorResponse },
      },
    },
    async (request) => {
      await auth.limits.checkToken(request);
      const now = app.clock();
      const stored = await auth.tokens.find(request.body.mfa_token, 'mfa');
      const user = stored && isLive(stored, now) ? await auth.users.findById(stored.userId) : undefined;
      if (!stored || !user) throw unauthorized(accountMessages.signInExpired);
      const proof = await checkSecondFactor(request, auth, mfa, user.id, request.body.code, now);
      if (!proof) {
        await auth.record(request, 'auth.login_failed', user.id, { reason: 'mfa_code' });
        throw unauthorized(accountMessages.wrongCode);
      }
      // Used up only by a right code, so a typo can be corrected; of two racing requests only one signs in.
      if (!(await auth.tokens.consume(stored.id, now))) throw unauthorized(accountMessages.signInExpired);
      await auth.record(request, 'auth.login', user.id, { mfa: proof });
      return signedIn(user);
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
