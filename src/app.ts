// Builds the fastify app (no listen): plugins, the error handler, then the routes.
// Tests call app.inject against it with a real database and Redis.
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import rateLimit from '@fastify/rate-limit';
import type { AppContext } from './app-context.ts';
import { ApiError } from './http/api-error.ts';
import { ServiceUnavailableError } from './http/unavailable.ts';
import { isConnectionError } from './dispatch/db-retry.ts';
import { registerJsonParser } from './http/json-body.ts';
import { RequestLogController } from './http/request-log.ts';
import { healthRoutes } from './health/routes.ts';
import { challengeRoutes } from './challenges/routes.ts';
import { teamRoutes } from './teams/routes.ts';
import { serverRoutes } from './servers/routes.ts';
import { articleRoutes } from './articles/routes.ts';
import { leaderboardRoutes } from './leaderboard/routes.ts';
import { xmlrpcApi } from './xmlrpc/public-api.ts';
import { observabilityRoutes } from './metrics/routes.ts';
import { webRoutes } from './web/routes.ts';
import { testsuiteRoutes } from './testsuites/routes.ts';

export type App = FastifyInstance;

export async function buildApp(ctx: AppContext): Promise<App> {
  const app: FastifyInstance = Fastify({
    loggerInstance: ctx.log as FastifyBaseLogger,
    // One line per answered request, successful reads at debug (src/http/request-log.ts).
    logController: new RequestLogController(),
    bodyLimit: ctx.config.bodyLimitBytes,
    ajv: { customOptions: { allErrors: true, removeAdditional: false, coerceTypes: false } },
  });

  registerJsonParser(app);
  app.setErrorHandler((err: FastifyError | ApiError, request, reply) => {
    if (isConnectionError(err)) err = new ServiceUnavailableError('database', 5, 'the request could not be carried out');
    if (err instanceof ApiError) {
      if (err instanceof ServiceUnavailableError) reply.header('retry-after', String(err.retryAfterSeconds));
      return reply.status(err.statusCode).send({ error: { code: err.code, message: err.message, details: err.details } });
    }
    if (err.validation) {
      const message = err.validation.map((v) => `${err.validationContext ?? 'request'}${v.instancePath || ''} ${v.message}`).join('; ');
      return reply.status(400).send({ error: { code: 'invalid_request', message, details: err.validation } });
    }
    const status = err.statusCode ?? 500;
    if (status < 500) {
      return reply.status(status).send({ error: { code: (err.code ?? 'bad_request').toLowerCase(), message: err.message } });
    }
    request.log.error({ err }, 'request failed');
    return reply.status(status).send({
      error: { code: 'internal', message: `internal error; the operator can find it in the logs under request id ${request.id}. Try again later.` },
    });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({ error: { code: 'not_found', message: `no route ${request.method} ${request.url}; see /docs for the API` } }),
  );

  app.decorateRequest('principal', undefined);
  app.addHook('onRequest', async (request) => {
    await ctx.auth.principal(request);
  });
  await app.register(rateLimit, { global: false });
  await app.register(swagger, {
    openapi: {
      info: { title: 'metaserver API', version: '1', description: 'A BioCreative-style annotation meta-server.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(healthRoutes(ctx));
  await app.register(challengeRoutes(ctx), { prefix: '/api' });
  await app.register(teamRoutes(ctx), { prefix: '/api' });
  await app.register(serverRoutes(ctx), { prefix: '/api' });
  await app.register(articleRoutes(ctx), { prefix: '/api' });
  await app.register(leaderboardRoutes(ctx), { prefix: '/api' });
  await app.register(xmlrpcApi(ctx));
  await app.register(observabilityRoutes(ctx));
  await app.register(webRoutes(ctx));
  await app.register(testsuiteRoutes(ctx));
  return app;
}
