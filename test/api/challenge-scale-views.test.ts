// What people look at while a challenge runs (issue 31), on a small challenge with a server
// that answers, one that fails every article and one never started: article states that say
// what happened (settled, answered by N, failed at M — the same words on the list and the
// article), the list filtered by one server's outcome, a server's failures by kind with a
// paged list of attempts, and the organiser's glance from aggregates with closed challenges
// folded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSampleServer, type SampleServer } from '../../src/sample/server.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';

let ms: TestMetaserver;
let sample: SampleServer;
let broken: FaultyServer;
let team = '';
const ids = { good: 0, broken: 0, idle: 0, other: 0 };
let articleIds: Record<string, string> = {};

beforeAll(async () => {
  ms = await startTestMetaserver();
  sample = await startSampleServer({ port: 0 });
  broken = await startFaultyServer({ kind: 'http', status: 500 });
  await ms.challenge('sv', { name: 'Views', maxAttempts: 1, retryDelaySeconds: 0 });
  await ms.challenge('old', { name: 'Old one' });
  team = (await ms.team('Views team')).token;
  ids.good = (await ms.server('sv', team, { name: 'good', url: sample.url })).id;
  ids.broken = (await ms.server('sv', team, { name: 'broken', url: broken.url })).id;
  ids.idle = (await ms.server('sv', team, { name: 'idle', url: sample.url })).id;
  ids.other = (await ms.server('old', team, { name: 'elsewhere', url: sample.url })).id;
  const articles = ['A1', 'A2', 'A3'].map((id) => ({ id, text: `${id}: BRCA1 (P38398) binds TP53.` }));
  articleIds = (await ms.articles('sv', articles)).ids;
  for (const id of [ids.good, ids.broken]) await ms.startServer(id, team);
  await waitFor(
    '6 settled pairs',
    async () => {
      const rows = await ms.database.db.query<{ n: number }>(`select count(*)::int as n from deliveries where state in ('done', 'failed')`);
      return rows[0].n === 6 ? true : undefined;
    },
    30_000,
  );
  expect((await ms.request('PATCH', '/api/challenges/old', { phase: 'closed' }, ADMIN_TOKEN)).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await ms?.stop();
  await sample?.close();
  await broken?.close();
});

const list = async (query: string, token = ADMIN_TOKEN) => ms.request('GET', `/api/challenges/sv/articles${query}`, undefined, token);
const organiserIds = (body: { articles: Array<{ organiserId: string }> }) => body.articles.map((a) => a.organiserId);

describe('article states that say what happened', () => {
  it('an article one server answered and one failed for good is settled (done), with the counts in words', async () => {
    const all = await list('');
    expect(all.status).toBe(200);
    expect(all.body.articles).toHaveLength(3);
    for (const a of all.body.articles) {
      expect(a).toMatchObject({ state: 'done', servers: 2, done: 1, failed: 1, summary: 'answered by 1 of 2 servers, failed at 1' });
    }
    expect((await list('?state=done')).body.total).toBe(3);
    expect((await list('?state=failed')).body.total).toBe(3);
    expect((await list('?state=running')).body.total).toBe(0);
  });

  it('the article says the same as the list', async () => {
    const article = await ms.request('GET', `/api/articles/${articleIds.A2}?text=false`, undefined, ADMIN_TOKEN);
    expect(article.status).toBe(200);
    expect(article.body.status).toBe('done');
    expect(article.body.progress).toEqual({ servers: 2, answered: 1, failed: 1, summary: 'answered by 1 of 2 servers, failed at 1' });
    const row = (await list('')).body.articles.find((a: { id: string }) => a.id === articleIds.A2);
    expect(row.summary).toBe(article.body.progress.summary);
    // The article page shows those words too.
    const fragment = await ms.app!.inject({
      method: 'GET',
      url: `/fragments/articles/${articleIds.A2}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(fragment.body).toContain(`<span data-article-progress>${row.summary}</span>`);
    // A team sees its own servers' states, not counts over the others'.
    const other = (await ms.team('Other team')).token;
    await ms.server('sv', other, { name: 'theirs', url: sample.url });
    const theirs = await ms.request('GET', `/api/articles/${articleIds.A2}?text=false`, undefined, other);
    expect(theirs.body.progress).toBeUndefined();
  });

  it("filters by one server's outcome: its lost articles are one request away", async () => {
    expect(organiserIds((await list(`?server=${ids.broken}&outcome=failed`)).body)).toEqual(['A1', 'A2', 'A3']);
    const failedHere = await list(`?server=${ids.broken}&outcome=failed`);
    expect(failedHere.body.server).toEqual({ id: ids.broken, name: 'broken', outcome: 'failed' });
    expect((await list(`?server=${ids.good}&outcome=failed`)).body.total).toBe(0);
    expect(organiserIds((await list(`?server=${ids.good}&outcome=answered`)).body)).toEqual(['A1', 'A2', 'A3']);
    expect((await list(`?server=${ids.good}&outcome=pending`)).body.total).toBe(0);
    // Never started: every article is still pending for it.
    expect((await list(`?server=${ids.idle}&outcome=pending`)).body.total).toBe(3);
    expect((await list(`?server=${ids.broken}&outcome=failed&state=running`)).body.total).toBe(0);
  });

  it('refuses half a server filter and a server of another challenge, in words', async () => {
    const half = await list(`?server=${ids.good}`);
    expect(half.status).toBe(400);
    expect(half.body.error.message).toBe('server and outcome go together: ?server=<server id>&outcome=answered|failed|pending');
    const elsewhere = await list(`?server=${ids.other}&outcome=failed`);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error.message).toContain(`server ${ids.other} in challenge "sv"`);
    expect((await list('?server=1&outcome=lost')).status).toBe(400);
  });
});

describe('failures by kind', () => {
  it("counts a server's failed attempts by kind, with when and an example that says what to do", async () => {
    const status = await ms.request('GET', `/api/servers/${ids.broken}`, undefined, team);
    expect(status.status).toBe(200);
    expect(Object.keys(status.body.failuresByKind)).toEqual(['http']);
    const http = status.body.failuresByKind.http;
    expect(http.count).toBe(3);
    expect(Date.parse(http.firstAt)).toBeLessThanOrEqual(Date.parse(http.lastAt));
    expect(['A1', 'A2', 'A3']).toContain(http.example.article);
    expect(http.example.detail).toMatch(/500/);
    expect(http.example.hint).toMatch(/HTTP error status/);
    expect((await ms.request('GET', `/api/servers/${ids.good}`, undefined, team)).body.failuresByKind).toEqual({});
  });

  it('pages the latest failed attempts', async () => {
    const first = await ms.request('GET', `/api/servers/${ids.broken}?errorsLimit=2`, undefined, team);
    const rest = await ms.request('GET', `/api/servers/${ids.broken}?errorsLimit=2&errorsOffset=2`, undefined, team);
    expect(first.body.errors).toHaveLength(2);
    expect(rest.body).toMatchObject({ errorsOffset: 2 });
    expect(rest.body.errors).toHaveLength(1);
    const seen = [...first.body.errors, ...rest.body.errors].map((e: { article: string }) => e.article).sort();
    expect(seen).toEqual(['A1', 'A2', 'A3']);
    expect((await ms.request('GET', `/api/servers/${ids.broken}?errorsLimit=101`, undefined, team)).status).toBe(400);
  });

  it('the server page shows the summary first and one row for attempts alike, with the way to the lost articles', async () => {
    const res = await ms.app!.inject({
      method: 'GET',
      url: `/fragments/servers/${ids.broken}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    const body = res.body;
    expect(body.indexOf('data-failure-kind="http"')).toBeGreaterThan(0);
    expect(body.indexOf('data-failure-kind="http"')).toBeLessThan(body.indexOf('<table class="errors"'));
    expect(body.match(/<tr data-error-kind=/g)).toHaveLength(1);
    expect(body).toContain('data-alike="2"');
    expect(body).toContain(`href="/challenges/sv/articles?server=${ids.broken}&amp;outcome=failed"`);
  });
});

describe("the organiser's glance", () => {
  const glance = (query = '', token: string | null = ADMIN_TOKEN) =>
    ms.app!.inject({ method: 'GET', url: `/fragments/organiser${query}`, headers: token ? { authorization: `Bearer ${token}` } : {} });

  it('shows open challenges with every server, and folds the closed ones to a line', async () => {
    const res = await glance();
    expect(res.statusCode).toBe(200);
    for (const id of [ids.good, ids.broken, ids.idle]) expect(res.body).toContain(`data-server-row="${id}"`);
    expect(res.body).not.toContain(`data-server-row="${ids.other}"`);
    expect(res.body).toContain('data-folded="old"');
    const row = (id: number) => new RegExp(`<tr[^>]*data-server-row="${id}">.*?</tr>`, 's').exec(res.body)?.[0] ?? '';
    expect(row(ids.good)).toContain('3 of 3');
    expect(row(ids.broken)).toMatch(/3 of 3.*\(3 failed\)/s);
    const shown = await glance('?closed=show');
    expect(shown.body).toContain(`data-server-row="${ids.other}"`);
    expect(shown.body).not.toContain('data-folded=');
  });

  it("is the organiser's only", async () => {
    expect((await glance('', null)).statusCode).toBe(401);
    const team403 = await glance('', team);
    expect(team403.statusCode).toBe(403);
    expect(team403.body).toContain('not the organiser token');
  });
});
