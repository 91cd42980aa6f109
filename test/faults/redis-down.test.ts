// No request hangs on a dead Redis, and nothing it accepted is left unsent. With the test's
// own redis-server stopped (and, once, frozen: connected but silent), loading articles,
// submitting one, changing the phase and starting a server answer within 2 s with 202 and a
// notice (stored; queued later), and what cannot wait (deleting a server, sending failed
// articles again) is refused with 503, Retry-After and Redis named. Once Redis is back,
// everything accepted reaches the servers, each answer stored once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.ts';
import {
  ADMIN_TOKEN,
  openTestDatabase,
  startTestMetaserver,
  testDatabaseKinds,
  waitFor,
  type TestDatabase,
  type TestMetaserver,
} from '../support/runtime.ts';

const NOTICE = /^Redis \(the queue store\) did not answer: .+, and the queues catch up by themselves as soon as it answers again$/;

describe.each(testDatabaseKinds())('requests while Redis is down (%s)', (kind) => {
  let redis: PrivateRedis;
  let database: TestDatabase;
  let ms: TestMetaserver;
  let good: FaultyServer;
  let failing: FaultyServer;
  let token: string;
  const ids = { steady: 0, late: 0, idle: 0, broken: 0, live: 0 };

  const timed = async (method: string, url: string, body?: unknown, who?: string) => {
    const started = Date.now();
    const res = await ms.request(method, url, body, who);
    return { ...res, ms: Date.now() - started };
  };
  const doneCount = async (serverId: number) =>
    (
      await database.db.query<{ n: number }>(`select count(*)::int as n from deliveries where server_id = $1 and state = 'done'`, [
        serverId,
      ])
    )[0].n;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    database = await openTestDatabase(kind);
    ms = await startTestMetaserver({ database, config: { redisUrl: redis.url } });
    good = await startFaultyServer({ kind: 'good' });
    failing = await startFaultyServer({ kind: 'http', status: 503 });
    token = (await ms.team(`Down ${kind}`)).token;
    await ms.challenge('rd', { name: 'Redis down', timeoutSeconds: 10, maxAttempts: 1, retryDelaySeconds: 0 });
    const first = Array.from({ length: 3 }, (_, i) => ({ id: `F${i}`, text: `First ${i}: BRCA1 (P38398).` }));
    await ms.articles('rd', first);
    ids.steady = (await ms.server('rd', token, { name: 'steady', url: good.url, concurrency: 4 })).id;
    ids.late = (await ms.server('rd', token, { name: 'late', url: good.url, concurrency: 4 })).id;
    ids.idle = (await ms.server('rd', token, { name: 'idle', url: good.url, concurrency: 4 })).id;
    ids.broken = (await ms.server('rd', token, { name: 'broken', url: failing.url, concurrency: 4 })).id;
    ids.live = (await ms.server('live', token, { name: 'live', url: good.url, concurrency: 4 })).id;
    for (const id of [ids.steady, ids.broken, ids.live]) await ms.startServer(id, token);
    await waitFor('the first articles settled', async () => ((await doneCount(ids.steady)) === 3 ? true : undefined));
    await waitFor('the failing server failed them', async () => {
      const rows = await database.db.query<{ n: number }>(
        `select count(*)::int as n from deliveries where server_id = $1 and state = 'failed'`,
        [ids.broken],
      );
      return rows[0].n === 3 ? true : undefined;
    });
  });
  afterAll(async () => {
    await ms?.stop();
    await database?.drop();
    await redis?.stop();
    await good?.close();
    await failing?.close();
  });

  it('answers within 2 s: 202 for what the database keeps, 503 with Retry-After for what needs Redis now', async () => {
    await redis.halt();
    await waitFor('the connection to notice', async () => (ms.ctx.dispatch.redisReady() ? undefined : true));

    const articles = Array.from({ length: 10 }, (_, i) => ({ id: `D${i}`, text: `During ${i}: TP53 (P04637) binds MDM2.` }));
    const load = await timed('POST', '/api/challenges/rd/articles', { articles }, ADMIN_TOKEN);
    expect(load.ms).toBeLessThan(2000);
    expect(load.status).toBe(202);
    expect(load.body).toMatchObject({ created: 10, queued: false });
    expect(load.body.notice).toMatch(NOTICE);

    const submit = await timed('POST', '/api/articles', { text: 'On demand while Redis is down: BRCA1 (P38398).' });
    expect(submit.ms).toBeLessThan(2000);
    expect(submit.status).toBe(202);
    expect(submit.body.queued).toBe(false);
    const onDemand = submit.body.id as string;

    const phase = await timed('PATCH', '/api/challenges/rd', { phase: 'test' }, ADMIN_TOKEN);
    expect(phase.ms).toBeLessThan(2000);
    expect(phase.status).toBe(202);
    expect(phase.body.phase).toBe('test');
    expect(phase.body.notice).toMatch(NOTICE);

    const start = await timed('POST', `/api/servers/${ids.late}/start`, undefined, token);
    expect(start.ms).toBeLessThan(2000);
    expect(start.status).toBe(202);
    expect(start.body.state).toBe('active');

    for (const [method, url] of [
      ['DELETE', `/api/servers/${ids.idle}`],
      ['POST', `/api/servers/${ids.broken}/retry-failed`],
    ] as const) {
      const started = Date.now();
      const res = await ms.app!.inject({ method, url, headers: { authorization: `Bearer ${token}` } });
      expect(Date.now() - started).toBeLessThan(2000);
      expect(res.statusCode, url).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json().error.code).toBe('redis_unavailable');
      expect(res.json().error.message).toMatch(/^Redis \(the queue store\) is unreachable, so .+\. Try again in 5 s\.$/);
    }
    expect(await ms.ctx.repos.servers.byId(ids.idle)).not.toBeNull();
    const scraped = Date.now();
    const scrape = await ms.app!.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(Date.now() - scraped).toBeLessThan(2000);
    expect(scrape.statusCode).toBe(200);
    expect(scrape.body).not.toContain('metaserver_queue_jobs{');
    expect(
      (
        await database.db.query<{ n: number }>(`select count(*)::int as n from deliveries where server_id = $1 and state = 'failed'`, [
          ids.broken,
        ])
      )[0].n,
    ).toBe(3);

    // Back: the reconciler queues what was accepted, at once.
    await redis.restart();
    await waitFor(
      'everything accepted while Redis was down, answered',
      async () => {
        const [steady, late, live] = await Promise.all([doneCount(ids.steady), doneCount(ids.late), doneCount(ids.live)]);
        return steady === 13 && late === 13 && live >= 1 ? true : undefined;
      },
      30_000,
    );
    const view = await ms.request('GET', `/api/articles/${onDemand}`);
    expect(view.status).toBe(200);
    expect(view.body.servers.map((s: { serverId?: number; id?: number }) => s.serverId ?? s.id)).toEqual([ids.live]);
    const twice = await database.db.query('select 1 from answers group by article_id, server_id having count(*) > 1');
    expect(twice).toHaveLength(0);
  }, 60_000);

  it('a Redis that is connected but does not answer holds no request either', async () => {
    redis.freeze();
    try {
      const load = await timed(
        'POST',
        '/api/challenges/rd/articles',
        { articles: [{ id: 'Z0', text: 'Frozen: BRCA1 (P38398).' }] },
        ADMIN_TOKEN,
      );
      expect(load.ms).toBeLessThan(2000);
      expect(load.status).toBe(202);
      expect(load.body.queued).toBe(false);
    } finally {
      redis.thaw();
    }
    await waitFor(
      'the article answered once Redis answers again',
      async () => ((await doneCount(ids.steady)) === 14 ? true : undefined),
      30_000,
    );
  }, 60_000);
});
