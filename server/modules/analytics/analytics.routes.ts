import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageViewRequest } from '../../../contract/analytics.ts';
import { errorResponse } from '../../../contract/errors.ts';
import { feedbackRequest, feedbackResponse } from '../../../contract/feedback.ts';
import { cleanPath, cleanReferrer } from './referrer.ts';

// Limits keep a script from filling the tables; the IP is only a counter key in memory, never stored.
// Page views are generous: a whole hospital often browses from one NAT address.
const pageViewLimit = { max: 1000, timeWindow: '1 minute', keyGenerator: (r: { ip: string }) => r.ip };
const feedbackLimit = { max: 30, timeWindow: '1 minute', keyGenerator: (r: { ip: string }) => r.ip };

/** POST /analytics/page-views and POST /feedback: anonymous, cookie-free measures of the site. */
export default async function analyticsRoutes(app: FastifyInstance): Promise<void> {
  const analytics = app.repos.analytics;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/analytics/page-views',
    {
      config: { rateLimit: pageViewLimit },
      schema: {
        body: pageViewRequest,
        response: {
          204: z.null().describe('Counted (or ignored under Do Not Track)'),
          400: errorResponse,
          429: errorResponse,
        },
      },
    },
    async (request, reply) => {
      // Browsers asking not to be tracked are answered as usual but not counted.
      if (request.headers.dnt !== '1') {
        await analytics.recordPageView({
          path: cleanPath(request.body.path),
          referrer: cleanReferrer(request.body.referrer),
          at: app.clock(),
        });
      }
      return reply.code(204).send(null);
    },
  );

  typed.post(
    '/feedback',
    {
      config: { rateLimit: feedbackLimit },
      schema: { body: feedbackRequest, response: { 201: feedbackResponse, 400: errorResponse, 429: errorResponse } },
    },
    async (request, reply) => {
      await analytics.recordFeedback({ ...request.body, at: app.clock() });
      return reply.code(201).send({ status: 'recorded' as const });
    },
  );
}
