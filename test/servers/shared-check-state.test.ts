// A setup check is kept in the database: two API apps on one database (as two API processes
// are) both show it running, the second check is refused (inline: 409 with a sentence) or
// joins the running one (?background=true), and the team's server gets exactly one setup
// call. A claim whose process died stops counting once it expires. On PGlite and, with
// DATABASE_URL, PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { annotate } from '../../src/sample/annotator.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { startTestMetaserver, testDatabaseKinds, waitFor, type TestMetaserver } from '../support/runtime.ts';

describe.each(testDatabaseKinds())('setup-check state shared by API processes on %s', (databaseKind) => {
  let a: TestMetaserver;
  let b: TestMetaserver;
  let gated: FaultyServer;
  let team: string;
  /** The server answers calls only once the test opens the gate, so "while it runs" needs no timing. */
  const waiting: Array<() => void> = [];
  const openGate = () => waiting.splice(0).forEach((resolve) => resolve());

  beforeAll(async () => {
    a = await startTestMetaserver({ workers: false, databaseKind, config: { statusCacheMs: 0, checkTimeoutSeconds: 20 } });
    b = await startTestMetaserver({
      workers: false,
      database: a.database,
      config: { statusCacheMs: 0, checkTimeoutSeconds: 20, queuePrefix: a.config.queuePrefix },
    });
    gated = await startFaultyServer({
      kind: 'custom',
      handler: async (text, given) => {
        await new Promise<void>((resolve) => waiting.push(resolve));
        return annotate(text, given);
      },
    });
    await a.challenge('sc', { name: 'Shared checks' });
    team = (await a.team('Checkers')).token;
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await gated?.close();
  });

  it('shows the check from both apps, refuses or joins a second one, and calls the server once', async () => {
    const registered = await a.request(
      'POST',
      '/api/challenges/sc/servers?background=true',
      { name: 'gated', url: gated.url, tasks: ['INT'] },
      team,
    );
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({ check: null, checkRunning: true });
    const id = registered.body.id as number;
    await waitFor('the setup call to arrive', async () => (gated.requests === 1 ? true : undefined));

    // Both apps show it, with the same start.
    const fromA = await a.request('GET', `/api/servers/${id}`, undefined, team);
    const fromB = await b.request('GET', `/api/servers/${id}`, undefined, team);
    for (const seen of [fromA, fromB])
      expect(seen.body).toMatchObject({ checkRunning: true, check: null, checkStartedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(fromB.body.checkStartedAt).toBe(fromA.body.checkStartedAt);

    // The other app refuses an inline check with a sentence, and joins a background one.
    const inline = await b.request('POST', `/api/servers/${id}/check`, undefined, team);
    expect(inline.status).toBe(409);
    expect(inline.body.error.code).toBe('conflict');
    expect(inline.body.error.message).toMatch(
      new RegExp(
        `^a setup check of server ${id} is already running \\(started ${fromA.body.checkStartedAt.replace(/[.]/g, '\\.')}\\); its result appears in GET /api/servers/${id} when it ends`,
      ),
    );
    const joined = await b.request('POST', `/api/servers/${id}/check?background=true`, undefined, team);
    expect(joined.status).toBe(202);
    expect(joined.body).toMatchObject({ checkRunning: true, checkStartedAt: fromA.body.checkStartedAt });
    // The same app refuses too.
    expect((await a.request('POST', `/api/servers/${id}/check`, undefined, team)).status).toBe(409);

    openGate();
    const done = await waitFor('the check to end', async () => {
      const seen = await b.request('GET', `/api/servers/${id}`, undefined, team);
      return seen.body.checkRunning ? undefined : seen;
    });
    expect(done.body).toMatchObject({ checkRunning: false, check: { ok: true, outcome: 'ok' } });
    expect(done.body.checkStartedAt).toBeUndefined();
    expect((await a.request('GET', `/api/servers/${id}`, undefined, team)).body.checkRunning).toBe(false);
    expect(gated.requests).toBe(1);

    // Once it has ended, the other app checks again: a second call.
    const again = b.request('POST', `/api/servers/${id}/check`, undefined, team);
    await waitFor('the second setup call', async () => (gated.requests === 2 ? true : undefined));
    openGate();
    expect((await again).status).toBe(200);
    expect(await a.database.db.query('select * from running_checks')).toEqual([]);
  }, 30_000);

  it('a claim left by a process that died counts until it expires, then a check takes it over', async () => {
    const id = (await a.server('sc', team, { name: 'orphaned', url: gated.url }, { background: true })).id as number;
    const before = gated.requests;
    await waitFor('the setup call', async () => (gated.requests === before + 1 ? true : undefined));
    // The process "dies": its claim stays, but its check never ends (the gate stays shut for it).
    await a.database.db.query(`update running_checks set process = 'a process that died' where server_id = $1`, [id]);
    expect((await b.request('GET', `/api/servers/${id}`, undefined, team)).body.checkRunning).toBe(true);
    expect((await b.request('POST', `/api/servers/${id}/check`, undefined, team)).status).toBe(409);
    // Its expiry passes.
    await a.database.db.query(`update running_checks set expires_at = now() - interval '1 second' where server_id = $1`, [id]);
    expect((await b.request('GET', `/api/servers/${id}`, undefined, team)).body.checkRunning).toBe(false);
    const taken = await b.request('POST', `/api/servers/${id}/check?background=true`, undefined, team);
    expect(taken.status).toBe(202);
    const rows = await a.database.db.query<{ process: string }>('select process from running_checks where server_id = $1', [id]);
    expect(rows).toHaveLength(1);
    expect(rows[0].process).not.toBe('a process that died');
    expect((await a.request('GET', `/api/servers/${id}`, undefined, team)).body.checkRunning).toBe(true);
    // Both calls (the dead one's and the new one) are let through so the apps stop cleanly.
    await waitFor('the new setup call', async () => (gated.requests === before + 2 ? true : undefined));
    openGate();
  }, 30_000);
});
