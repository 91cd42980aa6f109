// The one way this project makes a BullMQ worker (dispatch's per-server queues, the
// callbacks queue): the installation's key prefix, lock and stall timing from the
// configuration, and connection trouble logged — BullMQ reconnects by itself, and an
// unhandled 'error' event would end the process. Redis down makes every worker of the
// process report each reconnection; given the process's outage, they are one warning while
// it lasts and a summary when it is over, not a line per worker per second.
import { Job, Worker, type JobJson, type Processor, type WorkerOptions } from 'bullmq';
import type { RedisConnection } from './redis-connection.ts';
import type { Logger } from '../log.ts';
import { isRedisConnectionError } from './connection-errors.ts';

/** An outage a worker reports to (shared/condition.ts's Condition is one). */
export interface WorkerOutage {
  failed(fields: Record<string, unknown>): void;
  recovered(): void;
}

export interface QueueWorkerOptions<T> {
  queue: string;
  process: Processor<T>;
  /** A blocking connection of the worker's own (BullMQ needs maxRetriesPerRequest: null). */
  connection: RedisConnection;
  prefix: string;
  concurrency: number;
  lockDurationMs: number;
  stalledIntervalMs: number;
  /** What the worker's trouble is called in the log, with fields to say whose it is. */
  log: Logger;
  problem: string;
  logFields?: Record<string, unknown>;
  /** More BullMQ options (stall count, back-off strategy). */
  more?: Pick<WorkerOptions, 'maxStalledCount' | 'settings'>;
  /** The process's Redis outage for its workers: connection errors go there instead of a warning each. */
  outage?: WorkerOutage;
}

/** Events that say the worker's connection answers again: it moved a job, or found its queue empty. */
const REDIS_ANSWERED = ['active', 'completed', 'failed', 'drained'] as const;

function reportTrouble<T>(worker: Worker<T>, opts: Omit<QueueWorkerOptions<T>, 'process' | 'concurrency'>): void {
  const { outage, log, logFields, problem } = opts;
  worker.on('error', (err) => {
    if (outage && isRedisConnectionError(err)) outage.failed({ ...logFields, queue: opts.queue, err: err.message });
    else log.warn({ ...logFields, err: err.message }, `${problem}; it retries by itself`);
  });
  if (outage) for (const event of REDIS_ANSWERED) worker.on(event, () => outage.recovered());
}

export function createQueueWorker<T>(opts: QueueWorkerOptions<T>): Worker<T> {
  const worker = new Worker<T>(opts.queue, opts.process, {
    connection: opts.connection,
    prefix: opts.prefix,
    concurrency: opts.concurrency,
    lockDuration: opts.lockDurationMs,
    stalledInterval: opts.stalledIntervalMs,
    ...opts.more,
  });
  reportTrouble(worker, opts);
  return worker;
}

/**
 * A worker that runs no processor: the code holding it fetches jobs itself (getNextJob with
 * a token of its own) and completes or fails them with that token — the pull protocol's
 * leases (src/pull). Its stalled check runs, so the job of a lease whose lock ran out
 * (every process holding leases was down) goes back to the queue.
 */
export function createManualWorker<T>(opts: Omit<QueueWorkerOptions<T>, 'process' | 'concurrency'>): Worker<T> {
  const worker = new Worker<T>(opts.queue, undefined, {
    connection: opts.connection,
    prefix: opts.prefix,
    lockDuration: opts.lockDurationMs,
    stalledInterval: opts.stalledIntervalMs,
    autorun: false,
    ...opts.more,
  });
  reportTrouble(worker, opts);
  void worker
    .startStalledCheckTimer()
    .catch((err: Error) => opts.log.warn({ ...opts.logFields, err: err.message }, `${opts.problem}: the stalled check did not start`));
  return worker;
}

/**
 * The job a settling call fetched (BullMQ's fetchNext: moveToCompleted/moveToFailed take the
 * next job in the same script, under the settled job's lock token), as getNextJob would have
 * made it (BullMQ's own worker does the same with what the call answers).
 */
export function fetchedJob<T>(worker: Worker<T>, fetched: unknown, token: string): Job<T> | undefined {
  if (!Array.isArray(fetched) || !fetched[0]) return undefined;
  const [jobData, jobId] = fetched as [JobJson, string];
  const job = Job.fromJSON<T>(worker, jobData, jobId);
  job.token = token;
  return job;
}

/**
 * BullMQ's extendLock that also hands the lock to a new token: the job keeps its lock (from
 * `from`, the token that fetched it) under `to` for `ms`, and leaves the stalled set. 0 when
 * the lock is no longer `from`'s. Lock and stalled keys share the queue's hash slot.
 */
const HAND_OVER_LOCK_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  redis.call('SREM', KEYS[2], ARGV[4])
  return 1
end
return 0`;

export async function handOverLock<T>(
  redis: RedisConnection,
  worker: Worker<T>,
  job: Job<T>,
  lock: { from: string; to: string; ms: number },
): Promise<boolean> {
  const { from, to, ms } = lock;
  const done = await redis.eval(HAND_OVER_LOCK_SCRIPT, 2, `${worker.toKey(job.id!)}:lock`, worker.keys.stalled, from, to, ms, job.id!);
  if (done === 1) job.token = to;
  return done === 1;
}
