import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { Described, Open, responses } from '../http/schemas.ts';
import { withinTime } from '../shared/timeout.ts';
import { lookupReleases } from '../families/lookups.ts';

/**
 * How long Redis and the database have to answer. The Redis connection queues commands
 * while it reconnects, so without a limit a check made while Redis is down would wait until
 * it is back, and so would everything polling /healthz.
 */
const CHECK_TIMEOUT_MS = 2000;

const Health = Open({
  status: Type.String({ description: 'ok, or unavailable (503) when Redis or the database does not answer' }),
  redis: Type.String({ description: 'ok or unreachable' }),
  database: Type.String({ description: 'ok or unreachable' }),
  uniprot: Described('the loaded UniProt release, or null'),
  indexes: Described('the release of each loaded lookup index'),
});

export function healthRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    /**
     * The check under way: requests that arrive meanwhile share it instead of sending a
     * ping and a query each (monitors and load balancers may poll many times a second), so
     * an answer is never older than one check.
     */
    let running: Promise<{ redis: boolean; database: boolean }> | undefined;
    const check = () =>
      (running ??= Promise.all([
        withinTime(ctx.pingRedis(), CHECK_TIMEOUT_MS, false),
        withinTime(ctx.repos.settings.ping(), CHECK_TIMEOUT_MS, false),
      ])
        .then(([redis, database]) => ({ redis, database }))
        .finally(() => {
          running = undefined;
        }));

    app.get(
      '/healthz',
      {
        schema: { tags: ['health'], summary: 'Whether Redis and the database answer', response: responses({ 200: Health, 503: Health }) },
        config: { access: 'public' },
      },
      async (_request, reply) => {
        const { redis, database } = await check();
        const body = {
          status: redis && database ? 'ok' : 'unavailable',
          redis: redis ? 'ok' : 'unreachable',
          database: database ? 'ok' : 'unreachable',
          uniprot: ctx.accessions ? ctx.accessions.release : null,
          indexes: lookupReleases(ctx.lookups),
        };
        return reply.status(redis && database ? 200 : 503).send(body);
      },
    );
  };
}
