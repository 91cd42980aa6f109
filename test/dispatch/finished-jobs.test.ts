// Finished jobs leave Redis: once the database holds a pair's outcome (answered, or failed for
// good), its job is gone from the queue, so a settled challenge leaves only the queues' own
// few keys. The database stays the record the reconciler works from: a process starting
// afterwards queues nothing again for the settled pairs, and still re-creates the job of a
// pair the database holds unsettled when Redis lost it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { EVENTS_KEPT, jobId } from '../../src/dispatch/queues.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.ts';
import { openTestDatabase, startTestMetaserver, waitFor, type TestDatabase, type TestMetaserver } from '../support/runtime.ts';

describe('finished jobs leave Redis', () => {
  let redis: PrivateRedis;
  let database: TestDatabase;
  let good: FaultyServer;
  let broken: FaultyServer;
  let ms: TestMetaserver | undefined;
  const prefix = 'finished';
  let token = '';
  const ids = { good: 0, broken: 0 };

  beforeAll(async () => {
    redis = await startPrivateRedis();
    database = await openTestDatabase();
    good = await startFaultyServer({ kind: 'good' });
    broken = await startFaultyServer({ kind: 'http', status: 500 });
  });
  afterAll(async () => {
    await ms?.stop();
    await database?.drop();
    await redis?.stop();
    await good?.close();
    await broken?.close();
  });

  const start = async (workers: boolean) => {
    await ms?.stop();
    ms = await startTestMetaserver({ database, workers, config: { redisUrl: redis.url, queuePrefix: prefix } });
    return ms;
  };
  const db = () => database.db;
  const count = async (sql: string, params: unknown[]) => (await db().query<{ n: number }>(sql, params))[0].n;
  const settledPairs = () => count(`select count(*)::int as n from deliveries where state in ('done', 'failed')`, []);
  const attempts = () => count('select count(*)::int as n from attempts', []);

  /** Every key of the installation's prefix, and those that are jobs (a job's hash, or its logs). */
  async function keys(): Promise<{ all: string[]; jobs: string[]; finishedSets: string[] }> {
    const client = new Redis(redis.url);
    try {
      const all = await client.keys(`${prefix}:*`);
      const jobs = all.filter((k) => /:server-\d+:[0-9a-f-]{36}_r\d+(:logs)?$/.test(k));
      const finishedSets = all.filter((k) => /:server-\d+:(completed|failed)$/.test(k));
      return { all, jobs, finishedSets };
    } finally {
      client.disconnect();
    }
  }

  it('a settled challenge leaves no finished job in Redis, answered or failed for good', async () => {
    const api = await start(true);
    token = (await api.team('Fin')).token;
    await api.challenge('fin', { maxAttempts: 2, retryDelaySeconds: 0 });
    ids.good = (await api.server('fin', token, { name: 'good', url: good.url })).id as number;
    ids.broken = (await api.server('fin', token, { name: 'broken', url: broken.url })).id as number;
    const articles = Array.from({ length: 6 }, (_, i) => ({ id: `F${i}`, text: `Finished ${i}: BRCA1 (P38398) binds TP53.` }));
    await api.articles('fin', articles);
    for (const id of [ids.good, ids.broken]) await api.startServer(id, token);

    await waitFor('12 settled pairs', async () => ((await settledPairs()) === 12 ? true : undefined), 30_000);
    expect(await count(`select count(*)::int as n from deliveries where server_id = $1 and state = 'done'`, [ids.good])).toBe(6);
    expect(await count(`select count(*)::int as n from deliveries where server_id = $1 and state = 'failed'`, [ids.broken])).toBe(6);
    // The last job may still be leaving as the database says it is settled.
    const left = await waitFor(
      'no job left in Redis',
      async () => {
        const k = await keys();
        return k.jobs.length === 0 ? k : undefined;
      },
      5_000,
    );
    expect(left.finishedSets).toEqual([]);
    for (const id of [ids.good, ids.broken])
      expect(await api.ctx.dispatch.queues.counts(id)).toMatchObject({ completed: 0, failed: 0, waiting: 0, active: 0, delayed: 0 });
    // What stays is each queue's own bookkeeping (meta, events, id counter…), not one key per job.
    expect(left.all.length).toBeLessThan(2 * 10);
    // …and its event stream is kept short (BullMQ's default is 10,000 events per queue).
    const client = new Redis(redis.url);
    expect(await client.hget(`${prefix}:server-${ids.good}:meta`, 'opts.maxLenEvents')).toBe(String(EVENTS_KEPT));
    client.disconnect();
  });

  it('a process starting afterwards queues nothing again for the settled pairs', async () => {
    const before = await attempts();
    const api = await start(true);
    const report = await api.reconciler.run();
    expect(report).not.toBeNull();
    expect(report!.enqueued + report!.restored).toBe(0);
    expect((await keys()).jobs).toEqual([]);
    for (const id of [ids.good, ids.broken])
      expect(await api.ctx.dispatch.queues.counts(id)).toMatchObject({ waiting: 0, active: 0, delayed: 0 });
    expect(await attempts()).toBe(before);
  });

  it('the reconciler still re-creates the job of an unsettled pair that Redis lost', async () => {
    // No worker runs: the new article's jobs wait in Redis, their deliveries are queued.
    const api = await start(false);
    const articleId = (await api.articles('fin', [{ id: 'LOST', text: 'Lost: SNCA (P37840).' }])).ids.LOST;
    // The route may answer before its queue step ends (Redis slow on a loaded machine).
    await waitFor(
      'the new job waiting',
      async () => ((await api.ctx.dispatch.queues.counts(ids.good)).waiting === 1 ? true : undefined),
      10_000,
    );
    // Redis loses that one job (as when it restarts and its last writes were not saved).
    expect(await api.ctx.dispatch.queues.queue(ids.good).remove(jobId(articleId, 0))).toBe(1);
    expect((await api.ctx.dispatch.queues.counts(ids.good)).waiting).toBe(0);

    await start(true);
    await waitFor(
      'the lost article answered',
      async () =>
        (await count(`select count(*)::int as n from deliveries where server_id = $1 and article_id = $2 and state = 'done'`, [
          ids.good,
          articleId,
        ])) === 1
          ? true
          : undefined,
      30_000,
    );
    expect(await count('select count(*)::int as n from answers where server_id = $1 and article_id = $2', [ids.good, articleId])).toBe(1);
    expect(await count('select count(*)::int as n from answers where server_id = $1', [ids.good])).toBe(7);
    await waitFor('its job gone once answered', async () => ((await keys()).jobs.length === 0 ? true : undefined), 10_000);
  });
});
