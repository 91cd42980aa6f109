import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../app-context.ts';

export function healthRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.get('/healthz', { schema: { tags: ['health'], summary: 'Whether Redis and the database answer' } }, async (_request, reply) => {
      const [redis, database] = await Promise.all([
        ctx.pingRedis().catch(() => false),
        ctx.db.query('select 1').then(() => true, () => false),
      ]);
      const body = {
        status: redis && database ? 'ok' : 'unavailable',
        redis: redis ? 'ok' : 'unreachable',
        database: database ? 'ok' : 'unreachable',
        uniprot: ctx.accessions ? ctx.accessions.release : null,
      };
      return reply.status(redis && database ? 200 : 503).send(body);
    });
  };
}
