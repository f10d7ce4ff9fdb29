import type { FastifyInstance } from 'fastify';
import { REFERENCE_CSP, renderReference } from './reference-page.ts';

/** GET /openapi.json (the OpenAPI document) and GET /reference (the same, as a page to read). */
export default async function referenceRoutes(app: FastifyInstance): Promise<void> {
  let page: string | undefined;
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/reference', { schema: { hide: true } }, async (_request, reply) => {
    page ??= renderReference(app.swagger() as unknown as Parameters<typeof renderReference>[0]);
    return reply.type('text/html; charset=utf-8').header('content-security-policy', REFERENCE_CSP).send(page);
  });
}
