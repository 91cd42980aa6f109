// One BullMQ queue per annotation server, so each server gets the articles in queue order,
// at its own concurrency (a global limit, held across all worker processes), and can be
// paused without touching the others. Only ids travel in job data.
import { Queue, type JobsOptions, type WorkerOptions } from 'bullmq';
import { hashTagged, type RedisConnection } from '../queue/redis-connection.ts';

/** How many jobs of a server are in flight at once, across all processes: enough to fill `concurrency` calls of `batchSize` articles (batch-caller.ts). */
export function jobsAtOnce(server: { concurrency: number; batchSize?: number }): number {
  return Math.max(1, server.concurrency) * Math.max(1, server.batchSize ?? 1);
}
export interface DispatchJob {
  articleId: string;
  serverId: number;
}

const BACKOFF_TYPE = 'capped-exponential';
/** Back-off before attempt n+1 is retryDelaySeconds · 2^(n-1), never more than 10 minutes. */
export const MAX_BACKOFF_MS = 10 * 60 * 1000;

export function backoffDelayMs(attemptsMade: number, baseDelayMs: number): number {
  return Math.min(baseDelayMs * 2 ** Math.max(0, attemptsMade - 1), MAX_BACKOFF_MS);
}

/**
 * What every worker of a dispatch queue needs, whether it runs the job (worker-pool.ts) or
 * hands it out as a lease (pull): the project's back-off, and a killed worker's job retried,
 * not failed (kills are not the server's fault).
 */
export const DISPATCH_WORKER_OPTIONS: Pick<WorkerOptions, 'maxStalledCount' | 'settings'> = {
  maxStalledCount: 100,
  settings: {
    backoffStrategy: (attemptsMade, type, _err, job) =>
      type === BACKOFF_TYPE ? backoffDelayMs(attemptsMade, Number((job?.opts.backoff as { delay?: number } | undefined)?.delay ?? 0)) : 0,
  },
};

/** In a cluster the name is hash-tagged: the queue's keys share a slot, and servers spread over the nodes. */
export const queueName = (serverId: number, cluster = false) => hashTagged(`server-${serverId}`, cluster);
/** Events kept in each queue's event stream (approximately: Redis trims in whole blocks). */
export const EVENTS_KEPT = 500;
/** BullMQ refuses ':' in custom job ids; a retry round gets a fresh id so it runs again. */
export const jobId = (articleId: string, round: number) => `${articleId}_r${round}`;

export interface RetrySettings {
  maxAttempts: number;
  retryDelaySeconds: number;
}

export class DispatchQueues {
  private readonly queues = new Map<number, Queue<DispatchJob>>();

  constructor(
    private readonly connection: RedisConnection,
    readonly prefix: string,
    /** On a Redis Cluster: queue names (and the keys kept beside them) are hash-tagged. */
    readonly cluster = false,
  ) {}

  queue(serverId: number): Queue<DispatchJob> {
    let q = this.queues.get(serverId);
    if (!q) {
      // Nothing here reads a queue's event stream; BullMQ keeps 10,000 events per queue by
      // default, which came to ~5 MB for 20 servers after every job had left.
      q = new Queue<DispatchJob>(queueName(serverId, this.cluster), {
        connection: this.connection,
        prefix: this.prefix,
        streams: { events: { maxLen: EVENTS_KEPT } },
      });
      q.on('error', () => {}); // connection errors surface through the shared client's own handler
      this.queues.set(serverId, q);
    }
    return q;
  }

  async enqueue(serverId: number, articleIds: string[], retry: RetrySettings, round = 0): Promise<void> {
    await this.enqueueRounds(
      serverId,
      articleIds.map((articleId) => ({ articleId, round })),
      retry,
    );
  }

  async enqueueRounds(serverId: number, items: Array<{ articleId: string; round: number }>, retry: RetrySettings): Promise<void> {
    if (items.length === 0) return;
    const opts = (round: number, articleId: string): JobsOptions => ({
      jobId: jobId(articleId, round),
      attempts: retry.maxAttempts,
      backoff: { type: BACKOFF_TYPE, delay: Math.round(retry.retryDelaySeconds * 1000) },
      // A job leaves Redis once it has finished: its outcome is in the database by then
      // (perform settles the delivery before it returns or throws for good), and the
      // reconciler queues only deliveries the database holds unsettled. Kept, finished jobs
      // came to ~12,000 keys and ~22 MB per 595 × 20 challenge, for good.
      removeOnComplete: true,
      removeOnFail: true,
    });
    const q = this.queue(serverId);
    // addBulk keeps the order, so the server sees the articles in queue order.
    for (let i = 0; i < items.length; i += 1000) {
      await q.addBulk(
        items
          .slice(i, i + 1000)
          .map((it) => ({ name: 'annotate', data: { articleId: it.articleId, serverId }, opts: opts(it.round, it.articleId) })),
      );
    }
  }

  /** Of items, those whose job is not in the server's queue (in any state), in the same order. */
  async missingJobs<T extends { articleId: string; round: number }>(serverId: number, items: T[]): Promise<T[]> {
    const q = this.queue(serverId);
    const missing: T[] = [];
    for (let i = 0; i < items.length; i += 1000) {
      const chunk = items.slice(i, i + 1000);
      const pipeline = this.connection.pipeline();
      for (const it of chunk) pipeline.exists(q.toKey(jobId(it.articleId, it.round)));
      const replies = (await pipeline.exec()) ?? [];
      chunk.forEach((it, k) => {
        const [err, found] = replies[k] ?? [new Error('no reply'), 0];
        if (err) throw err;
        if (found === 0) missing.push(it);
      });
    }
    return missing;
  }

  async isPaused(serverId: number): Promise<boolean> {
    return await this.queue(serverId).isPaused();
  }

  /** The server's limit on jobs in flight across all processes: enough to fill its calls (jobsAtOnce). */
  async setConcurrency(server: { id: number; concurrency: number; batchSize?: number }): Promise<void> {
    await this.queue(server.id).setGlobalConcurrency(jobsAtOnce(server));
  }

  async pause(serverId: number): Promise<void> {
    await this.queue(serverId).pause();
  }

  async resume(serverId: number): Promise<void> {
    await this.queue(serverId).resume();
  }

  /** How many of the server's jobs Redis holds (not finished: waiting, running, delayed, paused). */
  async jobsHeld(serverId: number): Promise<number> {
    const counts = await this.queue(serverId).getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
    return Object.values(counts).reduce((sum, n) => sum + n, 0);
  }

  async counts(serverId: number): Promise<Record<string, number>> {
    return await this.queue(serverId).getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed', 'prioritized');
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.queues.clear();
  }
}
