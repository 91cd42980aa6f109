// Closed means frozen. After {"phase": "closed"}: every change to the challenge's servers
// and runs is refused with 409, for teams and the organiser alike; run names never change;
// the organiser reopens explicitly, and who changed the phase and when is recorded. And a
// close holds where dispatch writes, not only through the queues' pause flag: with the flag
// left unset (the API died between committing the close and pausing the queues), no
// request is made and no answer is stored, and a restart pauses the queues.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChallengeRepository } from '../../src/challenges/repository.ts';
import { gatedServer } from '../support/gated-server.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import {
  ADMIN_TOKEN,
  openTestDatabase,
  startTestMetaserver,
  testDatabaseKinds,
  waitFor,
  type TestDatabase,
  type TestMetaserver,
} from '../support/runtime.ts';

const CLOSED_SENTENCE =
  /^challenge "[^"]+" is closed, so .+: its servers, answers and runs stay as they were at the close\. Only the organiser can reopen it, or open its post-challenge phase\.$/;

describe.each(testDatabaseKinds())('closed means frozen (%s)', (kind) => {
  let database: TestDatabase;
  let ms: TestMetaserver;
  let token: string;
  let teamId: number;
  let idleId: number;
  const servers: FaultyServer[] = [];

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    ms = await startTestMetaserver({ database });
    const team = await ms.team(`Frozen ${kind}`);
    token = team.token;
    teamId = team.id;
  });
  afterAll(async () => {
    await ms?.stop();
    await database?.drop();
    await Promise.all(servers.map((s) => s.close()));
  });

  async function challenge(slug: string, articles: number, settings: Record<string, unknown> = {}) {
    await ms.challenge(slug, { serversPerTeam: 10, ...settings });
    const list = Array.from({ length: articles }, (_, i) => ({ id: `${slug}-${i}`, text: `Article ${i}: BRCA1 (P38398) binds TP53.` }));
    if (articles > 0) await ms.articles(slug, list);
  }

  it('refuses every change to servers and runs, for teams and the organiser, with a sentence saying so', async () => {
    const good = await startFaultyServer({ kind: 'good' });
    const failing = await startFaultyServer({ kind: 'http', status: 500 });
    servers.push(good, failing);
    await challenge('frz', 2, { maxAttempts: 1, retryDelaySeconds: 0 });
    const running = await ms.server('frz', token, { name: 'running', url: good.url });
    const broken = await ms.server('frz', token, { name: 'broken', url: failing.url });
    const idle = await ms.server('frz', token, { name: 'idle', url: good.url });
    idleId = idle.id;
    await ms.startServer(running.id, token);
    await ms.startServer(broken.id, token);
    const db = ms.database.db;
    await waitFor('both servers settled', async () => {
      const rows = await db.query<{ n: number }>(
        `select count(*)::int as n from deliveries where server_id = any($1) and state in ('done', 'failed')`,
        [[running.id, broken.id]],
      );
      return rows[0].n === 4 ? true : undefined;
    });
    expect((await ms.request('PATCH', '/api/challenges/frz', { phase: 'closed' }, ADMIN_TOKEN)).status).toBe(200);

    const before = await db.query('select id, state, run_n from servers order by id');
    const refused: Array<[string, string, unknown, string]> = [
      ['POST', `/api/servers/${idle.id}/start`, undefined, token],
      ['POST', `/api/servers/${running.id}/pause`, undefined, token],
      ['POST', `/api/servers/${running.id}/check`, undefined, token],
      ['POST', `/api/servers/${broken.id}/retry-failed`, undefined, token],
      ['DELETE', `/api/servers/${idle.id}`, undefined, token],
      ['POST', '/api/challenges/frz/servers', { name: 'late', url: good.url, tasks: ['INT'] }, token],
      ['POST', `/api/servers/${idle.id}/start`, undefined, ADMIN_TOKEN],
      ['DELETE', `/api/servers/${idle.id}`, undefined, ADMIN_TOKEN],
      ['POST', `/api/servers/${broken.id}/retry-failed`, undefined, ADMIN_TOKEN],
    ];
    for (const [method, url, body, who] of refused) {
      const res = await ms.request(method, url, body, who);
      expect(res.status, `${method} ${url}`).toBe(409);
      expect(res.body.error.code).toBe('closed');
      expect(res.body.error.message).toMatch(CLOSED_SENTENCE);
    }
    const run = await ms.app!.inject({
      method: 'POST',
      url: '/api/challenges/frz/runs/INT',
      payload: 'frz-0\tP38398\t1\t0.9\n',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/tab-separated-values' },
    });
    expect(run.statusCode).toBe(409);
    expect(run.json().error.message).toMatch(CLOSED_SENTENCE);
    expect(await db.query('select id, state, run_n from servers order by id')).toEqual(before);
    expect((await db.query<{ n: number }>(`select count(*)::int as n from deliveries where server_id = $1`, [broken.id]))[0].n).toBe(2);
  });

  it('reopens only when asked to explicitly, and records who changed the phase and when', async () => {
    const reopenPlain = await ms.request('PATCH', '/api/challenges/frz', { phase: 'test' }, ADMIN_TOKEN);
    expect(reopenPlain.status).toBe(409);
    expect(reopenPlain.body.error.message).toContain('"reopen": true');
    expect((await ms.request('GET', '/api/challenges/frz')).body.phase).toBe('closed');
    const started = Date.now();
    const reopened = await ms.request('PATCH', '/api/challenges/frz', { phase: 'test', reopen: true }, ADMIN_TOKEN);
    expect(reopened.status).toBe(200);
    expect(reopened.body.phase).toBe('test');
    const view = (await ms.request('GET', '/api/challenges/frz')).body;
    expect(view.phaseChangedBy).toBe('organiser');
    expect(new Date(view.phaseChangedAt).getTime()).toBeGreaterThanOrEqual(started - 1000);
    expect(view.phaseHistory.map((h: { from: string; to: string; by: string }) => [h.from, h.to, h.by])).toEqual([
      ['setup', 'closed', 'organiser'],
      ['closed', 'test', 'organiser'],
    ]);
    expect(view.phaseHistory[1].address).toBe('127.0.0.1');
    // Open again: the team may act on its servers.
    expect((await ms.request('POST', `/api/servers/${idleId}/start`, undefined, token)).status).toBe(200);
  });

  it("keeps every run's published name when a server is deleted, and never gives a deleted one's name again", async () => {
    const good = await startFaultyServer({ kind: 'good' });
    servers.push(good);
    await challenge('names', 0);
    const a = await ms.server('names', token, { name: 'a', url: good.url });
    const b = await ms.server('names', token, { name: 'b', url: good.url });
    const c = await ms.server('names', token, { name: 'c', url: good.url });
    expect([a.runName, b.runName, c.runName]).toEqual([`T${teamId}_S1`, `T${teamId}_S2`, `T${teamId}_S3`]);
    expect((await ms.request('DELETE', `/api/servers/${b.id}`, undefined, token)).status).toBe(204);
    const d = await ms.server('names', token, { name: 'd', url: good.url });
    const listed = (await ms.request('GET', '/api/challenges/names/servers', undefined, token)).body as Array<{
      id: number;
      runName: string;
    }>;
    expect(listed.map((s) => [s.id, s.runName])).toEqual([
      [a.id, `T${teamId}_S1`],
      [c.id, `T${teamId}_S3`],
      [d.id, `T${teamId}_S4`],
    ]);
    // The published file name is the run name.
    const exported = await ms.app!.inject({
      method: 'GET',
      url: `/api/challenges/names/export/INT?server=${c.id}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(exported.headers['content-disposition']).toContain(`T${teamId}_S3.INT.tsv`);
  });

  it('a close committed without its queues paused (a crash in between): no request is made, no answer stored; a restart pauses the queues', async () => {
    const ARTICLES = 6;
    // The first two articles are held; the setup check's sample article is not.
    let articleCalls = 0;
    const gate = await gatedServer((_call, text) => text.startsWith('Article') && ++articleCalls <= 2);
    servers.push(gate.server);
    await challenge('crash', ARTICLES, { timeoutSeconds: 30, maxAttempts: 2, retryDelaySeconds: 0 });
    const server = await ms.server('crash', token, { name: 'gated', url: gate.server.url, concurrency: 2 });
    await ms.startServer(server.id, token);
    await waitFor('two requests in flight', async () => (gate.held === 2 ? true : undefined));

    // What PATCH commits before its queue step, and nothing more: the queue stays resumed.
    const closed = await ms.database.db.transaction(async (tx) => {
      const c = (await new ChallengeRepository(tx).bySlug('crash'))!;
      return await new ChallengeRepository(tx).changePhase(c.id, 'closed', 'organiser', null);
    });
    expect(closed!.phase).toBe('closed');
    const queues = ms.ctx.dispatch.queues;
    expect(await queues.isPaused(server.id)).toBe(false);
    gate.release(); // the two answers arrive after the close

    const db = ms.database.db;
    await waitFor(
      'every job turned away by the workers',
      async () => {
        const cut = await db.query<{ n: number }>(
          `select count(*)::int as n from attempts where server_id = $1 and outcome = 'interrupted'`,
          [server.id],
        );
        const c = await queues.counts(server.id);
        return cut[0].n === 2 && c.active === 0 && c.waiting === 0 && c.delayed === ARTICLES ? true : undefined;
      },
      30_000,
    );
    expect(articleCalls).toBe(2);
    expect(await db.query('select 1 from answers where server_id = $1', [server.id])).toHaveLength(0);
    const attempts = await db.query<{ outcome: string; detail: string }>('select outcome, detail from attempts where server_id = $1', [
      server.id,
    ]);
    expect(attempts).toHaveLength(2);
    for (const a of attempts) expect(a.detail).toMatch(/^the challenge was closed before this attempt ended: nothing was stored/);
    expect(
      (await db.query<{ state: string }>('select distinct state from deliveries where server_id = $1', [server.id])).map((r) => r.state),
    ).toEqual(['queued']);

    // The process dies and starts again on the same database: its start pass pauses the queue.
    await ms.stop();
    ms = await startTestMetaserver({ database, config: { queuePrefix: ms.config.queuePrefix } });
    await waitFor('the queue paused by the restart', async () => ((await ms.ctx.dispatch.queues.isPaused(server.id)) ? true : undefined));

    // Reopened: every article answered, each once; the two cut off are sent again.
    expect((await ms.request('PATCH', '/api/challenges/crash', { phase: 'test', reopen: true }, ADMIN_TOKEN)).status).toBe(200);
    await waitFor(
      'every article answered after the reopening',
      async () => {
        const rows = await ms.database.db.query<{ n: number }>(
          `select count(*)::int as n from deliveries where server_id = $1 and state = 'done'`,
          [server.id],
        );
        return rows[0].n === ARTICLES ? true : undefined;
      },
      30_000,
    );
    const answers = await ms.database.db.query<{ n: number }>(
      'select count(*)::int as n from answers where server_id = $1 group by article_id',
      [server.id],
    );
    expect(answers).toHaveLength(ARTICLES);
    expect(answers.every((a) => a.n === 1)).toBe(true);
    expect(articleCalls).toBe(2 + ARTICLES);
  }, 90_000);
});
