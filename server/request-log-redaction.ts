import { LogController, type FastifyRequest } from 'fastify';

/** Path segments that carry a secret: verification, invitation and share tokens. */
const SECRET_SEGMENT = /\/(verify|invites|shared)\/[^/?#]+/gi;
/** Query parameters whose value is a secret or identifies a person: reset links carry token and e-mail together. */
const SECRET_NAME = /token|invite|e-?mail|code|password|secret|key|signature|credential/i;
/** A value that looks like a random token (our 256-bit ones are 43 characters), whatever its name. */
const TOKEN_LIKE = /^[A-Za-z0-9_%.~-]{32,}$/;

/** The decoded form of a query name, or the name itself when it does not decode. */
function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/**
 * A request URL fit for the log: tokens in the path, secret or personal query values and anything that
 * looks like a token are replaced by `[redacted]`; the rest stays, so a line still says what was asked.
 * @example redactUrl('/reset-password?token=abc&email=ada%40x.org&lang=en') // '/reset-password?token=[redacted]&email=[redacted]&lang=en'
 */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = (queryAt === -1 ? url : url.slice(0, queryAt)).replace(SECRET_SEGMENT, '/$1/[redacted]');
  if (queryAt === -1) return path;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      const value = equals === -1 ? '' : pair.slice(equals + 1);
      if (equals === -1) return TOKEN_LIKE.test(name) ? '[redacted]' : pair;
      return SECRET_NAME.test(decodedName(name)) || TOKEN_LIKE.test(value) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

/** Fastify's request serializer, with the URL redacted: what every request log line says of the request. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Fastify's log controller, with the one line that writes the raw URL outside the serializer redacted too. */
export class RedactingLogController extends LogController {
  override routeNotFound(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.info(`Route ${request.method}:${redactUrl(request.url)} not found`);
  }
}
