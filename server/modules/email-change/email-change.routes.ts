import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  accountMessages,
  emailChangedResponse,
  emailChangeRequest,
  emailConfirmRequest,
} from '../../../contract/account.ts';
import { isEmailAddress, messageResponse, normalizeEmail } from '../../../contract/auth.ts';
import { errorResponses } from '../../../contract/errors.ts';
import { badRequest, conflict, unauthorized } from '../../http-errors.ts';
import { currentUser } from '../auth/auth.guard.ts';
import type { AuthContext } from '../auth/auth.context.ts';
import { addressInUseNotice, confirmEmailChangeMail, emailChangedNotice } from './email-change.mail.ts';
import { createEmailChangeRepository } from './email-change.repository.ts';

/** POST /account/email (ask, with the password) and POST /account/email/confirm (the mailed link). */
export function emailChangeRoutes(app: FastifyInstance, auth: AuthContext): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const changes = createEmailChangeRepository({ db: app.db });
  const guarded = { preHandler: app.authenticate };

  routes.post(
    '/account/email',
    {
      ...guarded,
      schema: { body: emailChangeRequest, response: { 202: messageResponse, ...errorResponses(400, 401, 429) } },
    },
    async (request, reply) => {
      const user = await auth.users.findById(currentUser(request).id);
      if (!user) throw unauthorized();
      const email = normalizeEmail(request.body.email);
      if (!isEmailAddress(email)) throw badRequest('Enter a valid email address.');
      if (email === user.email) throw badRequest(accountMessages.emailUnchanged);
      // The password proves the person at the keyboard owns the account, not only a session left open; its
      // guesses count against the account's sign-in limits.
      if (!(await auth.passwordAttempt(request, user.email, user.passwordHash, request.body.password))) {
        await auth.record(request, 'auth.email_change_failed', user.id, { reason: 'password' });
        throw badRequest(accountMessages.wrongPassword);
      }
      // Counted per new address and per IP, like every other mail: no inbox can be flooded through this.
      await auth.limits.checkMail(request);
      // Whether another account has the address is settled after the answer, which is therefore the same,
      // in words and time, for a taken address and a free one: asking cannot tell who is registered.
      auth.afterAnswer(request, 'e-mail change', async () => {
        const owner = await auth.users.findByEmail(email);
        if (owner) return app.mailer.send(addressInUseNotice(owner.email, owner.name));
        const token = await changes.issue(user.id, email, app.clock());
        await app.mailer.send(confirmEmailChangeMail(email, user.name, auth.siteUrl, token));
      });
      await auth.record(request, 'auth.email_change_requested', user.id);
      return reply.code(202).send({ message: accountMessages.emailChangeSent });
    },
  );

  routes.post(
    '/account/email/confirm',
    {
      ...guarded,
      schema: {
        body: emailConfirmRequest,
        response: { 200: emailChangedResponse, ...errorResponses(400, 401, 409, 429) },
      },
    },
    async (request) => {
      await auth.limits.checkToken(request);
      const me = currentUser(request);
      const now = app.clock();
      const change = await changes.find(request.body.token);
      // Someone else's link answers like an unknown one: it is no use to the account signed in here.
      if (!change || change.userId !== me.id || change.usedAt || change.expiresAt.getTime() <= now.getTime()) {
        throw badRequest(accountMessages.invalidEmailLink);
      }
      const user = await auth.users.findById(me.id);
      if (!user) throw unauthorized();
      if (await auth.users.findByEmail(change.newEmail)) throw conflict(accountMessages.emailTaken);
      if (!(await changes.consume(change.id, now))) throw badRequest(accountMessages.invalidEmailLink);
      if (!(await auth.users.changeEmail(user.id, change.newEmail, now))) throw conflict(accountMessages.emailTaken);
      auth.sendLater(request, emailChangedNotice(user.email, user.name, change.newEmail));
      await auth.record(request, 'auth.email_changed', user.id);
      return { message: accountMessages.emailChanged, email: change.newEmail };
    },
  );
}
