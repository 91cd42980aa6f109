// "Is dispatch progressing?" on a running meta-server, as /healthz and /metrics answer it: a
// called server that owes pairs and has had no attempt end for longer than its deadline and
// back-off allow is stalled (here: no worker process runs at all, the pairs backdated), and
// pairs the database holds unsettled with no job in Redis are counted by the reconciler that
// finds them.
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeProgress, ProgressReader } from '../../src/dispatch/progress.ts';
import { queueName } from '../../src/dispatch/queues.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';

interface Health {
  status: string;
  dispatch: {
    state: string;
    owingServers?: number;
    stalled?: Array<{ server: string; challenge: string; quietSeconds: number; limitSeconds: number }>;
    pairsWithoutJob: number;
  };
}

let ms: TestMetaserver;
let good: FaultyServer;

beforeAll(async () => {
  // An API process only: jobs wait in Redis with no worker to take them.
  // The judgement read fresh at each look (statusCacheMs 0): each step below changes what it sees.
  ms = await startTestMetaserver({ workers: false, config: { reconcileIntervalMs: 3_600_000, statusCacheMs: 0 } });
  good = await startFaultyServer({ kind: 'good' });
});
afterAll(async () => {
  await ms?.stop();
  await good?.close();
});

async function health(): Promise<Health> {
  const res = await ms.app!.inject({ method: 'GET', url: '/healthz' });
  expect(res.statusCode).toBe(200);
  return res.json<Health>();
}

async function metric(name: string): Promise<number | undefined> {
  const res = await ms.app!.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  const line = res.body.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe('dispatch progress in /healthz and /metrics', () => {
  let serverId: number;

  it('is idle with nothing owed, and progressing once a started server owes pairs', async () => {
    expect((await health()).dispatch).toEqual({ state: 'idle', owingServers: 0, stalled: [], pairsWithoutJob: 0 });
    await ms.challenge('progress', { name: 'Progress', timeoutSeconds: 5, maxAttempts: 2, retryDelaySeconds: 10 });
    await ms.articles('progress', [
      { id: 'P1', text: 'BRCA1 (P38398) binds TP53.' },
      { id: 'P2', text: 'TP53 (P04637) is a tumour suppressor.' },
    ]);
    const token = (await ms.team('Progress team')).token;
    serverId = (await ms.server('progress', token, { name: 'quiet', url: good.url })).id;
    await ms.startServer(serverId, token);
    const now = await health();
    expect(now.status).toBe('ok');
    expect(now.dispatch).toMatchObject({ state: 'progressing', owingServers: 1, stalled: [] });
    expect(await metric('metaserver_dispatch_stalled_servers')).toBe(0);
  });

  it('is stalled, naming the server, once its pairs wait longer than its deadline and back-off allow', async () => {
    const db = ms.database.db;
    await db.query(`update articles set created_at = now() - interval '2 hours' where organiser_id in ('P1', 'P2')`);
    await db.query(`update challenges set phase_changed_at = now() - interval '2 hours' where slug = 'progress'`);
    await db.query(`update servers set created_at = now() - interval '2 hours' where id = $1`, [serverId]);
    const stalled = await health();
    // The API still serves: the status is about its stores, the body says dispatch is stuck.
    expect(stalled.status).toBe('ok');
    expect(stalled.dispatch.state).toBe('stalled');
    expect(stalled.dispatch.stalled).toHaveLength(1);
    const [s] = stalled.dispatch.stalled!;
    expect(s).toMatchObject({ server: 'quiet', challenge: 'progress' });
    expect(s.quietSeconds).toBeGreaterThanOrEqual(7199);
    // 5 s deadline + the longest back-off (10 s · 2^0) + an hour's reconciler interval + 60 s
    expect(s.limitSeconds).toBe(5 + 10 + 3600 + 60);
    expect(await metric('metaserver_dispatch_stalled_servers')).toBe(1);
  });

  it('is progressing again when an attempt of the server has ended recently', async () => {
    const db = ms.database.db;
    const [article] = await db.query<{ id: string }>(`select id from articles where organiser_id = 'P1'`);
    await db.query(
      `insert into attempts (article_id, server_id, n, started_at, ms, outcome) values ($1, $2, 1, now() - interval '10 seconds', 5000, 'timeout')`,
      [article.id, serverId],
    );
    expect((await health()).dispatch).toMatchObject({ state: 'progressing', owingServers: 1, stalled: [] });
    expect(await metric('metaserver_dispatch_stalled_servers')).toBe(0);
  });

  it('counts pairs unsettled with no job in Redis at the reconciler pass that finds them, and 0 once made again', async () => {
    const connection = new Redis(ms.redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue(queueName(serverId), { connection, prefix: ms.config.queuePrefix });
    try {
      // The jobs vanish (Redis lost its writes): the database still owes both pairs.
      await ms.reconciler.run();
      expect(await queue.getWaitingCount()).toBe(2);
      await queue.drain();
      expect(await queue.getWaitingCount()).toBe(0);
      await ms.reconciler.run();
      expect((await health()).dispatch.pairsWithoutJob).toBe(2);
      expect(await metric('metaserver_dispatch_pairs_without_job')).toBe(2);
      expect(await metric('metaserver_dispatch_queue_repairs_total')).toBe(1);
      // That pass sent the window back; the next makes the jobs again and finds nothing missing.
      await ms.reconciler.run();
      expect(await queue.getWaitingCount()).toBe(2);
      await ms.reconciler.run();
      expect((await health()).dispatch.pairsWithoutJob).toBe(0);
      expect(await metric('metaserver_dispatch_queue_repairs_total')).toBe(1);
    } finally {
      await queue.close();
      connection.disconnect();
    }
  });
});

describe('judgeProgress', () => {
  const owing = (quietSeconds: number) => ({ serverId: 1, server: 's', challenge: 'c', quietSeconds, expectedSeconds: 100 });
  it('takes the limit as the expected time plus the reconciler interval and a minute, strictly', () => {
    expect(judgeProgress([owing(190)], 30_000).state).toBe('progressing');
    expect(judgeProgress([owing(191)], 30_000)).toMatchObject({ state: 'stalled', stalled: [{ quietSeconds: 191, limitSeconds: 190 }] });
    expect(judgeProgress([], 30_000)).toEqual({ state: 'idle', owingServers: 0, stalled: [] });
  });
});

describe('ProgressReader', () => {
  it('reads once for every look within the time it keeps the judgement, and at each look with 0', async () => {
    let queries = 0;
    const unsettled = {
      owingServers: async () => {
        queries++;
        return [];
      },
    };
    const kept = new ProgressReader(unsettled, 30_000, 60_000);
    await Promise.all([kept.read(), kept.read()]);
    expect((await kept.read()).state).toBe('idle');
    expect(queries).toBe(1);
    const fresh = new ProgressReader(unsettled, 30_000, 0);
    await fresh.read();
    await fresh.read();
    expect(queries).toBe(3);
  });
});
