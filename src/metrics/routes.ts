// Operational read-outs for organisers: Prometheus text at /metrics (queue depths per
// server, plus this process's attempts, response times and requests in flight).
// Organiser-only: it names every team's servers. Prometheus sends the organiser token
// with `authorization: { credentials: … }`. (A challenge's reliability overview is in
// reliability/routes.ts.)
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Gauge, Registry } from 'prom-client';
import { responses, TextBody } from '../http/schemas.ts';
import type { RouteHandler } from '../http/route-types.ts';
import { dispatchMetrics } from '../dispatch/dispatch-metrics.ts';
import type { DispatchQueues } from '../dispatch/queues.ts';
import { QUEUE_WAIT_MS, type DispatchService } from '../dispatch/service.ts';
import type { ServerRepository } from '../servers/repository.ts';
import { withinTime } from '../shared/timeout.ts';
import type { Outages } from '../dispatch/outages.ts';
import type { UnsettledRepository } from '../dispatch/unsettled-repository.ts';
import { conditionRegistry } from './condition-metrics.ts';
import { progressRegistry } from './progress-metrics.ts';
import type { DispatchProgress } from '../dispatch/progress.ts';
import type { JobShortfall } from '../dispatch/job-shortfall.ts';

/**
 * What /metrics reads, handed over by the composition root: every server, and its queue's
 * counts while Redis is up; this process's outages; the oldest pair still owed.
 */
export interface MetricsRouteDeps {
  servers: Pick<ServerRepository, 'listAll'>;
  dispatch: Pick<DispatchService, 'redisReady'> & {
    queues: Pick<DispatchQueues, 'counts'>;
    shortfall: Pick<JobShortfall, 'pairsWithoutJob' | 'queueRepairs'>;
  };
  outages: Outages;
  unsettled: Pick<UnsettledRepository, 'oldestAgeSeconds'>;
  /** Whether every called server owing pairs has had an attempt end recently. */
  progress(): Promise<DispatchProgress>;
  diskFull(): boolean;
}

const QUEUE_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'failed'] as const;

const Metrics = {
  tags: ['operations'],
  summary: 'Prometheus metrics (organiser)',
  response: responses({ 200: TextBody('text/plain', 'Prometheus text exposition format') }),
};

/** Queue depths are read from Redis at scrape time, so they hold across all worker processes. */
function queueRegistry({ servers, dispatch }: MetricsRouteDeps): Registry {
  const registry = new Registry();
  new Gauge({
    name: 'metaserver_queue_jobs',
    help: "Jobs in each annotation server's queue, by state (read from Redis when scraped).",
    labelNames: ['server', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      // Left out while Redis is down or silent: a scrape must not hang on it (and says so by their absence).
      if (!dispatch.redisReady()) return;
      const all = await servers.listAll();
      const read = Promise.all(all.map(async (s) => [s.id, await dispatch.queues.counts(s.id)] as const));
      for (const [id, counts] of (await withinTime(read, QUEUE_WAIT_MS, null)) ?? []) {
        for (const state of QUEUE_STATES) this.labels(String(id), state).set(counts[state] ?? 0);
      }
    },
  });
  return registry;
}

/** The queue gauges of every server, whether the stores are up, then this process's dispatch metrics. */
function metricsHandler(queues: Registry, conditions: Registry, progress: Registry): RouteHandler<typeof Metrics> {
  return async (_request, reply) => {
    const text =
      (await queues.metrics()) + (await conditions.metrics()) + (await progress.metrics()) + (await dispatchMetrics.registry.metrics());
    return reply.type(dispatchMetrics.registry.contentType).send(text);
  };
}

export function observabilityRoutes(deps: MetricsRouteDeps): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/metrics',
      { schema: Metrics, config: { access: 'admin' } },
      metricsHandler(
        queueRegistry(deps),
        conditionRegistry(deps),
        progressRegistry({ progress: () => deps.progress(), shortfall: deps.dispatch.shortfall }),
      ),
    );
  };
}
