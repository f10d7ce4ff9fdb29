import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from '../http-errors.ts';

/** A NUL, or a UTF-16 surrogate without its partner: text no database column or file name can hold. */
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Most nesting walked; deeper JSON is refused rather than walked (no route takes anything near it). */
const MAX_DEPTH = 32;

/** The name of the first string in `value` (an object key or a value) that cannot be stored, or undefined. */
function firstUnstorable(value: unknown, at: string, depth = 0): string | undefined {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? at : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  if (depth > MAX_DEPTH) return at;
  for (const [key, inner] of Object.entries(value)) {
    const path = at ? `${at}.${key}` : key;
    if (UNSTORABLE.test(key)) return path;
    const found = firstUnstorable(inner, path, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Refuses with 400 a request whose path parameters, query or JSON body hold a NUL or a lone surrogate. */
function refuseUnstorableText(request: FastifyRequest): void {
  for (const part of ['params', 'query', 'body'] as const) {
    const found = firstUnstorable(request[part], '');
    if (found !== undefined) {
      throw badRequest(`${found ? `${found}: ` : ''}Text must not contain NUL characters or unpaired surrogates`);
    }
  }
}

/**
 * Every route's text input is checked before validation: PostgreSQL refuses NUL in text and unpaired
 * surrogates in UTF-8, and would otherwise turn a client's typo into a server error.
 */
export default fp(async function textGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => refuseUnstorableText(request));
});
