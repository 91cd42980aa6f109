// Worker processes for real: two of them share one Redis and one PostgreSQL; a server's
// concurrency limit holds across both, and every answer is stored exactly once — also when
// a worker is killed (SIGKILL) in the middle of a request.
// PGlite belongs to one process, so these tests need PostgreSQL (DATABASE_URL, set by CI).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.ts';
import { annotate } from '../../src/sample/annotator.ts';

const enabled = Boolean(process.env.DATABASE_URL);

describe.skipIf(!enabled)('worker processes sharing Redis and PostgreSQL', () => {
  let ms: TestMetaserver;
  let token: string;
  const workers: WorkerProcess[] = [];
  const servers: FaultyServer[] = [];

  beforeAll(async () => {
    ms = await startTestMetaserver({ workers: false });
    token = (await ms.team('Multi')).token;
  });
  afterAll(async () => {
    for (const w of workers) w.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.exited));
    await ms?.stop();
    await Promise.all(servers.map((s) => s.close()));
  });

  async function answerCounts(serverId: number) {
    return await ms.database.db.query<{ article_id: string; n: number }>(
      'select article_id, count(*)::int as n from answers where server_id = $1 group by article_id',
      [serverId],
    );
  }

  it('never exceeds the server concurrency across two processes and stores each answer once', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const slow = await startFaultyServer({
      kind: 'custom',
      handler: async (text, given) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((r) => setTimeout(r, 150));
        inFlight--;
        return annotate(text, given);
      },
    });
    servers.push(slow);
    await ms.challenge('conc', { name: 'Concurrency', tasks: ['INT', 'MENTION'] });
    const articles = Array.from({ length: 12 }, (_, i) => ({ id: `C${i}`, text: `Article ${i}: BRCA1 (P38398) binds TP53.` }));
    await ms.articles('conc', articles);
    const server = await ms.server('conc', token, { name: 'slow', url: slow.url, tasks: ['INT', 'MENTION'], concurrency: 2 });
    workers.push(await startWorkerProcess(ms.config, ms.database.url!), await startWorkerProcess(ms.config, ms.database.url!));
    maxInFlight = 0; // the setup check ran alone
    await ms.startServer(server.id, token);
    await waitFor(
      'all 12 answers',
      async () => {
        const res = await ms.request('GET', `/api/servers/${server.id}`, undefined, token);
        return res.body.progress.done === 12 ? true : undefined;
      },
      60_000,
    );
    expect(maxInFlight).toBeLessThanOrEqual(2);
    expect(maxInFlight).toBeGreaterThanOrEqual(1);
    const counts = await answerCounts(server.id);
    expect(counts).toHaveLength(12);
    expect(counts.every((c) => c.n === 1)).toBe(true);
  });

  it('a worker killed in the middle of a request: the job is retried and the answer stored exactly once', async () => {
    let calls = 0;
    let firstArrived!: () => void;
    const arrived = new Promise<void>((r) => (firstArrived = r));
    const server1 = await startFaultyServer({
      kind: 'custom',
      handler: async (text, given) => {
        calls++;
        if (calls === 2) {
          // Call 1 is the setup check; call 2 is the first real attempt: hold it until the worker dies.
          firstArrived();
          await new Promise((r) => setTimeout(r, 30_000));
        }
        return annotate(text, given);
      },
    });
    servers.push(server1);
    for (const w of workers.splice(0)) {
      w.kill('SIGTERM');
      await w.exited;
    }
    await ms.challenge('kill', { name: 'Kill', timeoutSeconds: 60 });
    const ids = (await ms.articles('kill', [{ id: 'K1', text: 'BRCA1 (P38398).' }])).ids;
    const server = await ms.server('kill', token, { name: 'victim', url: server1.url });
    const doomed = await startWorkerProcess(ms.config, ms.database.url!);
    workers.push(doomed);
    await ms.startServer(server.id, token);
    await arrived;
    doomed.kill('SIGKILL');
    expect(await doomed.exited).toBe('SIGKILL');

    workers.push(await startWorkerProcess(ms.config, ms.database.url!));
    await waitFor(
      'the answer after the retry',
      async () => {
        const res = await ms.request('GET', `/api/articles/${ids.K1}`, undefined, ADMIN_TOKEN);
        return res.status === 200 ? res.body : undefined;
      },
      60_000,
    );
    const counts = await answerCounts(server.id);
    expect(counts).toEqual([{ article_id: ids.K1, n: 1 }]);
    const response = await ms.request('GET', `/api/articles/${ids.K1}/responses/${server.id}`, undefined, token);
    expect(response.body.attempts.map((a: { outcome: string }) => a.outcome)).toEqual(['interrupted', 'ok']);
    expect(response.body.result.INT[0].accession).toBe('P38398');
  });
});
