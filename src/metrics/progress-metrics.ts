// Whether dispatch is progressing, as series to alert on (docs/alert-rules.md): the called
// servers that owe pairs with no attempt ended for longer than their deadline and back-off
// allow (one query at scrape time), and what the reconciler found missing from the queues.
import { Counter, Gauge, Registry } from 'prom-client';
import type { DispatchProgress } from '../dispatch/progress.ts';
import type { JobShortfall } from '../dispatch/job-shortfall.ts';
import { withinTime } from '../shared/timeout.ts';

/** How long the progress query may take: a scrape must not hang on a database that does not answer. */
const QUERY_WAIT_MS = 2000;

export interface ProgressMetricsDeps {
  progress(): Promise<DispatchProgress>;
  shortfall: Pick<JobShortfall, 'pairsWithoutJob' | 'queueRepairs'>;
}

export function progressRegistry({ progress, shortfall }: ProgressMetricsDeps): Registry {
  const registry = new Registry();
  new Gauge({
    name: 'metaserver_dispatch_stalled_servers',
    help: 'Called servers of running challenges that owe pairs and had no attempt end for longer than their deadline, back-off and the reconciler allow (the last value read while the database does not answer).',
    registers: [registry],
    async collect() {
      const read = progress().then(
        (p) => p,
        () => null,
      );
      const got = await withinTime(read, QUERY_WAIT_MS, null);
      if (got) this.set(got.stalled.length);
    },
  });
  new Gauge({
    name: 'metaserver_dispatch_pairs_without_job',
    help: "Pairs the database holds unsettled with no job in Redis, at this process's latest reconciliation (their jobs are then made again).",
    registers: [registry],
    collect() {
      this.set(shortfall.pairsWithoutJob);
    },
  });
  new Counter({
    name: 'metaserver_dispatch_queue_repairs_total',
    help: "Times this process's reconciler found a server's queue short of jobs and made them again.",
    registers: [registry],
    collect() {
      this.reset();
      if (shortfall.queueRepairs > 0) this.inc(shortfall.queueRepairs);
    },
  });
  return registry;
}
