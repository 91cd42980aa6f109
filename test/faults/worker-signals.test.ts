// Worker processes stopped for real, with requests in flight (PostgreSQL only: several
// processes share one database). SIGKILL: the jobs are retried after the lock expires and
// each answer is stored once. SIGTERM: no new jobs are taken; a request that ends within the
// grace period is stored and the process exits 0; one that does not is handed back unblamed
// and completed by another worker.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FaultyServer } from '../support/faulty-servers.ts';
import { gatedServer } from '../support/gated-server.ts';
import { startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.ts';

describe.skipIf(!process.env.DATABASE_URL)('worker processes stopped mid-request', () => {
  let ms: TestMetaserver;
  let token: string;
  const workers: WorkerProcess[] = [];
  const servers: FaultyServer[] = [];

  beforeAll(async () => {
    ms = await startTestMetaserver({ workers: false });
    token = (await ms.team('Signals')).token;
  });
  // Worker processes consume every server's queue: none may outlive its test.
  afterEach(async () => {
    const left = workers.splice(0);
    for (const w of left) w.kill('SIGKILL');
    await Promise.all(left.map((w) => w.exited));
  });
  afterAll(async () => {
    await ms?.stop();
    await Promise.all(servers.map((s) => s.close()));
  });

  async function setup(slug: string, n: number, url: string, concurrency: number) {
    await ms.challenge(slug, { timeoutSeconds: 60, maxAttempts: 2, retryDelaySeconds: 0 });
    const articles = Array.from({ length: n }, (_, i) => ({ id: `${slug}${i}`, text: `Article ${i}: BRCA1 (P38398).` }));
    const ids = (await ms.articles(slug, articles)).ids;
    const server = await ms.server(slug, token, { name: slug, url, concurrency });
    return { ids, serverId: server.id as number };
  }

  async function allDone(serverId: number, n: number) {
    await waitFor(
      `${n} answers of server ${serverId}`,
      async () => {
        const rows = await ms.database.db.query<{ n: number }>(
          `select count(*)::int as n from deliveries where server_id = $1 and state = 'done'`,
          [serverId],
        );
        if (rows[0].n !== n) return undefined;
        const c = await ms.ctx.dispatch.queues.counts(serverId);
        return c.active + c.waiting + c.delayed + c.prioritized === 0 ? true : undefined;
      },
      60_000,
    );
    const counts = await ms.database.db.query<{ n: number }>(
      'select count(*)::int as n from answers where server_id = $1 group by article_id',
      [serverId],
    );
    expect(counts).toHaveLength(n);
    expect(counts.every((c) => c.n === 1)).toBe(true);
  }

  async function outcomes(serverId: number) {
    const rows = await ms.database.db.query<{ article_id: string; o: string[] }>(
      'select article_id, array_agg(outcome order by n) as o from attempts where server_id = $1 group by article_id',
      [serverId],
    );
    return rows.map((r) => r.o.join(','));
  }

  it('SIGKILL with three requests in flight (concurrency 3): all retried, each answer stored once', async () => {
    // Call 1 is the setup check; calls 2–4 are held until the worker is dead.
    const gate = await gatedServer((call) => call >= 2 && call <= 4);
    servers.push(gate.server);
    const { serverId } = await setup('kill', 6, gate.server.url, 3);
    const doomed = await startWorkerProcess(ms.config, ms.database.url!);
    workers.push(doomed);
    await ms.startServer(serverId, token);
    await waitFor('three requests in flight', async () => (gate.held === 3 ? true : undefined));
    doomed.kill('SIGKILL');
    expect(await doomed.exited).toBe('SIGKILL');
    gate.release();
    workers.push(await startWorkerProcess(ms.config, ms.database.url!));
    await allDone(serverId, 6);
    const o = await outcomes(serverId);
    expect(o.filter((x) => x === 'interrupted,ok')).toHaveLength(3);
    expect(o.filter((x) => x === 'ok')).toHaveLength(3);
  });

  it('SIGTERM during a request shorter than the grace: its answer is stored, nothing new is taken, exit 0', async () => {
    const gate = await gatedServer((call) => call === 2);
    servers.push(gate.server);
    const { serverId, ids } = await setup('term', 2, gate.server.url, 1);
    const worker = await startWorkerProcess(ms.config, ms.database.url!, { METASERVER_SHUTDOWN_GRACE_MS: '20000' });
    workers.push(worker);
    await ms.startServer(serverId, token);
    await waitFor('the request in flight', async () => (gate.held === 1 ? true : undefined));
    worker.kill('SIGTERM');
    await waitFor('the worker to begin stopping', async () => (worker.lines.some((l) => l.includes('"msg":"stopping')) ? true : undefined));
    gate.release();
    expect(await worker.exited).toBe(0);
    const answered = await ms.database.db.query<{ article_id: string; attempt_n: number }>(
      'select article_id, attempt_n from answers where server_id = $1',
      [serverId],
    );
    expect(answered).toEqual([{ article_id: ids.term0, attempt_n: 1 }]);
    // the second article was not taken by the stopping worker
    expect(await ms.database.db.query('select 1 from attempts where article_id = $1', [ids.term1])).toHaveLength(0);
    workers.push(await startWorkerProcess(ms.config, ms.database.url!));
    await allDone(serverId, 2);
    expect((await outcomes(serverId)).sort()).toEqual(['ok', 'ok']);
  });

  it('SIGTERM during a request longer than the grace: handed back unblamed, completed by another worker', async () => {
    const gate = await gatedServer((call) => call === 2);
    servers.push(gate.server);
    const { serverId } = await setup('grace', 1, gate.server.url, 1);
    const worker = await startWorkerProcess(ms.config, ms.database.url!, { METASERVER_SHUTDOWN_GRACE_MS: '500' });
    workers.push(worker);
    await ms.startServer(serverId, token);
    await waitFor('the request in flight', async () => (gate.held === 1 ? true : undefined));
    worker.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    const handedBack = await ms.database.db.query<{ state: string; attempts: number }>(
      'select state, attempts from deliveries where server_id = $1',
      [serverId],
    );
    expect(handedBack).toEqual([{ state: 'queued', attempts: 1 }]);
    workers.push(await startWorkerProcess(ms.config, ms.database.url!));
    await allDone(serverId, 1);
    expect(await outcomes(serverId)).toEqual(['interrupted,ok']);
    const detail = await ms.database.db.query<{ detail: string }>(
      `select detail from attempts where server_id = $1 and outcome = 'interrupted'`,
      [serverId],
    );
    expect(detail[0].detail).toMatch(/handed back/);
    gate.release();
  });
});
