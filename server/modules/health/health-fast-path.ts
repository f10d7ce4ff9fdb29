import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyServerOptions } from 'fastify';
import { apiSecurityHeaderValues } from '../../plugins/security-headers.ts';
import type { HealthProbe } from './health-probe.ts';

export const HEALTH_PATH = '/api/v1/health';

const body = JSON.stringify({ status: 'ok' });
const headers = {
  ...apiSecurityHeaderValues,
  'content-type': 'application/json; charset=utf-8',
  'content-length': String(Buffer.byteLength(body)),
};

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * A Fastify `serverFactory` whose server answers `GET /api/v1/health` itself while a probe less than a
 * second old stands, with the same body and headers as the route. Load balancers and orchestrators poll
 * that path many times a second per replica, and the router, hooks and serializer cost about a third of
 * the throughput of a bare server for an answer that is fixed. Everything else, and health itself when
 * the probe is stale or failed, goes to Fastify.
 */
export function healthFastPathServer(probe: HealthProbe) {
  return (fastifyHandler: Handler, options: FastifyServerOptions): http.Server => {
    const server = http.createServer((request, response) => {
      if (request.url === HEALTH_PATH && request.method === 'GET' && probe.isFresh()) {
        response.writeHead(200, headers);
        response.end(body);
        return;
      }
      fastifyHandler(request, response);
    });
    // What Fastify sets on the server it makes itself.
    server.keepAliveTimeout = options.keepAliveTimeout!;
    server.requestTimeout = options.requestTimeout!;
    server.setTimeout(options.connectionTimeout!);
    return server;
  };
}
