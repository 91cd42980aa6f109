// Operational read-outs for organisers: Prometheus text at /metrics (queue depths per
// server, plus this process's attempts, response times and requests in flight) and the
// reliability overview of a challenge. Both are organiser-only: they name every team's
// servers. Prometheus sends the organiser token with `authorization: { credentials: … }`.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Gauge, Registry } from 'prom-client';
import type { AppContext } from '../app-context.ts';
import { notFound } from '../http/api-error.ts';
import { Type } from 'typebox';
import { Described, Open, responses, SlugParams, TextBody } from '../http/schemas.ts';
import { challengeReliability } from '../reliability/load.ts';
import { dispatchMetrics } from './dispatch-metrics.ts';
import { QUEUE_WAIT_MS } from '../dispatch/service.ts';
import { withinTime } from '../shared/timeout.ts';

const QUEUE_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'failed'] as const;

/** Queue depths are read from Redis at scrape time, so they hold across all worker processes. */
function queueRegistry(ctx: AppContext): Registry {
  const registry = new Registry();
  new Gauge({
    name: 'metaserver_queue_jobs',
    help: 'Jobs in each annotation server\'s queue, by state (read from Redis when scraped).',
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

    app.get('/metrics', { schema: { tags: ['operations'], summary: 'Prometheus metrics (organiser)', response: responses({ 200: TextBody('text/plain', 'Prometheus text exposition format') }) }, config: { access: 'admin' } }, async (_request, reply) => {
      const text = (await queues.metrics()) + (await dispatchMetrics.registry.metrics());
      return reply.type(dispatchMetrics.registry.contentType).send(text);
    });

    app.get(
      '/api/challenges/:slug/reliability',
      { schema: { tags: ['operations'], summary: 'Reliability figures of every server of a challenge (organiser)', params: SlugParams, response: responses({ 200: Open({ challenge: Type.String(), servers: Described('the reliability figures of each server (src/reliability)') }) }) }, config: { access: 'admin' } },
      async (request) => {
        const challenge = await ctx.repos.challenges.bySlug(request.params.slug);
        if (!challenge) throw notFound(`challenge "${request.params.slug}"`);
        return { challenge: challenge.slug, servers: await challengeReliability(ctx.db, challenge.id) };
      },
    );
  };
}
