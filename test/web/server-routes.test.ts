// DELETE /api/servers/:id and the response-time histogram of GET /api/servers/:id, plus the
// web routes' plumbing (static assets with cache headers, hidden from OpenAPI, escaping).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSampleServer, type SampleServer } from '../../src/sample/server.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';

let ms: TestMetaserver;
let sample: SampleServer;
let token: string;
let other: string;

beforeAll(async () => {
  ms = await startTestMetaserver({ config: { statusCacheMs: 0 } });
  sample = await startSampleServer({ port: 0 });
  await ms.challenge('del', { name: 'Delete', tasks: ['ACT', 'INT'] });
  token = (await ms.team('Deleters')).token;
  other = (await ms.team('Others')).token;
  const articles = [1, 2].map((i) => ({ id: `D${i}`, text: `Article ${i}: BRCA1 (P38398) binds.` }));
  await ms.articles('del', articles);
});
afterAll(async () => {
  await ms?.stop();
  await sample?.close();
});

const count = async (table: string, serverId: number) =>
  (
    await ms.database.db.query<{ n: number }>(
      `select count(*)::int as n from ${table} where ${table === 'servers' ? 'id' : 'server_id'} = $1`,
      [serverId],
    )
  )[0].n;

describe('DELETE /api/servers/:id', () => {
  it('refuses an active server, then deletes the paused one with its deliveries, attempts, answers and queue', async () => {
    const server = await ms.server('del', token, { name: 's', url: sample.url, tasks: ['ACT', 'INT'] });
    await ms.startServer(server.id, token);
    // The page's figures are read in parallel, each on its own connection with PostgreSQL: the
    // counters may see the second answer a moment before the histogram's read does.
    const binned = (body: { histogram: Array<{ count: number }> }) => body.histogram.reduce((n, b) => n + b.count, 0);
    const status = await waitFor('both articles answered and binned', async () => {
      const res = await ms.request('GET', `/api/servers/${server.id}`, undefined, token);
      return res.body.progress.done === 2 && binned(res.body) >= 2 ? res.body : undefined;
    });
    // The histogram counts the two answers, no more, in bins that cover their response times.
    expect(binned(status)).toBe(2);
    for (const bin of status.histogram) expect(bin.toMs === null || bin.toMs > bin.fromMs).toBe(true);
    expect(status.histogram[0].count).toBeGreaterThan(0);
    expect(status.histogram.at(-1).count).toBeGreaterThan(0);

    const active = await ms.request('DELETE', `/api/servers/${server.id}`, undefined, token);
    expect(active.status).toBe(409);
    expect(active.body.error.message).toMatch(/pause it first/);

    await ms.request('POST', `/api/servers/${server.id}/pause`, undefined, token);
    expect((await ms.request('DELETE', `/api/servers/${server.id}`, undefined, other)).status).toBe(404);
    expect((await ms.request('DELETE', `/api/servers/${server.id}`)).status).toBe(401);
    const deleted = await ms.request('DELETE', `/api/servers/${server.id}`, undefined, token);
    expect(deleted.status).toBe(204);
    for (const table of ['deliveries', 'attempts', 'answers', 'servers']) expect(await count(table, server.id)).toBe(0);
    const counts = await ms.ctx.dispatch.queues.counts(server.id);
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(0);
    expect((await ms.request('GET', `/api/servers/${server.id}`, undefined, token)).status).toBe(404);
    // The name is free again.
    expect((await ms.request('POST', '/api/challenges/del/servers', { name: 's', url: sample.url, tasks: ['ACT'] }, token)).status).toBe(
      201,
    );
  });

  it('lets the organiser delete any paused server', async () => {
    const server = await ms.server('del', other, { name: 'admin-deletes', url: sample.url, tasks: ['ACT'] });
    expect((await ms.request('DELETE', `/api/servers/${server.id}`, undefined, ADMIN_TOKEN)).status).toBe(204);
  });
});

describe('web routes', () => {
  it('serves the pages with security headers, escapes stored names, and hides them from OpenAPI', async () => {
    await ms.challenge('esc', { name: '<script>alert(1)</script>', tasks: ['ACT'] });
    const home = await ms.app!.inject({ method: 'GET', url: '/' });
    expect(home.statusCode).toBe(200);
    expect(home.headers['content-type']).toMatch(/^text\/html/);
    expect(home.headers['content-security-policy']).toContain("script-src 'self'");
    expect(home.body).toContain('<html lang="en">');
    expect(home.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(home.body).not.toContain('<script>alert(1)</script>');
    const openapi = await ms.app!.inject({ method: 'GET', url: '/openapi.json' });
    const paths = Object.keys(openapi.json().paths);
    expect(paths).toContain('/api/servers/{id}');
    const web = [
      '/',
      '/team',
      '/organiser',
      '/servers/{id}',
      '/articles/{id}',
      '/challenges/{slug}/leaderboard/{task}',
      '/static/app.css',
      '/static/app.js',
    ];
    expect(paths.filter((p) => web.includes(p) || p.startsWith('/fragments'))).toEqual([]);
  });

  it('serves the stylesheet and script with long cache headers and answers 304 to a matching ETag', async () => {
    const home = await ms.app!.inject({ method: 'GET', url: '/team' });
    const cssUrl = /href="(\/static\/app\.css\?v=[0-9a-f]+)"/.exec(home.body)![1];
    const css = await ms.app!.inject({ method: 'GET', url: cssUrl });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.headers['cache-control']).toMatch(/max-age=\d+/);
    const again = await ms.app!.inject({ method: 'GET', url: cssUrl, headers: { 'if-none-match': String(css.headers.etag) } });
    expect(again.statusCode).toBe(304);
    const js = await ms.app!.inject({ method: 'GET', url: '/static/app.js' });
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
  });

  it("answers a fragment without a token with the API's refusal, as HTML", async () => {
    const res = await ms.app!.inject({ method: 'GET', url: '/fragments/servers/1' });
    expect(res.statusCode).toBe(401);
    expect(res.body).toMatch(/<p class="error" role="alert">.*Paste your token/);
  });
});

describe('GET /api/servers/:id status figures', () => {
  it('are kept for statusCacheMs per server and caller; a change through the API drops them at once', async () => {
    const cached = await startTestMetaserver({ config: { statusCacheMs: 60_000 } });
    try {
      await cached.challenge('cache', { name: 'Cache' });
      const team = (await cached.team('Cachers')).token;
      const server = await cached.server('cache', team, { name: 'c', url: sample.url });
      const before = (await cached.request('GET', `/api/servers/${server.id}`, undefined, team)).body;
      expect(before.state).toBe('paused');
      await cached.startServer(server.id, team);
      const started = (await cached.request('GET', `/api/servers/${server.id}`, undefined, team)).body;
      expect(started.state).toBe('active'); // the start dropped the kept response
      expect(started.progress).toEqual({ queued: 0, active: 0, done: 0, failed: 0 });
      // The organiser's view is kept apart from the team's.
      expect((await cached.request('GET', `/api/servers/${server.id}`, undefined, ADMIN_TOKEN)).body.progress.done).toBe(0);
      await cached.articles('cache', [{ id: 'C1', text: 'BRCA1 (P38398) binds.' }]);
      await waitFor('the answer', async () =>
        (await cached.database.db.query(`select 1 from answers where server_id = $1`, [server.id])).length > 0 ? true : undefined,
      );
      const within = (await cached.request('GET', `/api/servers/${server.id}`, undefined, team)).body;
      expect(within.progress).toEqual(started.progress); // within the window: what was computed first
      await cached.request('POST', `/api/servers/${server.id}/pause`, undefined, team);
      const paused = (await cached.request('GET', `/api/servers/${server.id}`, undefined, team)).body;
      expect(paused.state).toBe('paused');
      expect(paused.progress.done).toBe(1); // computed again after the change
      // Another team still gets a 404, never the kept response.
      const other = (await cached.team('Others')).token;
      expect((await cached.request('GET', `/api/servers/${server.id}`, undefined, other)).status).toBe(404);
    } finally {
      await cached.stop();
    }
    // With statusCacheMs 0 (the other metaserver of this file) every request computes them.
    const s = await ms.server('del', token, { name: 'fresh', url: sample.url });
    expect((await ms.request('GET', `/api/servers/${s.id}`, undefined, token)).body.progress.queued).toBe(0);
    await ms.startServer(s.id, token);
    await waitFor('both answers', async () => ((await count('answers', s.id)) === 2 ? true : undefined));
    expect((await ms.request('GET', `/api/servers/${s.id}`, undefined, token)).body.progress.done).toBe(2);
  });
});
