import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  authMessages,
  forgotPasswordRequest,
  isPasswordAcceptable,
  messageResponse,
  normalizeEmail,
  resetPasswordRequest,
  validateResetRequest,
} from '../../../contract/auth.ts';
import { errorResponse } from '../../../contract/errors.ts';
import { badRequest } from '../../http-errors.ts';
import type { AuthContext } from './auth.context.ts';
import { resetMail } from './auth.mail.ts';
import { isLive } from './auth-tokens.repository.ts';
import { hashPassword } from './passwords.ts';

const answers = { 200: messageResponse, 400: errorResponse, 429: errorResponse };

/** POST /auth/forgot-password, /auth/validate-reset-token and /auth/reset-password. */
export function passwordRoutes(app: FastifyInstance, auth: AuthContext): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  /** The user and stored token a reset link stands for, or the invalid-link error. */
  async function resetTarget(token: string, rawEmail: string) {
    const stored = await auth.tokens.find(token, 'reset');
    const user = stored ? await auth.users.findById(stored.userId) : undefined;
    // A token is bound to its address: a leaked token alone, or with another address, does nothing.
    if (!stored || !user || user.email !== normalizeEmail(rawEmail) || !isLive(stored, app.clock())) {
      throw badRequest(authMessages.invalidResetToken);
    }
    return { stored, user };
  }

  routes.post(
    '/auth/forgot-password',
    { schema: { body: forgotPasswordRequest, response: answers } },
    async (request) => {
      await auth.limits.checkMail(request);
      const email = normalizeEmail(request.body.email);
      // Looked up, issued and mailed after the answer, which therefore takes the same time for any address.
      auth.afterAnswer(request, 'password reset', async () => {
        const user = email ? await auth.users.findByEmail(email) : undefined;
        if (!user) return auth.record(request, 'auth.reset_requested', null, { known: false });
        const token = await auth.tokens.issue(user.id, 'reset', app.clock());
        await app.mailer.send(resetMail(user.email, user.name, auth.siteUrl, token));
        await auth.record(request, 'auth.reset_requested', user.id);
      });
      return { message: authMessages.resetLinkSent };
    },
  );

  routes.post(
    '/auth/validate-reset-token',
    { schema: { body: validateResetRequest, response: answers } },
    async (request) => {
      await auth.limits.checkToken(request);
      await resetTarget(request.body.token, request.body.email);
      return { message: authMessages.resetTokenValid };
    },
  );

  routes.post(
    '/auth/reset-password',
    { schema: { body: resetPasswordRequest, response: answers } },
    async (request) => {
      await auth.limits.checkToken(request);
      const { stored, user } = await resetTarget(request.body.token, request.body.email);
      if (!isPasswordAcceptable(request.body.password)) throw badRequest(authMessages.weakPassword);
      const passwordHash = await hashPassword(request.body.password);
      const now = app.clock();
      // Consumed first: of two requests racing with one link, only one sets a password.
      if (!(await auth.tokens.consume(stored.id, now))) throw badRequest(authMessages.invalidResetToken);
      await auth.users.setPassword(user, passwordHash, now);
      await auth.tokens.consumeAllOf(user.id, 'reset', now);
      // Whoever knew the old password is signed out everywhere.
      await app.sessions.revokeAllOf(user.id, now);
      await auth.record(request, 'auth.password_reset', user.id);
      return { message: authMessages.resetDone };
    },
  );
}
