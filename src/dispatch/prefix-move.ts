// The move from the old release's Redis key prefix (`metaserver`) to the installation's own
// (`metaserver-<id>`, src/queue/prefix.ts). The database is the outbox: every delivery under
// way is queued again under the new prefix (those not begun come through the queue window,
// which starts under a new prefix from the beginning), then the old queues' keys are removed, so
// nothing of the old release stays in Redis and the log says what moved from where.
//
// Only this installation's queues are touched: the queue of each of its servers, and only
// when every job in it names an article this installation has a delivery of (article ids are
// UUIDs made by each database); a queue holding anyone else's job is left, with a warning.
// An old release still running on the same Redis would lose its queues: stop it first.
import type { RedisConnection } from '../queue/redis-connection.ts';
import { Queue } from 'bullmq';
import type { Logger } from '../log.ts';
import type { ChallengeRepository } from '../challenges/repository.ts';
import type { ServerRepository } from '../servers/repository.ts';
import type { DispatchQueues } from './queues.ts';
import { queueName } from './queues.ts';
import type { DispatchStore } from './dispatch-store.ts';

/** The prefix of every release before the installation's own (migration 006). */
const OLD_PREFIX = 'metaserver';

export interface PrefixMoveReport {
  from: string;
  to: string;
  /** Per server queue: the old queue's jobs, and how many of their deliveries under way were queued again under the new prefix. */
  queues: Array<{ queue: string; oldJobs: number; requeued: number }>;
  /** Queues left in place because they hold jobs of articles this installation does not have. */
  left: string[];
  /** Callback jobs found under the old prefix and enqueued again (worker processes only). */
  callbacks: number;
}

export interface PrefixMoveDeps {
  /** A single Redis: the earlier release never ran on a cluster, so nothing is moved there. */
  connection: RedisConnection;
  queues: DispatchQueues;
  repos: { servers: ServerRepository; challenges: ChallengeRepository; store: DispatchStore };
  log: Logger;
  /** Enqueues an article's completion callback if it is due (CallbackService.enqueueIfDone). */
  enqueueCallback?: (articleId: string) => Promise<boolean>;
}

/** The keys every BullMQ queue with jobs has some of: one EXISTS tells whether the queue is there at all. */
const QUEUE_KEYS = ['meta', 'id', 'events', 'wait', 'paused', 'active', 'delayed', 'prioritized', 'completed', 'failed'];

/** The old queue's keys; none (without scanning Redis) when the queue was never there. */
async function keysOf(connection: RedisConnection, prefix: string, queue: string): Promise<string[]> {
  if ((await connection.exists(...QUEUE_KEYS.map((k) => `${prefix}:${queue}:${k}`))) === 0) return [];
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await connection.scan(cursor, 'MATCH', `${prefix}:${queue}:*`, 'COUNT', 1000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  return keys;
}

async function removeKeys(connection: RedisConnection, keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 500) await connection.unlink(...keys.slice(i, i + 500));
}

/** The article ids named by the jobs of an old queue (every state), read from the job hashes whose id has `jobIdPattern`. */
async function jobArticles(
  connection: RedisConnection,
  keys: string[],
  prefix: string,
  queue: string,
  jobIdPattern: RegExp,
): Promise<string[]> {
  const articles: string[] = [];
  for (const key of keys) {
    const id = key.slice(`${prefix}:${queue}:`.length);
    if (!jobIdPattern.test(id)) continue;
    const data = await connection.hget(key, 'data');
    if (data === null) continue;
    try {
      const articleId = (JSON.parse(data) as { articleId?: unknown }).articleId;
      articles.push(typeof articleId === 'string' ? articleId : '');
    } catch {
      articles.push(''); // unreadable: not provably ours
    }
  }
  return articles;
}

const DISPATCH_JOB_ID = /^[0-9a-f-]{36}_r\d+$/i;
const CALLBACK_JOB_ID = /^cb_[0-9a-f-]{36}$/i;

export async function moveFromOldPrefix(newPrefix: string, deps: PrefixMoveDeps): Promise<PrefixMoveReport | null> {
  const { connection, queues, repos, log } = deps;
  if (newPrefix === OLD_PREFIX) return null;
  const report: PrefixMoveReport = { from: OLD_PREFIX, to: newPrefix, queues: [], left: [], callbacks: 0 };
  const challenges = new Map((await repos.challenges.list()).map((c) => [c.id, c]));
  for (const server of await repos.servers.listAll()) {
    const name = queueName(server.id);
    const keys = await keysOf(connection, OLD_PREFIX, name);
    if (keys.length === 0) continue;
    const articles = await jobArticles(connection, keys, OLD_PREFIX, name, DISPATCH_JOB_ID);
    const known = new Set(await repos.store.deliveredArticles(server.id, [...new Set(articles)].filter(isUuid)));
    if (articles.some((a) => !known.has(a))) {
      report.left.push(`${OLD_PREFIX}:${name}`);
      continue;
    }
    // Queue again what the database says is under way, as the reconciler would, then drop the old keys.
    const challenge = challenges.get(server.challengeId);
    let requeued = 0;
    if (challenge) {
      const missing = await queues.missingJobs(server.id, await repos.store.activeDeliveries(server.id));
      await queues.enqueueRounds(server.id, missing, challenge);
      requeued = missing.length;
    }
    await removeKeys(connection, keys);
    report.queues.push({ queue: name, oldJobs: articles.length, requeued });
  }
  if (deps.enqueueCallback) {
    const keys = await keysOf(connection, OLD_PREFIX, 'callbacks');
    if (keys.length > 0) {
      const articles = await jobArticles(connection, keys, OLD_PREFIX, 'callbacks', CALLBACK_JOB_ID);
      const ours = new Set(await repos.store.knownArticles([...new Set(articles)].filter(isUuid)));
      if (articles.some((a) => !ours.has(a))) report.left.push(`${OLD_PREFIX}:callbacks`);
      else {
        const old = new Queue(`callbacks`, { connection, prefix: OLD_PREFIX });
        old.on('error', () => {});
        const unfinished = await old.getJobs(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);
        for (const job of unfinished) if (await deps.enqueueCallback((job.data as { articleId: string }).articleId)) report.callbacks++;
        await old.close();
        await removeKeys(connection, keys);
      }
    }
  }
  if (report.queues.length > 0 || report.callbacks > 0) {
    const moved = report.queues.map((q) => `${q.queue}: ${q.oldJobs} old jobs, ${q.requeued} under way queued again`).join('; ');
    log.info(
      report,
      `moved the queues of the earlier release from the Redis prefix "${OLD_PREFIX}" to "${newPrefix}" and removed the old keys (${moved || 'no server queues'}${report.callbacks ? `; ${report.callbacks} callbacks` : ''}); the articles not begun are queued through the queue window`,
    );
  }
  if (report.left.length > 0) {
    log.warn(
      { left: report.left },
      `left the old-prefix queues ${report.left.join(', ')} in place: they hold jobs of articles this installation does not have (another installation's?); remove them by hand once nothing uses them`,
    );
  }
  return report;
}

const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
