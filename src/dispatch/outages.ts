// The outages this process meets, each a Condition (shared/condition.ts): one warning when
// it starts and one summary when it ends, not a line per job; /metrics reads their state
// and counts. Built once per process by the composition root.
import type { Logger } from '../log.ts';
import { Condition } from '../shared/condition.ts';

export interface Outages {
  /** Our database unreachable for dispatch: each job that meets it is put back, unblamed. */
  database: Condition;
  /** Redis refusing the process's shared connection (it reconnects by itself). */
  redis: Condition;
  /** Redis refusing the queue workers' connections: every worker reports each reconnection, the log says it once. */
  queueWorkers: Condition;
}

export function createOutages(log: Logger, now?: () => number): Outages {
  return {
    database: new Condition({
      name: 'database unreachable',
      meanwhile: 'requests are put back and made again later, not counted against the servers',
      repeats: 'requests put back',
      log,
      now,
    }),
    redis: new Condition({
      name: 'Redis unreachable',
      meanwhile: 'the connection retries by itself; queue changes are stored and reach the queues once it answers',
      repeats: 'connection errors',
      log,
      now,
    }),
    queueWorkers: new Condition({
      name: "Redis unreachable for this process's queue workers",
      meanwhile: 'each worker reconnects by itself; the jobs wait in Redis and no server is blamed',
      repeats: 'worker connection errors',
      log,
      now,
    }),
  };
}
