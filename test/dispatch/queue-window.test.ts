// Redis holds a bounded window of a server's jobs, not the corpus: with 150 articles and a
// window of 12, a started server has a delivery row for every article at once, at most 12
// jobs in Redis while its requests are held, and every article answered exactly once, in
// queue order, once they are released. The same bound holds for a retry of 150 failures,
// also when the retry finds another refill of the server under way (it holds the lock).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { annotate } from '../../src/sample/annotator.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { startTestMetaserver, testDatabaseKinds, waitFor, type TestMetaserver } from '../support/runtime.ts';

const ARTICLES = 150;
const WINDOW = 12;
const CONCURRENCY = 2;

describe.each(testDatabaseKinds())('the queue window (%s)', (kind) => {
  let ms: TestMetaserver;
  let server: FaultyServer;
  let holding = true;
  let failing = false;
  const order: number[] = [];
  const waiting = new Set<() => void>();
  const gate = {
    get held() {
      return waiting.size;
    },
    release() {
      for (const go of waiting) go();
      waiting.clear();
    },
  };

  beforeAll(async () => {
    // Holds each call while `holding`; answers what no task takes while `failing`.
    server = await startFaultyServer({
      kind: 'custom',
      handler: async (text, given) => {
        const article = /article (\d+)/.exec(text);
        if (!article) return annotate(text, given); // the setup check's sample article
        order.push(Number(article[1]));
        if (failing) return 'not an answer';
        if (holding) await new Promise<void>((go) => waiting.add(go));
        return annotate(text, given);
      },
    });
    ms = await startTestMetaserver({ databaseKind: kind, config: { dispatchWindow: WINDOW } });
  });
  afterAll(async () => {
    gate?.release();
    await ms?.stop();
    await server?.close();
  });

  /** Job hashes under this installation's prefix for the server: what Redis holds of its corpus. */
  async function jobKeys(serverId: number): Promise<number> {
    const redis = new Redis(ms.config.redisUrl);
    try {
      let cursor = '0';
      let n = 0;
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${ms.config.queuePrefix}:server-${serverId}:*_r*`, 'COUNT', 1000);
        cursor = next;
        n += keys.filter((k) => !/:(logs|lock)$/.test(k)).length;
      } while (cursor !== '0');
      return n;
    } finally {
      redis.disconnect();
    }
  }

  const deliveries = async (serverId: number) =>
    (
      await ms.database.db.query<{ state: string; n: number }>(
        'select state, count(*)::int as n from deliveries where server_id = $1 group by 1 order by 1',
        [serverId],
      )
    ).map((r) => `${r.state}: ${r.n}`);

  const allDone = (serverId: number) =>
    waitFor('every article answered', async () => ((await deliveries(serverId)).join() === `done: ${ARTICLES}` ? true : undefined), 60_000);

  it('holds at most the window in Redis, writes every delivery at once, and sends each article once, in queue order', async () => {
    const token = (await ms.team('Window')).token;
    await ms.challenge('window', { maxAttempts: 1 });
    const loaded = Array.from({ length: ARTICLES }, (_, i) => ({ id: `a${i}`, text: `article ${i} mentions BRCA1 here.` }));
    await ms.articles('window', loaded);
    const registered = await ms.server('window', token, { url: server.url, concurrency: CONCURRENCY });
    order.length = 0;
    await ms.startServer(registered.id as number, token);
    await waitFor('the server holding its concurrency', async () => (gate.held === CONCURRENCY ? true : undefined));

    expect(await ms.ctx.dispatch.queues.jobsHeld(registered.id as number)).toBeLessThanOrEqual(WINDOW);
    expect(await jobKeys(registered.id as number)).toBeLessThanOrEqual(WINDOW);
    const rows = await deliveries(registered.id as number);
    // Every article has its row from the start: the two under way and all the others queued, but only the window in Redis.
    expect(rows).toEqual([`active: ${CONCURRENCY}`, `queued: ${ARTICLES - CONCURRENCY}`]);

    holding = false;
    gate.release();
    await allDone(registered.id as number);
    const answers = await ms.database.db.query<{ n: number }>(
      'select count(*)::int as n from answers where server_id = $1 group by article_id',
      [registered.id],
    );
    expect(answers).toHaveLength(ARTICLES);
    expect(answers.every((a) => a.n === 1)).toBe(true);
    // Sent once each; in queue order but for the requests made at once overtaking each other.
    expect([...order].sort((a, b) => a - b)).toEqual(loaded.map((_, i) => i));
    order.forEach((article, k) => expect(Math.abs(article - k)).toBeLessThanOrEqual(CONCURRENCY));
    expect(await jobKeys(registered.id as number)).toBe(0);
  }, 120_000);

  it('a retry of every failed article goes through the same window', async () => {
    const token = (await ms.team('Retry')).token;
    await ms.challenge('window-retry', { maxAttempts: 1, retryDelaySeconds: 0 });
    await ms.articles(
      'window-retry',
      Array.from({ length: ARTICLES }, (_, i) => ({ id: `r${i}`, text: `article ${i} mentions TP53 here.` })),
    );
    const registered = await ms.server('window-retry', token, { url: server.url, concurrency: CONCURRENCY });
    failing = true;
    await ms.startServer(registered.id as number, token);
    await waitFor(
      'every article failed',
      async () => ((await deliveries(registered.id as number)).join() === `failed: ${ARTICLES}` ? true : undefined),
      60_000,
    );

    failing = false;
    holding = true;
    // Another process is topping the window up as the retry comes (it read the rows before
    // they were queued again): the retry's going back must survive it, not wait for the
    // reconciler's full pass.
    const redis = new Redis(ms.config.redisUrl);
    const lock = `${ms.config.queuePrefix}:window-lock:${registered.id}`;
    try {
      // Taken as soon as it is free: this installation's own refills (the last failures' checks,
      // the reconciler's pass) hold it for a moment now and then.
      await waitFor('the window lock free', async () =>
        (await redis.set(lock, 'another process', 'PX', 10_000, 'NX')) === 'OK' ? true : undefined,
      );
      const retried = await ms.request('POST', `/api/servers/${registered.id}/retry-failed`, undefined, token);
      expect(retried.status).toBe(200);
      expect(gate.held).toBe(0);
      expect(await redis.del(lock)).toBe(1);
    } finally {
      redis.disconnect();
    }
    await waitFor('the server holding its concurrency', async () => (gate.held === CONCURRENCY ? true : undefined));
    expect(await ms.ctx.dispatch.queues.jobsHeld(registered.id as number)).toBeLessThanOrEqual(WINDOW);
    expect(await deliveries(registered.id as number)).toEqual([`active: ${CONCURRENCY}`, `queued: ${ARTICLES - CONCURRENCY}`]);

    holding = false;
    gate.release();
    await allDone(registered.id as number);
  }, 120_000);

  it('counts a going back not made yet in its position, so the reconciler sees no job lost behind it', async () => {
    // A server id no test uses: only its window's keys are written.
    const serverId = 987_654;
    const window = ms.ctx.dispatch.window;
    const redis = new Redis(ms.config.redisUrl);
    try {
      const key = (what: string) => `${ms.config.queuePrefix}:window-${what}:${serverId}`;
      expect(await window.position(serverId)).toBe(0);
      await redis.set(key('cursor'), 40);
      expect(await window.position(serverId)).toBe(40);
      // Articles appended from position 12 on: their rows wait for the next refill, so the window has taken up to 11.
      await redis.set(key('back'), 12);
      expect(await window.position(serverId)).toBe(11);
      // A going back past the cursor changes nothing.
      await redis.set(key('back'), 50);
      expect(await window.position(serverId)).toBe(40);
      await window.rewind(serverId);
      expect(await window.position(serverId)).toBe(0);
    } finally {
      redis.disconnect();
    }
  });
});
