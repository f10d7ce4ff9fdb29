import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { brand } from '../../../contract/brand.ts';
import { contactMessageRequest, contactMessageResponse } from '../../../contract/contact.ts';
import { errorResponse } from '../../../contract/errors.ts';
import { contactNotification } from './contact-mail.ts';

/** Messages one IP address may send per window; enough for a person, too few for a spammer. */
export const CONTACT_LIMIT = { max: 5, timeWindow: '15 minutes' } as const;

/** POST /contact-messages: stores the message, e-mails the team, rate limited per IP, honeypot drops bots. */
export default async function contactRoutes(app: FastifyInstance): Promise<void> {
  const messages = app.repos.contact;

  app.withTypeProvider<ZodTypeProvider>().post(
    '/contact-messages',
    {
      config: { rateLimit: { ...CONTACT_LIMIT, keyGenerator: (request) => request.ip } },
      schema: {
        body: contactMessageRequest,
        response: { 201: contactMessageResponse, 400: errorResponse, 429: errorResponse },
      },
    },
    async (request, reply) => {
      const body = request.body;
      // A bot fills every field it finds; answering as usual keeps it from learning it was caught.
      if (body.website) {
        request.log.info('contact message dropped by the honeypot');
        return reply.code(201).send({ status: 'received' as const });
      }
      const input = {
        fullName: body.full_name,
        email: body.email,
        institution: body.institution ?? null,
        message: body.message,
        at: app.clock(),
      };
      const id = await messages.save(input);
      try {
        await app.mailer.send(contactNotification(brand.email, id, input));
      } catch (error) {
        // The message is safe in the database; a mail outage must not make the sender type it again.
        request.log.error({ err: error, id }, 'contact notification could not be sent');
      }
      return reply.code(201).send({ status: 'received' as const });
    },
  );
}
