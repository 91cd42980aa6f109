// Operational read-outs for organisers: Prometheus text at /metrics (queue depths per
// server, plus this process's attempts, response times and requests in flight).
// Organiser-only: it names every team's servers. Prometheus sends the organiser token
// with `authorization: { credentials: … }`. (A challenge's reliability overview is in
// reliability/routes.ts.)
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Gauge, Registry } from 'prom-client';
import type { AppContext } from '../app-context.ts';
import { responses, TextBody } from '../http/schemas.ts';
import { dispatchMetrics } from '../dispatch/dispatch-metrics.ts';
import { QUEUE_WAIT_MS } from '../dispatch/service.ts';
import { withinTime } from '../shared/timeout.ts';

const QUEUE_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'failed'] as const;

/** Queue depths are read from Redis at scrape time, so they hold across all worker processes. */
function queueRegistry(ctx: AppContext): Registry {
  const registry = new Registry();
  new Gauge({
    name: 'metaserver_queue_jobs',
    help: "Jobs in each annotation server's queue, by state (read from Redis when scraped).",
    labelNames: ['server', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      // Left out while Redis is down or silent: a scrape must not hang on it (and says so by their absence).
      if (!ctx.dispatch.redisReady()) return;
      const servers = await ctx.repos.servers.listAll();
      const read = Promise.all(servers.map(async (s) => [s.id, await ctx.dispatch.queues.counts(s.id)] as const));
      for (const [id, counts] of (await withinTime(read, QUEUE_WAIT_MS, null)) ?? []) {
        for (const state of QUEUE_STATES) this.labels(String(id), state).set(counts[state] ?? 0);
      }
    },
  });
  return registry;
}

export function observabilityRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const queues = queueRegistry(ctx);

    app.get(
      '/metrics',
      {
        schema: {
          tags: ['operations'],
          summary: 'Prometheus metrics (organiser)',
          response: responses({ 200: TextBody('text/plain', 'Prometheus text exposition format') }),
        },
        config: { access: 'admin' },
      },
      async (_request, reply) => {
        const text = (await queues.metrics()) + (await dispatchMetrics.registry.metrics());
        return reply.type(dispatchMetrics.registry.contentType).send(text);
      },
    );
  };
}
