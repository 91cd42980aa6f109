// Redis restarted in the middle of a run (its own redis-server with an append-only file, so
// the queues survive): every (article, server) still ends done, each answer stored once,
// and no job is left behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.ts';
import { startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';
import { annotate } from '../../src/sample/annotator.ts';

const ARTICLES = 30;
let redis: PrivateRedis;
let ms: TestMetaserver;
let server: FaultyServer;

beforeAll(async () => {
  redis = await startPrivateRedis();
  ms = await startTestMetaserver({ config: { redisUrl: redis.url } });
});
afterAll(async () => {
  await ms?.stop();
  await server?.close();
  await redis?.stop();
});

describe('Redis restarted during a run', () => {
  it('every article still ends done, each answer stored exactly once', async () => {
    server = await startFaultyServer({
      kind: 'custom',
      handler: async (text, given) => {
        await new Promise((r) => setTimeout(r, 20));
        return annotate(text, given);
      },
    });
    await ms.challenge('redis', { name: 'Redis', timeoutSeconds: 5, maxAttempts: 3, retryDelaySeconds: 1 });
    const articles = Array.from({ length: ARTICLES }, (_, i) => ({ id: `R${i}`, text: `Article ${i}: BRCA1 (P38398) binds TP53.` }));
    await ms.articles('redis', articles);
    const token = (await ms.team('Redis team')).token;
    const id = (await ms.server('redis', token, { name: 'steady', url: server.url, concurrency: 2 })).id as number;
    await ms.startServer(id, token);
    const db = ms.database.db;
    const done = async () =>
      (await db.query<{ n: number }>(`select count(*)::int as n from deliveries where server_id = $1 and state = 'done'`, [id]))[0].n;
    await waitFor('a few answers before the restart', async () => ((await done()) >= 3 ? true : undefined));
    await redis.restart();
    await waitFor(
      'every answer after the restart',
      async () => {
        if ((await done()) !== ARTICLES) return undefined;
        const c = await ms.ctx.dispatch.queues.counts(id);
        return c.active + c.waiting + c.delayed + c.prioritized === 0 ? true : undefined;
      },
      90_000,
    );
    const counts = await db.query<{ n: number }>('select count(*)::int as n from answers where server_id = $1 group by article_id', [id]);
    expect(counts).toHaveLength(ARTICLES);
    expect(counts.every((c) => c.n === 1)).toBe(true);
    expect(await db.query(`select 1 from deliveries where server_id = $1 and state <> 'done'`, [id])).toHaveLength(0);
  }, 120_000);
});
