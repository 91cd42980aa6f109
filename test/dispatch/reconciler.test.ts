// What the database holds reaches the queues whatever died when. A process starting finds
// articles committed by an API that died before queueing them (a load and an on-demand
// submission), and deliveries whose jobs Redis lost (its data gone), and queues them: every
// article is answered, each once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { ArticleRepository } from '../../src/articles/repository.ts';
import { LIVE_SLUG } from '../../src/challenges/repository.ts';
import type { Config } from '../../src/config.ts';
import { jobId } from '../../src/dispatch/queues.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.ts';
import {
  openTestDatabase,
  startTestMetaserver,
  testDatabaseKinds,
  waitFor,
  type TestDatabase,
  type TestMetaserver,
} from '../support/runtime.ts';

describe.each(testDatabaseKinds())('the reconciler (%s)', (kind) => {
  let redis: PrivateRedis;
  let database: TestDatabase;
  let server: FaultyServer;
  let ms: TestMetaserver | undefined;
  const prefix = `rec${kind}`;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    database = await openTestDatabase(kind);
    server = await startFaultyServer({ kind: 'good' });
  });
  afterAll(async () => {
    await ms?.stop();
    await database?.drop();
    await redis?.stop();
    await server?.close();
  });

  const start = async (workers: boolean, config: Partial<Config> = {}) => {
    await ms?.stop();
    ms = await startTestMetaserver({ database, workers, config: { redisUrl: redis.url, queuePrefix: prefix, ...config } });
    return ms;
  };
  const settled = async (serverId: number, n: number) =>
    waitFor(
      `${n} articles answered by server ${serverId}`,
      async () => {
        const rows = await database.db.query<{ n: number }>(
          `select count(*)::int as n from deliveries where server_id = $1 and state = 'done'`,
          [serverId],
        );
        return rows[0].n === n ? true : undefined;
      },
      30_000,
    );
  const answeredOnce = async (serverId: number, n: number) => {
    const rows = await database.db.query<{ n: number }>('select count(*)::int as n from answers where server_id = $1 group by article_id', [
      serverId,
    ]);
    expect(rows).toHaveLength(n);
    expect(rows.every((r) => r.n === 1)).toBe(true);
  };

  it('a start queues the articles an API committed and died before queueing', async () => {
    const api = await start(false);
    const token = (await api.team('Rec')).token;
    await api.challenge('rec', { maxAttempts: 1 });
    const ids: number[] = [];
    for (const slug of ['rec', LIVE_SLUG]) {
      const id = (await api.server(slug, token, { name: `s-${slug}`, url: server.url })).id as number;
      await api.startServer(id, token);
      ids.push(id);
    }
    // What the routes commit before their queue step, and nothing more: a load and a submission.
    const articles = new ArticleRepository(database.db);
    const challenge = (await api.ctx.repos.challenges.bySlug('rec'))!;
    const live = (await api.ctx.repos.challenges.bySlug(LIVE_SLUG))!;
    await articles.insertMany(
      challenge.id,
      Array.from({ length: 8 }, (_, i) => ({
        organiserId: `C${i}`,
        text: `Committed ${i}: BRCA1 (P38398).`,
        sourceFormat: 'text',
        given: '',
      })),
    );
    const submitted = await articles.insertMany(live.id, [
      { organiserId: null, text: 'Submitted: TP53 (P04637).', sourceFormat: 'text', tasks: null, callbackUrl: null },
    ]);
    expect('ids' in submitted).toBe(true);
    expect(await database.db.query('select 1 from deliveries')).toHaveLength(0);

    await start(true);
    await settled(ids[0], 8);
    await settled(ids[1], 1);
    await answeredOnce(ids[0], 8);
    await answeredOnce(ids[1], 1);
  });

  it('a start queues again the unsettled deliveries whose jobs Redis lost', async () => {
    const api = await start(false);
    const token = (await api.team('Lost')).token;
    await api.challenge('lost', { maxAttempts: 1 });
    const articles = Array.from({ length: 10 }, (_, i) => ({ id: `L${i}`, text: `Lost ${i}: SNCA (P37840).` }));
    await api.articles('lost', articles);
    const id = (await api.server('lost', token, { name: 'lost', url: server.url })).id as number;
    // No worker runs: the jobs wait in Redis, the deliveries are queued.
    await api.startServer(id, token);
    expect((await api.ctx.dispatch.queues.counts(id)).waiting).toBe(10);
    // Redis loses its data (as when it restarts without its append-only file).
    const client = new Redis(redis.url);
    await client.flushall();
    client.disconnect();
    // (The queue window may already be filling again from the rows: it lost its cursor with the rest.)
    expect(await database.db.query(`select 1 from deliveries where server_id = $1 and state = 'queued'`, [id])).toHaveLength(10);

    await start(true);
    await settled(id, 10);
    await answeredOnce(id, 10);
  });

  it('a periodic pass queues again the unsettled deliveries whose jobs were dropped behind the window, Redis never restarted', async () => {
    // No pass but the ones asked for here; a window of 4, so the rest wait behind its cursor.
    const api = await start(false, { dispatchWindow: 4, reconcileIntervalMs: 600_000 });
    const token = (await api.team('Dropped')).token;
    await api.challenge('dropped', { maxAttempts: 1 });
    const loaded = await api.articles(
      'dropped',
      Array.from({ length: 10 }, (_, i) => ({ id: `D${i}`, text: `Dropped ${i}: SNCA (P37840).` })),
    );
    const id = (await api.server('dropped', token, { name: 'dropped', url: server.url, concurrency: 1 })).id as number;
    await api.startServer(id, token);
    await api.reconciler.run();
    const { queues } = api.ctx.dispatch;
    expect((await queues.counts(id)).waiting).toBe(4);
    // BullMQ drops the window's jobs (their attempts spent on a database refusing writes), one
    // delivery left under way and the others queued: the cursor is past all four.
    const first = ['D0', 'D1', 'D2', 'D3'].map((k) => ({ articleId: loaded.ids[k], round: 0 }));
    await queues.queue(id).drain();
    await database.db.query(`update deliveries set state = 'active' where server_id = $1 and article_id = $2`, [id, first[0].articleId]);
    expect(await queues.missingJobs(id, first)).toHaveLength(4);

    await api.reconciler.run();
    expect(await queues.missingJobs(id, first)).toEqual([]);
    expect(await queues.jobsHeld(id)).toBe(4);
    expect((await queues.queue(id).getJob(jobId(first[0].articleId, 0)))?.data).toEqual({ articleId: first[0].articleId, serverId: id });
    // And every pair then ends answered, each once.
    await start(true);
    await settled(id, 10);
    await answeredOnce(id, 10);
  });
});
