import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import path from 'node:path';
import type { Config } from './config.ts';
import { lazyChildLogger } from './lazy-request-logger.ts';
import { RedactingLogController, serializeRequest } from './request-log-redaction.ts';
import { createHealthProbe } from './modules/health/health-probe.ts';
import { createMailer } from './mail/mailer.ts';
import previewServices from './modules/previews/preview-services.ts';
import uploadSweep from './modules/uploads/upload-sweep.ts';
import ingest from './modules/ingest/ingest.plugin.ts';
import uploadRateLimit from './modules/uploads/upload-rate-limit.ts';
import { registerApiRoutes } from './routes.ts';
import authGuard from './modules/auth/auth.guard.ts';
import workspaceGuard from './modules/workspaces/workspace.guard.ts';
import errorHandling from './plugins/error-handling.ts';
import ocrCheck from './plugins/ocr-check.ts';
import openapi from './plugins/openapi.ts';
import rateLimit from './plugins/rate-limit.ts';
import repositories from './plugins/repositories.ts';
import securityHeaders from './plugins/helmet.ts';
import apiCacheControl from './plugins/api-cache-control.ts';
import staticSite from './plugins/static-site.ts';
import textGuard from './plugins/text-guard.ts';
import type { Services } from './services.ts';

/**
 * Fastify's form of TRUST_PROXY. A hop count trusts that many nearest hops whoever they are (Fastify itself
 * refuses bare numbers for that reason), so it is only for a server no one reaches except through them.
 */
function trustProxyOption(trust: Config['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

/** Builds the whole product as a Fastify instance over the given services; never listens. */
export async function buildApp(config: Config, services: Services): Promise<FastifyInstance> {
  const healthProbe = createHealthProbe(services);
  const app = Fastify({
    // Request lines never carry the tokens of reset, verify, invite, share or e-mail-change links.
    logger: {
      level: config.logLevel,
      serializers: { req: serializeRequest },
      ...(services.logStream ? { stream: services.logStream } : {}),
    },
    logController: new RedactingLogController(),
    // Only a configured proxy may name the client: otherwise anyone could pick the address every rate limit counts.
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1024 * 1024,
    // A load balancer's request id, when it sends one, ties our log lines to its own.
    requestIdHeader: 'x-request-id',
    childLoggerFactory: lazyChildLogger,
    // Errors the router meets before any route (a URL that does not decode, a parameter over its length)
    // answer like every other error.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
      void reply.code(status).send({ detail: status === 414 ? 'The address is too long' : 'The address is not valid' });
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('config', config);
  app.decorate('db', services.db);
  app.decorate('storage', services.storage);
  app.decorate('healthProbe', healthProbe);
  app.decorate('clock', services.clock ?? (() => new Date()));
  app.decorate(
    'mailer',
    services.mailer ??
      createMailer({
        smtpUrl: config.smtpUrl,
        from: config.mailFrom,
        outboxDir: path.join(config.dataDir, 'outbox'),
        log: app.log,
      }),
  );

  await app.register(repositories);
  await app.register(errorHandling);
  await app.register(securityHeaders);
  await app.register(apiCacheControl);
  await app.register(textGuard);
  await app.register(rateLimit);
  await app.register(openapi);
  await app.register(authGuard);
  await app.register(previewServices);
  await app.register(uploadSweep);
  await app.register(workspaceGuard);
  await app.register(ingest);
  await app.register(uploadRateLimit);
  await app.register(registerApiRoutes, { prefix: '/api/v1' });
  await app.register(staticSite);
  await app.register(ocrCheck);
  app.addHook('onClose', async () => app.mailer.close());
  return app;
}
