// The queue consumers of one process: a BullMQ Worker per annotation server. The list of
// servers is re-read every few seconds and whenever a change is announced over Redis, so
// worker processes on other machines pick up new servers without a restart.
//
// The work is spread over the worker processes. Every pool registers itself in Redis (a
// sorted set of heartbeats) and, from the same lists of live pools and servers, each works
// out which pools consume which server (`shareOut`): min(pools, concurrency) of them, each
// making at most ceil(concurrency / consumers) requests at once, balanced so that the pools
// hold about the same share of all requests. A server that takes one request at a time is
// served by one process, and different servers by different processes; BullMQ's global
// concurrency still holds each server's limit while pools come and go. Without this, the
// process that first took a server's slots kept them for good (a worker that finishes a job
// fetches the next one in the same Redis call): measured, with servers answering in 20 ms,
// one of four processes made all 10,000 requests while the other three polled.
import { createHash, randomUUID } from 'node:crypto';
import type { Worker } from 'bullmq';
import { createQueueWorker, type WorkerOutage } from '../queue/worker.ts';
import { connectRedis, type RedisConnection } from '../queue/redis-connection.ts';
import type { Logger } from '../log.ts';
import { DISPATCH_WORKER_OPTIONS, queueName, type DispatchJob } from './queues.ts';
import type { JobPerformer } from './perform.ts';
import { withinTime } from '../shared/timeout.ts';

export const SERVERS_CHANGED_CHANNEL = 'servers-changed';
/** The sorted set of live pools: member = pool id, score = its last heartbeat (ms, Redis's clock). */
export const POOLS_KEY = 'worker-pools';

/** KEYS[1] the pools set, ARGV[1] this pool, ARGV[2] how old (ms) a heartbeat may be: the live pools' ids. */
const HEARTBEAT_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
return redis.call('ZRANGE', KEYS[1], 0, -1)`;

/** How many of a server's `concurrency` slots each of its `consumers` may hold at once. */
export function concurrencyShare(concurrency: number, consumers: number): number {
  return Math.max(1, Math.ceil(concurrency / Math.max(1, consumers)));
}

/** A server and how many requests it takes at once, across all processes. */
export interface ServerSlots {
  id: number;
  concurrency: number;
  /** Articles per call (1 when absent): a pool holds share × batchSize jobs to fill its calls. */
  batchSize?: number;
}

/** A pool's tie-breaking weight for a server: every pool computes the same from the same ids. */
function weight(serverId: number, poolId: string): number {
  return createHash('sha256').update(`${serverId}\u0000${poolId}`).digest().readUInt32BE(0);
}

/**
 * Shares the servers out between the live pools: pool id → (server id → how many of its
 * requests that pool makes at once). Each server gets min(pools, concurrency) consumers,
 * each with ceil(concurrency / consumers); servers are placed one by one, those taking the
 * most requests first, on the pools holding the least so far (ties by a hash of server and
 * pool), so that the pools end with about the same share of all requests. A pure function
 * of the two lists, so every pool reaches the same answer without talking to the others.
 */
export function shareOut(servers: readonly ServerSlots[], pools: readonly string[]): Map<string, Map<number, number>> {
  const ids = [...new Set(pools)].sort();
  const shares = new Map(ids.map((id) => [id, new Map<number, number>()]));
  if (ids.length === 0) return shares;
  const load = new Map(ids.map((id) => [id, 0]));
  const order = [...servers].sort((a, b) => b.concurrency - a.concurrency || a.id - b.id);
  for (const server of order) {
    const concurrency = Math.max(1, server.concurrency);
    const consumers = Math.min(ids.length, concurrency);
    const chosen = ids
      .map((id) => ({ id, load: load.get(id)!, w: weight(server.id, id) }))
      .sort((a, b) => a.load - b.load || b.w - a.w || (a.id < b.id ? -1 : 1))
      .slice(0, consumers);
    for (const pool of chosen) {
      shares.get(pool.id)!.set(server.id, concurrencyShare(concurrency, consumers));
      load.set(pool.id, pool.load + concurrency / consumers);
    }
  }
  return shares;
}

export interface WorkerPoolOptions {
  redisUrl: string;
  /** A Redis Cluster: queue names are hash-tagged (queues.ts). */
  cluster?: boolean;
  prefix: string;
  lockDurationMs: number;
  stalledIntervalMs: number;
  syncIntervalMs: number;
  log: Logger;
  performer: JobPerformer;
  /** A job of the server finished, stored or failed (its queue window is topped up). */
  jobSettled?: (serverId: number) => void;
  /** The servers to consume for, with their concurrency. */
  listServers(): Promise<ServerSlots[]>;
  /** Where the workers' Redis connection errors go (one warning while an outage lasts). */
  outage?: WorkerOutage;
}

export class WorkerPool {
  private readonly workers = new Map<number, Worker<DispatchJob>>();
  /** How many calls this pool makes at once to each server it consumes (its share of the server's concurrency). */
  private readonly callSlots = new Map<number, number>();
  /** Workers of servers this pool no longer consumes, finishing the requests they have in flight. */
  private readonly releasing = new Set<Worker<DispatchJob>>();
  readonly id = randomUUID();
  /** The live pools' ids as last read (this one included). */
  private pools: string[] = [this.id];
  /**
   * One command connection for every queue worker of this process (each worker still gets a
   * blocking connection of its own from BullMQ): a connection per server cost memory per
   * server — BullMQ defines its ~50 Lua scripts on every connection. BullMQ leaves a
   * connection it was given open on close; we close it ourselves, last.
   */
  private connection: RedisConnection | undefined;
  private timer: NodeJS.Timeout | undefined;
  private subscriber: RedisConnection | undefined;
  private syncing: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly opts: WorkerPoolOptions) {}

  async start(): Promise<void> {
    const target = { url: this.opts.redisUrl, cluster: this.opts.cluster ?? false };
    this.connection = connectRedis(target, { maxRetriesPerRequest: null });
    this.connection.on('error', () => {}); // reported through the workers' own error events
    this.connection.on('ready', () => this.opts.outage?.recovered());
    await this.sync();
    // The others share the servers out again now rather than at their next sync.
    await this.connection.publish(`${this.opts.prefix}:${SERVERS_CHANGED_CHANNEL}`, 'pool started');
    this.timer = setInterval(() => void this.sync(), this.opts.syncIntervalMs);
    this.timer.unref();
    // A cluster delivers a message published on any node to subscribers on every node.
    this.subscriber = connectRedis(target, { maxRetriesPerRequest: null });
    this.subscriber.on('error', (err: Error) => this.opts.log.warn({ err: err.message }, 'Redis subscriber connection problem; retrying'));
    await this.subscriber.subscribe(`${this.opts.prefix}:${SERVERS_CHANGED_CHANNEL}`);
    this.subscriber.on('message', () => void this.sync());
  }

  /** Re-reads the servers; runs one at a time, and again if asked while running. */
  sync(): Promise<void> {
    if (this.syncing) return this.syncing.then(() => this.sync());
    this.syncing = this.reconcile()
      .catch((err: Error) => this.opts.log.warn({ err: err.message }, 'could not refresh the list of annotation servers; will retry'))
      .finally(() => {
        this.syncing = undefined;
      });
    return this.syncing;
  }

  /**
   * Renews this pool's heartbeat, forgets pools whose heartbeat is older than three sync
   * intervals (a process that was killed), and lists the rest. Redis's clock, not this
   * machine's: worker processes on several machines need not agree on the time.
   */
  private async livePools(): Promise<string[]> {
    const reply = await this.connection!.eval(
      HEARTBEAT_SCRIPT,
      1,
      `${this.opts.prefix}:${POOLS_KEY}`,
      this.id,
      3 * this.opts.syncIntervalMs,
    );
    const ids = Array.isArray(reply) ? (reply as string[]) : [];
    // The script has just added this pool, so it is in the list; kept certain all the same.
    return ids.includes(this.id) ? ids : [...ids, this.id];
  }

  private async reconcile(): Promise<void> {
    if (this.closed) return;
    // Redis unreachable or slow: go on with the last list rather than hold the sync up.
    const [servers, pools] = await Promise.all([this.opts.listServers(), withinTime(this.livePools(), 2000, this.pools)]);
    if (pools.length !== this.pools.length)
      this.opts.log.info(
        { pools: pools.length, previously: this.pools.length },
        'worker processes changed; the servers are shared out again',
      );
    this.pools = pools;
    const listed = new Set(servers.map((s) => s.id));
    const wanted = shareOut(servers, pools).get(this.id)!; // livePools always lists this pool
    const batchSizes = new Map(servers.map((s) => [s.id, Math.max(1, s.batchSize ?? 1)]));
    for (const [id, calls] of wanted) {
      // Calls at once is the server's limit; jobs at once fill those calls (batch-caller.ts).
      this.callSlots.set(id, calls);
      const concurrency = calls * batchSizes.get(id)!;
      const existing = this.workers.get(id);
      if (existing) {
        if (existing.concurrency !== concurrency) existing.concurrency = concurrency;
        continue;
      }
      this.workers.set(id, this.createWorker(id, concurrency));
    }
    for (const [id, worker] of this.workers) {
      if (wanted.has(id)) continue;
      this.workers.delete(id);
      if (!listed.has(id)) {
        await this.closeWorker(worker); // the server is gone
        continue;
      }
      // Another pool consumes it now: stop taking its jobs, and let the requests in flight
      // finish without holding this sync up (they may take minutes).
      this.releasing.add(worker);
      void this.closeWorker(worker)
        .catch((err: Error) => this.opts.log.warn({ serverId: id, err: err.message }, 'could not stop a queue worker cleanly'))
        .finally(() => this.releasing.delete(worker));
    }
  }

  private createWorker(serverId: number, concurrency: number): Worker<DispatchJob> {
    const { log, performer } = this.opts;
    const connection = this.connection!;
    const worker = createQueueWorker<DispatchJob>({
      queue: queueName(serverId, this.opts.cluster),
      process: async (job, token, signal) => await performer.perform(job, signal, token, this.callSlots.get(serverId) ?? 1),
      connection,
      prefix: this.opts.prefix,
      concurrency,
      lockDurationMs: this.opts.lockDurationMs,
      stalledIntervalMs: this.opts.stalledIntervalMs,
      log,
      problem: 'queue worker problem',
      logFields: { serverId },
      more: DISPATCH_WORKER_OPTIONS,
      outage: this.opts.outage,
    });
    const settled = this.opts.jobSettled;
    if (settled) {
      worker.on('completed', () => settled(serverId));
      worker.on('failed', () => settled(serverId));
    }
    return worker;
  }

  private async closeWorker(worker: Worker<DispatchJob>): Promise<void> {
    await worker.close();
  }

  /**
   * Stops taking jobs and lets the requests in flight finish. With a grace period, requests
   * still running when it ends are cancelled: each job is handed back to the queue unblamed
   * (see JobPerformer) and another worker takes it at once. Without one, it waits for them all.
   */
  async close(graceMs?: number): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.syncing;
    const workers = [...this.workers.values(), ...this.releasing];
    const closing = Promise.all(workers.map((w) => this.closeWorker(w)));
    if (graceMs !== undefined) {
      // A failed close is not the grace period ending: the await below reports it.
      const finished = await withinTime(
        closing.then(
          () => true,
          () => true,
        ),
        graceMs,
        false,
      );
      if (!finished) {
        this.opts.log.info({ graceMs }, 'shutdown grace period over; handing the requests still in flight back to the queue');
        for (const w of workers) w.cancelAllJobs('the worker is shutting down');
      }
    }
    await closing;
    this.workers.clear();
    // Leave the registry, so the others take this pool's servers at once (best effort: a
    // heartbeat left behind expires after three sync intervals).
    if (this.connection) {
      const leaving = this.connection
        .multi()
        .zrem(`${this.opts.prefix}:${POOLS_KEY}`, this.id)
        .publish(`${this.opts.prefix}:${SERVERS_CHANGED_CHANNEL}`, 'pool stopped')
        .exec();
      await withinTime(leaving, 1000, null);
    }
    this.connection?.disconnect();
    this.connection = undefined;
    this.subscriber?.disconnect();
  }

  /** How many servers this process consumes. */
  get size(): number {
    return this.workers.size;
  }

  /** How many of the server's requests this process makes at once at most (its share); undefined when another process consumes it. */
  concurrencyOf(serverId: number): number | undefined {
    return this.workers.get(serverId)?.concurrency;
  }
}
