// Puts one process together: database, Redis, repositories, dispatch, and — by mode — the
// HTTP API, the queue workers, or both (the one-process `npm start`).
import { Redis } from 'ioredis';
import type { PGlite } from '@electric-sql/pglite';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { openDatabase } from './db/open.ts';
import { createLogger, type Logger } from './log.ts';
import { resolveRedis, type ResolvedRedis } from './queue/redis-launcher.ts';
import { createRepositories, type AppContext } from './app-context.ts';
import { Authenticator } from './auth/principal.ts';
import { ensureAdminTokenHash } from './auth/admin-token.ts';
import { DispatchQueues } from './dispatch/queues.ts';
import { DispatchService } from './dispatch/service.ts';
import { JobPerformer } from './dispatch/perform.ts';
import { WorkerPool } from './dispatch/worker-pool.ts';
import { buildApp, type App } from './app.ts';
import { UniprotIndex, type AccessionLookup, type IndexContents } from './uniprot/index.ts';
import { readIndexFile } from './uniprot/index-file.ts';
import { AnswerReader } from './dispatch/answer-reader.ts';
import { CallbackService } from './callbacks/service.ts';
import { Reconciler } from './dispatch/reconciler.ts';
import { queuePrefix } from './queue/prefix.ts';
import { moveFromOldPrefix } from './dispatch/prefix-move.ts';
import { LeaderboardService } from './leaderboard/service.ts';
import { loadFamilyLookups } from './families/lookups.ts';
import { startHeartbeatFile, type HeartbeatFile } from './queue/heartbeat-file.ts';
import { isPulled } from './dispatch/annotators/registry.ts';
import { LeaseService } from './pull/lease-service.ts';
import { ServerLifecycle } from './servers/lifecycle.ts';

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

/** The release in shared memory: the threads that read big answers use it without a copy (dispatch/answer-reader.ts). */
function loadAccessions(config: Config, log: Logger): { lookup: AccessionLookup; shared: IndexContents } | null {
  if (!config.uniprotIndex) {
    log.info('no UniProt release index configured (METASERVER_UNIPROT_INDEX): accessions are checked against the pattern only');
    return null;
  }
  const started = Date.now();
  const shared = readIndexFile(config.uniprotIndex, { shared: true });
  const lookup = new UniprotIndex(shared);
  log.info({ release: lookup.release, ms: Date.now() - started }, 'UniProt release index loaded');
  return { lookup, shared };
}

export async function createRuntime(opts: RuntimeOptions): Promise<Runtime> {
  const log = opts.log ?? createLogger(opts.config);
  const accessions = loadAccessions(opts.config, log);
  const lookups = loadFamilyLookups(opts.config, log);
  const answers = new AnswerReader({ accessions, lookups });
  // Redis (perhaps a redis-server to start) and the database (PGlite's start is the longest
  // step of a start-up) come up side by side; if either fails, the other is shut again.
  const [redisUp, dbUp] = await Promise.allSettled([
    resolveRedis(opts.config, log),
    opts.db ? Promise.resolve(opts.db) : openDatabase(opts.config, log),
  ]);
  if (redisUp.status === 'rejected' || dbUp.status === 'rejected') {
    if (redisUp.status === 'fulfilled') await redisUp.value.stop().catch(() => {});
    if (dbUp.status === 'fulfilled' && !opts.db) await dbUp.value.close().catch(() => {});
    throw redisUp.status === 'rejected' ? redisUp.reason : (dbUp as PromiseRejectedResult).reason;
  }
  const redis = redisUp.value;
  const db = dbUp.value;
  const ownsDb = !opts.db;
  // The configuration as this process uses it: the key prefix is the installation's.
  // The composition root: every repository (the only code that holds SQL) is built here,
  // once, and handed to the services and routes below.
  const repos = createRepositories(db, {
    cacheBytes: opts.config.cacheMaxBytes,
    writeRetry: { retries: opts.config.databaseWriteRetries },
  });
  const prefix = await queuePrefix(opts.config.queuePrefix, repos.settings);
  const config: Config = { ...opts.config, queuePrefix: prefix.prefix };
  log.info({ queuePrefix: prefix.prefix, from: prefix.source }, 'Redis key prefix');
  await repos.challenges.ensureLive();

  // One connection for queue commands and publishing; workers open their own blocking ones.
  const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
  connection.on('error', (err) => log.warn({ err: err.message }, 'Redis connection problem; retrying'));
  const queues = new DispatchQueues(connection, config.queuePrefix);
  const dispatch = new DispatchService(queues, connection, repos.store, repos.servers, log);
  const adminHash = await ensureAdminTokenHash(config, repos.settings, log);
  const ctx: AppContext = {
    config,
    log,
    repos,
    dispatch,
    leaderboard: new LeaderboardService(repos),
    // A pull server's agents are known where leases are taken (built below, in API processes).
    servers: new ServerLifecycle({ config, repos, answers, dispatch, agentStatus: (id) => ctx.leases?.agentStatus(id) }),
    accessions: accessions?.lookup ?? null,
    lookups: lookups.loaded,
    answers,
    auth: new Authenticator(adminHash, repos.teams),
    pingRedis: async () => (await connection.ping()) === 'PONG',
    dumpDatabase:
      'pglite' in db ? async () => (await import('./backup/pglite.ts')).dumpPglite((db as { pglite: PGlite }).pglite) : undefined,
  };

  // Completion callbacks of on-demand articles: enqueued when a worker settles an article's last server.
  const callbacks = opts.workers ? new CallbackService(connection, config, repos, log) : undefined;
  // An installation upgraded from a release with the shared `metaserver` prefix: its queues move to its own.
  if (prefix.source === 'installation') {
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

  const reconciler = new Reconciler(dispatch, connection, repos, { intervalMs: config.reconcileIntervalMs, log });
  reconciler.start();

  let pool: WorkerPool | undefined;
  let performer: JobPerformer | undefined;
  if (opts.workers) {
    performer = new JobPerformer({
      log,
      store: repos.store,
      articles: repos.articles,
      answers,
      maxAnswerBytes: config.maxAnswerBytes,
      cacheBytes: config.cacheMaxBytes,
      publicUrlsOnly: config.publicUrlsOnly,
      onSettled: (articleId) => callbacks?.settled(articleId),
      lookupServer: async (id) => {
        const server = await repos.servers.byId(id);
        const challenge = server ? await repos.challenges.byId(server.challengeId) : null;
        return server && challenge ? { server, challenge } : null;
      },
    });
    pool = new WorkerPool({
      redisUrl: redis.url,
      prefix: config.queuePrefix,
      lockDurationMs: config.lockDurationMs,
      stalledIntervalMs: config.stalledIntervalMs,
      syncIntervalMs: config.serverSyncIntervalMs,
      log,
      performer,
      // Pull servers are never called: their agents take the jobs on lease (src/pull).
      listServers: async () =>
        (await repos.servers.listAll()).filter((s) => !isPulled(s)).map((s) => ({ id: s.id, concurrency: s.concurrency })),
    });
    await pool.start();
    callbacks?.startWorker(redis.url);
  }
  // For a container health check of a worker process (`metaserver health --worker`).
  let heartbeat: HeartbeatFile | undefined;
  if (opts.workers && config.workerHeartbeatFile) {
    heartbeat = startHeartbeatFile(
      config.workerHeartbeatFile,
      config.serverSyncIntervalMs,
      async () => (await ctx.pingRedis()) && (await repos.settings.ping()),
    );
  }

  // The pull protocol's leases are taken and settled through the API.
  const leases = opts.api
    ? new LeaseService({
        redis: connection,
        prefix: config.queuePrefix,
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
      })
    : undefined;
  leases?.start();
  ctx.leases = leases;
  const app = opts.api ? await buildApp(ctx) : undefined;
  if (app) await app.ready();

  return {
    ctx,
    db,
    app,
    reconciler,
    pool,
    redis,
    async close(closeOpts = {}) {
      heartbeat?.stop();
      await app?.close();
      // The setup checks this process still runs (only an API process runs them) end with it.
      if (app) await ctx.servers.close().catch((err: unknown) => log.warn({ err }, "could not mark this process's setup checks as ended"));
      await leases?.close();
      await reconciler.close();
      await pool?.close(closeOpts.graceMs);
      await performer?.close();
      await answers.close();
      await callbacks?.close();
      await queues.close();
      connection.disconnect();
      if (ownsDb) await db.close();
      await redis.stop();
    },
  };
}
