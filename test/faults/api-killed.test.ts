// Nothing committed is left unsent, with real processes (PostgreSQL only: several processes
// share one database). A `metaserver api` process takes an article load, an on-demand
// submission and a phase change while Redis is down — each answered within 2 s — and is
// killed with SIGKILL before anything reached the queues. Once Redis is back every article
// is answered, each once; a client repeating its submission to a new API process gets the
// same article.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/queue/redis-launcher.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.ts';
import { ADMIN_TOKEN, openTestDatabase, startTestMetaserver, waitFor, type TestDatabase, type TestMetaserver } from '../support/runtime.ts';
import { startServiceProcess, type WorkerProcess } from '../support/worker-process.ts';

describe.skipIf(!process.env.DATABASE_URL)('an API process killed while Redis is down', () => {
  let redis: PrivateRedis;
  let database: TestDatabase;
  let ms: TestMetaserver;
  let good: FaultyServer;
  const apis: WorkerProcess[] = [];

  beforeAll(async () => {
    redis = await startPrivateRedis();
    database = await openTestDatabase('postgres');
    ms = await startTestMetaserver({ database, config: { redisUrl: redis.url } });
    good = await startFaultyServer({ kind: 'good' });
  });
  afterAll(async () => {
    for (const a of apis) a.kill('SIGKILL');
    await Promise.all(apis.map((a) => a.exited));
    await ms?.stop();
    await database?.drop();
    await redis?.stop();
    await good?.close();
  });

  async function startApi(): Promise<string> {
    const port = await freePort();
    apis.push(await startServiceProcess('api', ms.config, database.url!, { PORT: String(port), HOST: '127.0.0.1' }));
    return `http://127.0.0.1:${port}`;
  }

  async function call(base: string, method: string, path: string, body?: unknown, token?: string) {
    const started = Date.now();
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    return { status: res.status, body: (await res.json()) as any, ms: Date.now() - started };
  }

  it('everything it accepted is dispatched once Redis is back, each answer stored once', async () => {
    const token = (await ms.team('Killed API')).token;
    await ms.challenge('ak', { maxAttempts: 2, retryDelaySeconds: 0 });
    const servers: number[] = [];
    for (const slug of ['ak', 'live']) {
      const id = (await ms.server(slug, token, { name: `k-${slug}`, url: good.url, concurrency: 4 })).id as number;
      await ms.startServer(id, token);
      servers.push(id);
    }
    const api = await startApi();

    await redis.halt();
    const articles = Array.from({ length: 20 }, (_, i) => ({ id: `K${i}`, text: `Killed ${i}: BRCA1 (P38398) binds TP53.` }));
    const load = await call(api, 'POST', '/api/challenges/ak/articles', { articles }, ADMIN_TOKEN);
    expect(load.status).toBe(202);
    expect(load.ms).toBeLessThan(2000);
    expect(load.body).toMatchObject({ created: 20, queued: false });
    const submission = { id: 'OD-1', text: 'On demand, API about to die: SNCA (P37840).' };
    const submit = await call(api, 'POST', '/api/articles', submission);
    expect(submit.status).toBe(202);
    expect(submit.ms).toBeLessThan(2000);
    const phase = await call(api, 'PATCH', '/api/challenges/ak', { phase: 'test' }, ADMIN_TOKEN);
    expect(phase.status).toBe(202);
    expect(phase.ms).toBeLessThan(2000);

    const killed = apis[0];
    killed.kill('SIGKILL');
    await killed.exited;
    // The database holds it all; nothing reached the queues.
    expect(await database.db.query('select 1 from deliveries where server_id = any($1)', [servers])).toHaveLength(0);
    expect((await ms.request('GET', '/api/challenges/ak')).body.phase).toBe('test');

    await redis.restart();
    const done = async (id: number) =>
      (await database.db.query<{ n: number }>(`select count(*)::int as n from deliveries where server_id = $1 and state = 'done'`, [id]))[0]
        .n;
    await waitFor(
      'every accepted article answered',
      async () => ((await done(servers[0])) === 20 && (await done(servers[1])) === 1 ? true : undefined),
      30_000,
    );

    // The client repeats its submission to a new API process: the same article, answered.
    const again = await call(await startApi(), 'POST', '/api/articles', submission);
    expect(again.status).toBe(202);
    expect(again.body.id).toBe(submit.body.id);
    const view = await ms.request('GET', `/api/articles/${submit.body.id}`);
    expect(view.status).toBe(200);
    expect(view.body.servers).toHaveLength(1);
    expect(await database.db.query('select 1 from answers group by article_id, server_id having count(*) > 1')).toHaveLength(0);
    expect(
      (await database.db.query<{ n: number }>('select count(*)::int as n from answers where server_id = any($1)', [servers]))[0].n,
    ).toBe(21);
  }, 90_000);
});
