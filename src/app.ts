// Builds the fastify app (no listen): plugins, the error handler, then the routes.
// Tests call app.inject against it with a real database and Redis.
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { docsTheme } from './web/docs-theme.ts';
import rateLimit from '@fastify/rate-limit';
import type { AppContext } from './app-context.ts';
import { clientErrorReply, frameworkErrorReply, installErrorHandling } from './http/error-handler.ts';
import { closeSilentConnectionsOnClose } from './http/silent-connections.ts';
import { clientKey, trustedProxies } from './http/client-address.ts';
import { RateLimitCounts } from './http/rate-limit-store.ts';
import { rowIdKeyword } from './http/schemas.ts';
import { refuseUnstorableText } from './http/storable-text.ts';
import { refuseRepeatedQueryParameters } from './http/repeated-query.ts';
import { publicBaseOf } from './http/public-url.ts';
import { ApiError } from './http/api-error.ts';
import { registerJsonParser, registerPlainTextParser } from './http/json-body.ts';
import { RequestLogController } from './http/request-log.ts';
import { enforceDeclaredAccess } from './auth/access.ts';
import { registerRoutes } from './app-routes.ts';

export type App = FastifyInstance;

export async function buildApp(ctx: AppContext): Promise<App> {
  const app: FastifyInstance = Fastify({
    // pino's Logger is wider than fastify's logger type; without the assertion fastify infers
    // its instance type from pino's and the app no longer fits FastifyInstance.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    loggerInstance: ctx.log as FastifyBaseLogger,
    // One line per answered request, successful reads at debug (src/http/request-log.ts).
    logController: new RequestLogController(),
    bodyLimit: ctx.config.bodyLimitBytes,
    // Client addresses (rate limits, on-demand caps) come from X-Forwarded-For only when the
    // connection comes from a proxy the operator named; anyone else could write that header.
    trustProxy: trustedProxies(ctx.config.trustProxy),
    ajv: { customOptions: { allErrors: true, removeAdditional: false, coerceTypes: false, keywords: [rowIdKeyword] } },
    frameworkErrors: frameworkErrorReply,
    // While closing, fastify's own 503 has a body outside the API's error shape; ours (error-handler.ts) has it.
    return503OnClosing: false,
    clientErrorHandler: clientErrorReply,
  });

  registerJsonParser(app);
  registerPlainTextParser(app);
  installErrorHandling(app);
  closeSilentConnectionsOnClose(app);
  refuseRepeatedQueryParameters(app);
  refuseUnstorableText(app);

  app.decorateRequest('principal', undefined);
  // Each route declares who may call it (config.access); one hook resolves the caller and enforces it.
  enforceDeclaredAccess(app, ctx.auth);
  // Per client: a team by its token, anyone else by address (src/http/client-address.ts).
  await app.register(rateLimit, {
    global: false,
    keyGenerator: clientKey,
    // Each request its own count: the plugin's store lets a burst's requests read its final count (rate-limit-store.ts).
    store: RateLimitCounts,
    errorResponseBuilder: (_request, limit) =>
      new ApiError(
        'rate_limited',
        `at most ${limit.max} of these requests are accepted per client and minute; retry in ${limit.after}`,
        undefined,
        Math.ceil(limit.ttl / 1000),
      ),
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'metaserver API', version: '1', description: 'A BioCreative-style annotation meta-server.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  // The API's own description is public: its pages are declared so as they are added.
  await app.register(async (docs) => {
    docs.addHook('onRoute', (route) => {
      route.config = { ...route.config, access: 'public' };
    });
    // The document names the server the way its reader reached it (publicUrl behind a proxy).
    await docs.register(swaggerUi, {
      routePrefix: '/docs',
      ...docsTheme(),
      transformSpecificationClone: false,
      transformSpecification: (spec, request) => ({ ...spec, servers: [{ url: publicBaseOf(request, ctx.config) }] }),
    });
  });
  app.get('/openapi.json', { schema: { hide: true }, config: { access: 'public' } }, async (request) => ({
    ...app.swagger(),
    servers: [{ url: publicBaseOf(request, ctx.config) }],
  }));

  await registerRoutes(app, ctx);
  return app;
}
