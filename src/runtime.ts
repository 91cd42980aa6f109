// Puts one process together: database, Redis, repositories, dispatch, and — by mode — the
// HTTP API, the queue workers, or both (the one-process `npm start`).
import type { PGlite } from '@electric-sql/pglite';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { createLogger, type Logger } from './log.ts';
import type { ResolvedRedis } from './queue/redis-launcher.ts';
import { connectRedis, type RedisConnection, type RedisTarget } from './queue/redis-connection.ts';
import { checkRedisPermissions } from './queue/redis-access.ts';
import { createRepositories, type AppContext, type Repositories } from './app-context.ts';
import { Authenticator } from './auth/principal.ts';
import { ensureAdminTokenHash } from './auth/admin-token.ts';
import { DispatchQueues } from './dispatch/queues.ts';
import { DispatchService } from './dispatch/service.ts';
import { QueueWindow } from './dispatch/queue-window.ts';
import { serverWithChallenge } from './servers/with-challenge.ts';
import type { WorkerPool } from './dispatch/worker-pool.ts';
import { buildApp, type App } from './app.ts';
import { CallbackService } from './callbacks/service.ts';
import { Reconciler } from './dispatch/reconciler.ts';
import { queuePrefix, type PrefixSource } from './queue/prefix.ts';
import { moveFromOldPrefix } from './dispatch/prefix-move.ts';
import { LeaderboardService } from './leaderboard/service.ts';
import { LeaseService } from './pull/lease-service.ts';
import { ServerLifecycle } from './servers/lifecycle.ts';
import { openAnswerReader, openStores, type AnswerReading } from './runtime-open.ts';
import { startWorkers } from './runtime-workers.ts';
import { createOutages } from './dispatch/outages.ts';

export interface RuntimeOptions {
  config: Config;
  log?: Logger;
  /** An already-open database (tests); otherwise opened from the config. */
  db?: Database;
  api: boolean;
  workers: boolean;
}

export interface Runtime {
  ctx: AppContext;
  /** The database handle, for the process that owns it (scripts, benchmarks); routes and services get repositories. */
  db: Database;
  app?: App;
  reconciler: Reconciler;
  pool?: WorkerPool;
  redis: ResolvedRedis;
  /**
   * Stops taking work, lets requests in flight finish (with graceMs: for at most that long,
   * then hands the rest back to the queue), closes everything.
   */
  close(opts?: { graceMs?: number }): Promise<void>;
}

/**
 * The composition root: every repository (the only code that holds SQL) is built here,
 * once, and handed to the services and routes. With them, the configuration as this
 * process uses it: the key prefix is the installation's.
 */
async function prepareRepositories(
  given: Config,
  db: Database,
  log: Logger,
): Promise<{ repos: Repositories; config: Config; prefixSource: PrefixSource }> {
  const repos = createRepositories(db, {
    cacheBytes: given.cacheMaxBytes,
    writeRetry: { retries: given.databaseWriteRetries },
  });
  const prefix = await queuePrefix(given.queuePrefix, repos.settings);
  const config: Config = { ...given, queuePrefix: prefix.prefix };
  log.info({ queuePrefix: prefix.prefix, from: prefix.source }, 'Redis key prefix');
  await repos.challenges.ensureLive();
  return { repos, config, prefixSource: prefix.source };
}

interface ContextParts extends AnswerReading {
  config: Config;
  log: Logger;
  repos: Repositories;
  db: Database;
  redis: RedisTarget;
}

/** How long after a settled job its server's queue window is looked at (the checks within it are one). */
const WINDOW_CHECK_DELAY_MS = 50;

/** The AppContext, and the Redis connection and queues its dispatch runs on (the runtime closes them). */
interface Context {
  ctx: AppContext;
  connection: RedisConnection;
  queues: DispatchQueues;
}

/** The services every process shares, on one Redis connection, gathered in the AppContext routes and workers get. */
async function buildContext({ config, log, repos, db, redis, answers, accessions, lookups }: ContextParts): Promise<Context> {
  // One connection for queue commands and publishing; workers open their own blocking ones.
  const connection = connectRedis(redis, { maxRetriesPerRequest: null });
  // A permission the ACL user lacks is refused now, named, not met as queues that never move.
  await checkRedisPermissions(connection, { ...redis, prefix: config.queuePrefix }).catch((err: unknown) => {
    connection.disconnect();
    throw err;
  });
  // An outage makes an error at every reconnection: one warning while it lasts, and a summary when it answers again.
  const outages = createOutages(log);
  connection.on('error', (err: Error) => outages.redis.failed({ err: err.message }));
  connection.on('ready', () => outages.redis.recovered());
  const queues = new DispatchQueues(connection, config.queuePrefix, redis.cluster);
  const window = new QueueWindow(queues, repos.store, connection, {
    minJobs: config.dispatchWindow,
    checkDelayMs: WINDOW_CHECK_DELAY_MS,
    log,
    lookup: (id) => serverWithChallenge(repos, id),
  });
  const dispatch = new DispatchService(queues, window, connection, repos.store, repos.servers, log);
  const adminHash = await ensureAdminTokenHash(config, repos.settings, log);
  const ctx: AppContext = {
    config,
    log,
    repos,
    dispatch,
    leaderboard: new LeaderboardService(repos),
    // A pull server's agents are known where leases are taken (built below, in API processes).
    servers: new ServerLifecycle({ config, repos, answers, dispatch, agentStatus: (id) => ctx.leases?.agentStatus(id) }),
    accessions,
    lookups,
    answers,
    auth: new Authenticator(adminHash, repos.teams),
    pingRedis: async () => (await connection.ping()) === 'PONG',
    outages,
    dumpDatabase:
      'pglite' in db ? async () => (await import('./backup/pglite.ts')).dumpPglite((db as { pglite: PGlite }).pglite) : undefined,
  };
  return { ctx, connection, queues };
}

/** An installation upgraded from a release with the shared `metaserver` prefix: its queues move to its own. */
async function moveQueuesOfEarlierRelease({ ctx, connection, queues }: Context, callbacks: CallbackService | undefined): Promise<void> {
  const { config, repos, log } = ctx;
  await moveFromOldPrefix(config.queuePrefix, {
    connection,
    queues,
    repos,
    log,
    enqueueCallback: callbacks && ((id) => callbacks.enqueueIfDone(id)),
  }).catch((err: Error) =>
    log.warn(
      { err: err.message },
      "could not move the queues of the earlier release to this installation's Redis prefix; the reconciler queues unsettled work again, the old keys stay until the next start",
    ),
  );
}

/** The pull protocol's leases are taken and settled through the API. */
function startLeases({ ctx, connection, queues }: Context, callbacks: CallbackService | undefined): LeaseService {
  const { config, repos, log, answers } = ctx;
  const leases = new LeaseService({
    redis: connection,
    prefix: config.queuePrefix,
    cluster: queues.cluster,
    log,
    store: repos.store,
    articles: repos.articles,
    answers,
    saveCheck: (id, check) => repos.servers.saveCheck(id, check),
    lockDurationMs: config.lockDurationMs,
    stalledIntervalMs: config.stalledIntervalMs,
    pollIntervalMs: config.leasePollIntervalMs,
    sweepIntervalMs: config.leaseSweepIntervalMs,
    // Completion callbacks are queued where this process runs a worker pool too (serve); an API-only process queues none for pull servers.
    onSettled: (articleId) => callbacks?.settled(articleId),
    jobSettled: (serverId) => ctx.dispatch.window.settled(serverId),
  });
  leases.start();
  return leases;
}

export async function createRuntime(opts: RuntimeOptions): Promise<Runtime> {
  const log = opts.log ?? createLogger(opts.config);
  const reading = openAnswerReader(opts.config, log);
  const { answers } = reading;
  const { redis, db, ownsDb } = await openStores(opts.config, log, opts.db);
  const { repos, config, prefixSource } = await prepareRepositories(opts.config, db, log);
  const context = await buildContext({ config, log, repos, db, redis, ...reading });
  const { ctx, connection, queues } = context;
  // Completion callbacks of on-demand articles: enqueued when a worker settles an article's last server.
  const callbacks = opts.workers ? new CallbackService(connection, config, repos, log, redis.cluster) : undefined;
  // The earlier release never ran on a cluster (it could not): nothing to move there.
  if (prefixSource === 'installation' && !redis.cluster) await moveQueuesOfEarlierRelease(context, callbacks);
  const reconciler = new Reconciler(ctx.dispatch, connection, repos, { intervalMs: config.reconcileIntervalMs, log });
  reconciler.start();
  const workers = opts.workers
    ? await startWorkers({
        config,
        log,
        repos,
        answers,
        redis,
        callbacks,
        pingRedis: () => ctx.pingRedis(),
        databaseOutage: ctx.outages.database,
        workersRedisOutage: ctx.outages.queueWorkers,
        jobSettled: (serverId) => ctx.dispatch.window.settled(serverId),
      })
    : undefined;
  const leases = opts.api ? startLeases(context, callbacks) : undefined;
  ctx.leases = leases;
  const app = opts.api ? await buildApp(ctx) : undefined;
  if (app) await app.ready();

  return {
    ctx,
    db,
    app,
    reconciler,
    pool: workers?.pool,
    redis,
    // The doors shut first (HTTP, leases), then what hands out work (reconciler, pool), then
    // what that work used (reading threads, callbacks, queues, the connection); the database
    // and Redis last, as every step before may still write to them.
    async close(closeOpts = {}) {
      workers?.heartbeat?.stop();
      await app?.close();
      // The setup checks this process still runs (only an API process runs them) end with it.
      if (app) await ctx.servers.close().catch((err: unknown) => log.warn({ err }, "could not mark this process's setup checks as ended"));
      await leases?.close();
      await reconciler.close();
      ctx.dispatch.window.close();
      await workers?.pool.close(closeOpts.graceMs);
      await workers?.performer.close();
      await answers.close();
      await callbacks?.close();
      await queues.close();
      connection.disconnect();
      if (ownsDb) await db.close();
      await redis.stop();
    },
  };
}
