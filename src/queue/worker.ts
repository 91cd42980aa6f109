// The one way this project makes a BullMQ worker (dispatch's per-server queues, the
// callbacks queue): the installation's key prefix, lock and stall timing from the
// configuration, and connection trouble logged as a warning — BullMQ reconnects by itself,
// and an unhandled 'error' event would end the process.
import { Worker, type Processor, type WorkerOptions } from 'bullmq';
import type { RedisConnection } from './redis-connection.ts';
import type { Logger } from '../log.ts';

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
  worker.on('error', (err) => opts.log.warn({ ...opts.logFields, err: err.message }, `${opts.problem}; it retries by itself`));
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
  worker.on('error', (err) => opts.log.warn({ ...opts.logFields, err: err.message }, `${opts.problem}; it retries by itself`));
  void worker
    .startStalledCheckTimer()
    .catch((err: Error) => opts.log.warn({ ...opts.logFields, err: err.message }, `${opts.problem}: the stalled check did not start`));
  return worker;
}
