// Whether dispatch is progressing, as series to alert on (docs/alert-rules.md): the called
// servers that owe pairs with no attempt ended for longer than their deadline and back-off
// allow (one query at scrape time), and what the reconciler found missing from the queues.
import { Gauge, Registry } from 'prom-client';
import type { DispatchProgress } from '../dispatch/progress.ts';
import type { JobShortfall } from '../dispatch/job-shortfall.ts';
import { queriedGauge, readCounter } from './condition-metrics.ts';

export interface ProgressMetricsDeps {
  progress(): Promise<DispatchProgress>;
  shortfall: Pick<JobShortfall, 'pairsWithoutJob' | 'queueRepairs'>;
}

export function progressRegistry({ progress, shortfall }: ProgressMetricsDeps): Registry {
  const registry = new Registry();
  queriedGauge(
    registry,
    'metaserver_dispatch_stalled_servers',
    'Called servers of running challenges that owe pairs and had no attempt end for longer than their deadline, back-off and the reconciler allow (the last value read while the database does not answer).',
    async () => (await progress()).stalled.length,
  );
  new Gauge({
    name: 'metaserver_dispatch_pairs_without_job',
    help: "Pairs the database holds unsettled with no job in Redis, at this process's latest reconciliation (their jobs are then made again).",
    registers: [registry],
    collect() {
      this.set(shortfall.pairsWithoutJob);
    },
  });
  readCounter(
    registry,
    'metaserver_dispatch_queue_repairs_total',
    "Times this process's reconciler found a server's queue short of jobs and made them again.",
    () => shortfall.queueRepairs,
  );
  return registry;
}
