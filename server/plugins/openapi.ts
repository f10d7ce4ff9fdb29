import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/**
 * The OpenAPI 3 document of every route, made by @fastify/swagger from the routes' own zod schemas, so it
 * cannot drift from what the server validates. Registered before the routes, which it records as they
 * are added; served by the reference routes (modules/reference).
 */
export default fp(async function openapi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'LumenQC API',
        version: '1',
        description: 'Medical image quality control. Errors are JSON `{"detail": "…"}`.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'The access_token of POST /api/v1/auth/login' },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
    // Only the API: the static site's catch-all routes are not part of it.
    hideUntagged: false,
  });
});
