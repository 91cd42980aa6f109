// The routes of the app, in the order they are registered (which is the order of
// /openapi.json), each plugin given what it needs out of the application context, by name.
// This file and app.ts are the only ones the context's shape reaches: a plugin names its
// dependencies (ServerRouteDeps, …) and never sees the rest.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './app-context.ts';
import { healthRoutes } from './health/routes.ts';
import { challengeRoutes } from './challenges/routes.ts';
import { teamRoutes } from './teams/routes.ts';
import { whoamiRoutes } from './auth/whoami-routes.ts';
import { serverRoutes } from './servers/routes.ts';
import type { ServerRouteDeps } from './servers/route-handlers.ts';
import { articleRoutes, type ArticleRouteDeps } from './articles/routes.ts';
import { leaderboardRoutes } from './leaderboard/routes.ts';
import { xmlrpcApi } from './bcms/public-api.ts';
import { observabilityRoutes } from './metrics/routes.ts';
import { reliabilityRoutes } from './reliability/routes.ts';
import { webRoutes } from './web/routes.ts';
import { testsuiteRoutes } from './testsuites/routes.ts';
import { backupRoutes } from './backup/routes.ts';
import { pullRoutes } from './pull/routes.ts';

const API = { prefix: '/api' };

export async function registerRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(healthRoutes(ctx));
  await app.register(challengeRoutes(ctx), API);
  await app.register(teamRoutes(ctx), API);
  await app.register(whoamiRoutes(ctx), API);
  await app.register(serverRoutes(serverDeps(ctx)), API);
  await app.register(articleRoutes(articleDeps(ctx)), API);
  await app.register(leaderboardRoutes(ctx), API);
  await app.register(xmlrpcApi(ctx));
  await app.register(observabilityRoutes(ctx));
  await app.register(reliabilityRoutes(ctx));
  await app.register(webRoutes(ctx));
  await app.register(testsuiteRoutes(ctx));
  await app.register(backupRoutes(ctx), API);
  if (ctx.leases) await app.register(pullRoutes(ctx, ctx.leases), API);
}

function serverDeps(ctx: AppContext): ServerRouteDeps {
  return { config: ctx.config, challenges: ctx.repos.challenges, servers: ctx.repos.servers, lifecycle: ctx.servers };
}

function articleDeps(ctx: AppContext): ArticleRouteDeps {
  const { challenges, articles, servers, answers, store, models } = ctx.repos;
  return {
    config: ctx.config,
    challenges,
    articles,
    servers,
    answers,
    store,
    models,
    dispatch: ctx.dispatch,
    leaderboard: ctx.leaderboard,
  };
}
