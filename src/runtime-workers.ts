// The queue side of a process that runs workers (`serve`, `worker`), as runtime.ts starts it:
// the job performer, the worker pool that feeds it, the completion callbacks' worker, and
// the heartbeat file a container health check of the worker reads.
import type { Config } from './config.ts';
import type { Logger } from './log.ts';
import type { ArticleRepository } from './articles/repository.ts';
import type { CallbackService } from './callbacks/service.ts';
import type { ChallengeRepository } from './challenges/repository.ts';
import type { SettingsRepository } from './db/settings-repository.ts';
import type { AnswerReader } from './dispatch/answer-reader.ts';
import { isPulled } from './dispatch/annotators/registry.ts';
import { JobPerformer } from './dispatch/perform.ts';
import type { DispatchStore } from './dispatch/dispatch-store.ts';
import { WorkerPool } from './dispatch/worker-pool.ts';
import { serverWithChallenge } from './servers/with-challenge.ts';
import { startHeartbeatFile, type HeartbeatFile } from './queue/heartbeat-file.ts';
import type { RedisTarget } from './queue/redis-connection.ts';
import type { ServerRepository } from './servers/repository.ts';
import type { Condition } from './shared/condition.ts';

export interface WorkerDeps {
  config: Config;
  log: Logger;
  repos: {
    store: DispatchStore;
    articles: ArticleRepository;
    servers: ServerRepository;
    challenges: ChallengeRepository;
    settings: SettingsRepository;
  };
  answers: AnswerReader;
  /** The Redis (or Redis Cluster) the pool's workers open their own blocking connections to. */
  redis: RedisTarget;
  /** Completion callbacks of on-demand articles, queued when a worker settles an article's last server. */
  callbacks?: CallbackService;
  pingRedis: () => Promise<boolean>;
  /** The process's database outage, which the performer's jobs report to (and /metrics reads). */
  databaseOutage?: Condition;
  /** The process's Redis outage for its queue workers (one warning while it lasts, not one per worker). */
  workersRedisOutage?: Condition;
  /** A job of the server finished in this process (its queue window is topped up). */
  jobSettled?: (serverId: number) => void;
}

export interface Workers {
  performer: JobPerformer;
  pool: WorkerPool;
  heartbeat?: HeartbeatFile;
}

/** Starts taking jobs: the pool consumes every called server's queue, then the callbacks' worker starts. */
export async function startWorkers(deps: WorkerDeps): Promise<Workers> {
  const { config, log, repos, callbacks } = deps;
  const performer = new JobPerformer({
    log,
    store: repos.store,
    articles: repos.articles,
    answers: deps.answers,
    maxAnswerBytes: config.maxAnswerBytes,
    cacheBytes: config.cacheMaxBytes,
    publicUrlsOnly: config.publicUrlsOnly,
    onSettled: (articleId) => callbacks?.settled(articleId),
    lookupServer: (id) => serverWithChallenge(repos, id),
    databaseOutage: deps.databaseOutage,
  });
  const pool = new WorkerPool({
    redisUrl: deps.redis.url,
    cluster: deps.redis.cluster,
    prefix: config.queuePrefix,
    lockDurationMs: config.lockDurationMs,
    stalledIntervalMs: config.stalledIntervalMs,
    syncIntervalMs: config.serverSyncIntervalMs,
    log,
    performer,
    jobSettled: deps.jobSettled,
    outage: deps.workersRedisOutage,
    // Pull servers are never called: their agents take the jobs on lease (src/pull).
    listServers: async () =>
      (await repos.servers.listAll())
        .filter((s) => !isPulled(s))
        .map((s) => ({ id: s.id, concurrency: s.concurrency, batchSize: s.batchSize })),
  });
  await pool.start();
  callbacks?.startWorker(deps.redis, deps.workersRedisOutage);
  return { performer, pool, heartbeat: startHeartbeat(deps) };
}

/** For a container health check of a worker process (`metaserver health --worker`), when a file is configured. */
function startHeartbeat({ config, repos, pingRedis }: WorkerDeps): HeartbeatFile | undefined {
  if (!config.workerHeartbeatFile) return undefined;
  return startHeartbeatFile(
    config.workerHeartbeatFile,
    config.serverSyncIntervalMs,
    async () => (await pingRedis()) && (await repos.settings.ping()),
  );
}
