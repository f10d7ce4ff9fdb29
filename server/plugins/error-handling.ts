import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from '../http-errors.ts';
import { UnmeasurableImageError } from '../imaging/metrics/finite.ts';
import { UndecodableImageError } from '../imaging/volume.ts';
import { TooLargeError } from '../storage/storage.ts';

/** Errors of the imaging engine and storage whose messages are written for the user, and their status. */
function knownFailure(error: Error): { status: number; detail: string } | undefined {
  if (error instanceof UndecodableImageError) return { status: 415, detail: error.message };
  if (error instanceof UnmeasurableImageError) return { status: 422, detail: error.message };
  if (error instanceof TooLargeError) return { status: 413, detail: 'Request body is too large' };
  return undefined;
}

/** Turns every failure into `{"detail": …}` with the right status; no stack, path or SQL leaves the server. */
export default fp(async function errorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) return reply.code(error.statusCode).send({ detail: error.detail });
    const known = knownFailure(error);
    if (known) return reply.code(known.status).send({ detail: known.detail });
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const field = first?.instancePath?.replace(/^\//, '').replace(/\//g, '.');
      const message = first?.message ?? 'Invalid request';
      return reply.code(400).send({ detail: field ? `${field}: ${message}` : message });
    }
    if (error.validation) return reply.code(400).send({ detail: error.message });
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, body too large, wrong content type) carry safe messages.
      return reply.code(status).send({ detail: status === 429 ? error.message : clientMessage(error) });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ detail: 'Internal server error' });
  });
});

function clientMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported content type';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'Request body is too large';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'Request body is empty';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'Request body is not valid JSON';
    default:
      return error.message.replace(/\s+at\s.*$/s, '');
  }
}
