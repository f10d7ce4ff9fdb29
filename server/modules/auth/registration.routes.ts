import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  authMessages,
  isEmailAddress,
  isPasswordAcceptable,
  messageResponse,
  normalizeEmail,
  registerRequest,
  resendVerificationRequest,
  verifyParams,
} from '../../../contract/auth.ts';
import { errorResponse } from '../../../contract/errors.ts';
import { badRequest } from '../../http-errors.ts';
import type { AuthContext } from './auth.context.ts';
import { alreadyRegisteredMail, verificationMail } from './auth.mail.ts';
import { isLive } from './auth-tokens.repository.ts';
import { hashPassword } from './passwords.ts';

/** POST /auth/register, POST /auth/resend-verification and GET /auth/verify/{token}. */
export function registrationRoutes(app: FastifyInstance, auth: AuthContext): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/auth/register',
    {
      schema: {
        body: registerRequest,
        response: { 201: messageResponse, 400: errorResponse, 429: errorResponse },
      },
    },
    async (request, reply) => {
      const name = request.body.name.trim();
      const email = normalizeEmail(request.body.email);
      const { password } = request.body;
      if (!name) throw badRequest('Name is required.');
      if (name.length > 100 || /[\r\n]/.test(name))
        throw badRequest('Name must be one line of 100 characters at most.');
      if (!isEmailAddress(email)) throw badRequest('Enter a valid email address.');
      if (!isPasswordAcceptable(password)) throw badRequest(authMessages.weakPassword);
      await auth.limits.checkMail(request);

      // Hashed before the lookup in every case, so an existing address answers in the same time.
      const passwordHash = await hashPassword(password);
      const now = app.clock();
      const created = await auth.users.create({
        email,
        name,
        passwordHash,
        institution: request.body.organization?.trim() || null,
      });
      if (created) {
        await app.workspaces.ensurePersonal(created.id);
        const token = await auth.tokens.issue(created.id, 'verify', now);
        auth.sendLater(request, verificationMail(email, name, auth.siteUrl, token));
        await auth.record(request, 'auth.register', created.id);
      } else {
        const owner = await auth.users.findByEmail(email);
        if (owner) {
          const fresh = owner.emailVerifiedAt ? undefined : await auth.tokens.issue(owner.id, 'verify', now);
          auth.sendLater(request, alreadyRegisteredMail(email, owner.name, auth.siteUrl, fresh));
          await auth.record(request, 'auth.register_existing', owner.id);
        }
      }
      return reply.code(201).send({ message: authMessages.registered });
    },
  );

  routes.post(
    '/auth/resend-verification',
    { schema: { body: resendVerificationRequest, response: { 200: messageResponse, 429: errorResponse } } },
    async (request) => {
      // Counted against the same mail limits as registering and resetting: no one's inbox can be flooded.
      await auth.limits.checkMail(request);
      const email = normalizeEmail(request.body.email);
      // Looked up and mailed after the answer, which is therefore the same, in words and time, for any address.
      auth.afterAnswer(request, 'verification resend', async () => {
        const user = isEmailAddress(email) ? await auth.users.findByEmail(email) : undefined;
        if (!user || user.emailVerifiedAt) {
          return auth.record(request, 'auth.verification_resent', user?.id ?? null, { sent: false });
        }
        const token = await auth.tokens.issue(user.id, 'verify', app.clock());
        await app.mailer.send(verificationMail(user.email, user.name, auth.siteUrl, token));
        await auth.record(request, 'auth.verification_resent', user.id, { sent: true });
      });
      return { message: authMessages.verificationResent };
    },
  );

  routes.get(
    '/auth/verify/:token',
    { schema: { params: verifyParams, response: { 200: messageResponse, 400: errorResponse, 429: errorResponse } } },
    async (request) => {
      await auth.limits.checkToken(request);
      const now = app.clock();
      const stored = await auth.tokens.find(request.params.token, 'verify');
      if (!stored) throw badRequest(authMessages.invalidVerification);
      const user = await auth.users.findById(stored.userId);
      if (!user) throw badRequest(authMessages.invalidVerification);
      // A link opened twice (mail scanners do it, people do it) is not an error once the address is verified.
      if (stored.usedAt && user.emailVerifiedAt) return { message: authMessages.alreadyVerified };
      if (!isLive(stored, now)) {
        throw badRequest('This verification link has expired. Sign in to have a new one sent.');
      }
      await auth.tokens.consume(stored.id, now);
      if (user.emailVerifiedAt) return { message: authMessages.alreadyVerified };
      await auth.users.markVerified(user.id, now);
      await auth.record(request, 'auth.verify', user.id);
      return { message: authMessages.verified };
    },
  );
}
