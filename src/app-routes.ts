// The routes of the app, in the order they are registered (which is the order of
// /openapi.json), each plugin given what it needs out of the application context, by name.
// This file, app.ts and runtime.ts (which builds the context) are the only ones the
// context's shape reaches: a plugin names its dependencies (ServerRouteDeps, …) and never
// sees the rest (test/architecture/sizes.unit.test.ts keeps it so).
import { ProgressReader } from './dispatch/progress.ts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './app-context.ts';
import { healthRoutes, type HealthRouteDeps } from './health/routes.ts';
import { challengeRoutes } from './challenges/routes.ts';
import type { ChallengeRouteDeps } from './challenges/route-handlers.ts';
import { teamRoutes, type TeamRouteDeps } from './teams/routes.ts';
import { whoamiRoutes } from './auth/whoami-routes.ts';
import { serverRoutes } from './servers/routes.ts';
import type { ServerRouteDeps } from './servers/route-handlers.ts';
import { articleRoutes, type ArticleRouteDeps } from './articles/routes.ts';
import { leaderboardRoutes } from './leaderboard/routes.ts';
import { OfficialBoards } from './leaderboard/official-boards.ts';
import type { LeaderboardRouteDeps } from './leaderboard/route-handlers.ts';
import { xmlrpcApi } from './bcms/public-api.ts';
import type { BcmsDeps } from './bcms/index.ts';
import { observabilityRoutes, type MetricsRouteDeps } from './metrics/routes.ts';
import { reliabilityRoutes, type ReliabilityRouteDeps } from './reliability/routes.ts';
import { webRoutes, type WebRouteDeps } from './web/routes.ts';
import { testsuiteRoutes } from './testsuites/routes.ts';
import type { TestsuiteRouteDeps } from './testsuites/route-handlers.ts';
import { backupRoutes, type BackupRouteDeps } from './backup/routes.ts';
import { pullRoutes } from './pull/routes.ts';
import type { PullRouteDeps } from './pull/route-handlers.ts';
import type { LeaseService } from './pull/lease-service.ts';

const API = { prefix: '/api' };

export async function registerRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // The official boards are taken by the challenges' phase changes and read by the scores route.
  const official = new OfficialBoards(ctx.repos.officialBoards, ctx.leaderboard);
  // Whether dispatch progresses: said by /healthz and /metrics, read once for both (kept as a server's status is).
  const progress = new ProgressReader(ctx.repos.unsettled, ctx.config.reconcileIntervalMs, ctx.config.statusCacheMs);
  await app.register(healthRoutes(healthDeps(ctx, progress)));
  await app.register(challengeRoutes(challengeDeps(ctx, official)), API);
  await app.register(teamRoutes(teamDeps(ctx)), API);
  await app.register(whoamiRoutes(), API);
  await app.register(serverRoutes(serverDeps(ctx)), API);
  await app.register(articleRoutes(articleDeps(ctx)), API);
  await app.register(leaderboardRoutes(leaderboardDeps(ctx, official)), API);
  await app.register(xmlrpcApi(bcmsDeps(ctx)));
  await app.register(observabilityRoutes(metricsDeps(ctx, progress)));
  await app.register(reliabilityRoutes(reliabilityDeps(ctx)));
  await app.register(webRoutes(webDeps(ctx)));
  await app.register(testsuiteRoutes(testsuiteDeps(ctx)));
  await app.register(backupRoutes(backupDeps(ctx)), API);
  // Leases are taken where the pull protocol is served: API processes only.
  if (ctx.leases) await app.register(pullRoutes(pullDeps(ctx, ctx.leases)), API);
}

function healthDeps(ctx: AppContext, progress: ProgressReader): HealthRouteDeps {
  const { settings } = ctx.repos;
  return {
    pingRedis: () => ctx.pingRedis(),
    settings,
    accessions: ctx.accessions,
    lookups: ctx.lookups,
    outages: ctx.outages,
    dispatchProgress: () => progress.read(),
    shortfall: ctx.dispatch.shortfall,
  };
}

function challengeDeps(ctx: AppContext, official: OfficialBoards): ChallengeRouteDeps {
  return { config: ctx.config, challenges: ctx.repos.challenges, dispatch: ctx.dispatch, official };
}

function teamDeps(ctx: AppContext): TeamRouteDeps {
  return { config: ctx.config, teams: ctx.repos.teams };
}

function serverDeps(ctx: AppContext): ServerRouteDeps {
  return { config: ctx.config, challenges: ctx.repos.challenges, servers: ctx.repos.servers, lifecycle: ctx.servers };
}

function articleDeps(ctx: AppContext): ArticleRouteDeps {
  const { challenges, articles, servers, answers, store, models, scored } = ctx.repos;
  return {
    config: ctx.config,
    challenges,
    articles,
    scored,
    servers,
    answers,
    store,
    models,
    dispatch: ctx.dispatch,
    leaderboard: ctx.leaderboard,
  };
}

function leaderboardDeps(ctx: AppContext, official: OfficialBoards): LeaderboardRouteDeps {
  return {
    challenges: ctx.repos.challenges,
    leaderboard: ctx.leaderboard,
    official,
    accessions: ctx.accessions,
    articles: ctx.repos.articles,
  };
}

function bcmsDeps(ctx: AppContext): BcmsDeps {
  const { challenges, articles, answers, servers, models } = ctx.repos;
  return { challenges, articles, answers, servers, models };
}

function metricsDeps(ctx: AppContext, progress: ProgressReader): MetricsRouteDeps {
  return {
    servers: ctx.repos.servers,
    dispatch: ctx.dispatch,
    outages: ctx.outages,
    unsettled: ctx.repos.unsettled,
    progress: () => progress.read(),
    diskFull: () => ctx.repos.settings.diskFull(),
  };
}

function reliabilityDeps(ctx: AppContext): ReliabilityRouteDeps {
  return { challenges: ctx.repos.challenges, reliability: ctx.repos.reliability };
}

function webDeps(ctx: AppContext): WebRouteDeps {
  const { challenges, servers, serverStatus, reliability } = ctx.repos;
  return { config: ctx.config, challenges, auth: ctx.auth, glance: { challenges, servers, serverStatus, reliability } };
}

function testsuiteDeps(ctx: AppContext): TestsuiteRouteDeps {
  const { challenges, servers, serverStatus, suiteRuns } = ctx.repos;
  return { config: ctx.config, challenges, servers, serverStatus, suiteRuns, dispatch: ctx.dispatch };
}

function backupDeps(ctx: AppContext): BackupRouteDeps {
  return { dumpDatabase: ctx.dumpDatabase };
}

function pullDeps(ctx: AppContext, leases: LeaseService): PullRouteDeps {
  return { config: ctx.config, challenges: ctx.repos.challenges, servers: ctx.repos.servers, leases };
}
