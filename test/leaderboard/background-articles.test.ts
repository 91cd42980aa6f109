// Background articles end to end (migration 016), on PGlite and, with DATABASE_URL, on
// PostgreSQL: a challenge hides four scored articles among four background ones, another holds
// the four scored ones alone; the same sample server answers both, the same gold (naming
// background articles too) and the same offline run are loaded into both, and every figure of
// their leaderboards agrees. Teams see a background article exactly as a scored one; the
// organiser marks, counts and is refused with the unknown ids listed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSampleServer, type SampleServer } from '../../src/sample/server.ts';
import { ADMIN_TOKEN, startTestMetaserver, testDatabaseKinds, waitFor, type TestMetaserver } from '../support/runtime.ts';
import { send, tsv } from './helpers.ts';

const SCORED = [
  { id: 'd1', text: 'Alpha-synuclein P37840 binds BRCA1 P38398 and P04637.' },
  { id: 'd2', text: 'Q9Y6K9 forms a complex with O14920 and interacts with P38398.' },
  { id: 'd3', text: 'The kinase P31749 was measured in serum.' },
  { id: 'd4', text: 'Nothing of note here.' },
];
const BACKGROUND = [
  { id: 'b1', text: 'P12345 binds P67890 in a complex.' },
  { id: 'b2', text: 'Q13547 interacts with P04637.' },
  { id: 'b3', text: 'Serum levels were unchanged.' },
  { id: 'b4', text: 'P00533 binds P31749 and interacts with O14920.' },
];
// The gold names background articles too: their documents must not count.
const INT_GOLD = tsv([
  ['d1', 'P37840'],
  ['d1', 'P04637'],
  ['d2', 'O14920'],
  ['d2', 'Q13547'],
  ['d3', 'P31749'],
  ['d4', 'P99999'],
  ['b1', 'P11111'],
  ['b2', 'Q13547'],
  ['b4', 'P00533'],
]);
const ACT_GOLD = tsv([
  ['d1', '1'],
  ['d2', '1'],
  ['d3', '1'],
  ['d4', '0'],
  ['b1', '0'],
  ['b2', '1'],
  ['b3', '1'],
]);
// A team's offline run, answering background articles too (wrongly, so they would change the figures).
const INT_RUN = tsv([
  ['d1', 'P04637', '1', '0.9'],
  ['d1', 'P37840', '2', '0.8'],
  ['d2', 'O14920', '1', '0.7'],
  ['d3', 'P00533', '1', '0.5'],
  ['b1', 'P22222', '1', '0.9'],
  ['b4', 'P33333', '1', '0.9'],
]);

/** A JSON value's shape: its keys and the kinds of their values, all the way down, values left out. */
function shapeOf(value: unknown): unknown {
  // A list's shape: the distinct shapes of its items (two answers differ in length, not in form).
  if (Array.isArray(value)) return [...new Set(value.map((v) => JSON.stringify(shapeOf(v))))].sort();
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, shapeOf(v)]));
  return value === null ? 'null' : typeof value;
}

const metricsOf = (board: { runs: Array<{ kind: string; metrics: unknown; answered?: number }> }) =>
  board.runs.map((r) => ({ kind: r.kind, answered: r.answered, metrics: r.metrics }));

describe.each(testDatabaseKinds())('background articles (%s)', (kind) => {
  let ms: TestMetaserver;
  let sample: SampleServer;
  let teamA: { id: number; token: string };
  let teamB: { id: number; token: string };
  let ids: Record<string, string> = {};

  beforeAll(async () => {
    ms = await startTestMetaserver({ databaseKind: kind });
    sample = await startSampleServer({ port: 0 });
    teamA = await ms.team('Team A');
    teamB = await ms.team('Team B');
    const servers: Array<{ id: number; n: number }> = [];
    for (const [slug, n] of [
      ['bg', 8],
      ['only', 4],
    ] as const) {
      await ms.challenge(slug, { tasks: ['ACT', 'INT'] });
      const server = await ms.server(slug, teamA.token, { name: 'sample', url: sample.url, tasks: ['ACT', 'INT'] });
      servers.push({ id: server.id, n });
    }
    // Marked at load: one listed article, then a request whose articles are all background but one.
    const first = await ms.articles('bg', [...SCORED, { ...BACKGROUND[0], background: true }]);
    const rest = await ms.articles('bg', {
      articles: [BACKGROUND[1], BACKGROUND[2], { ...BACKGROUND[3], background: false }],
      background: true,
    });
    ids = { ...first.ids, ...rest.ids };
    await ms.articles('only', SCORED);
    for (const s of servers) {
      await ms.startServer(s.id, teamA.token);
      await waitFor(
        `${s.n} answers`,
        async () =>
          (await ms.request('GET', `/api/servers/${s.id}`, undefined, ADMIN_TOKEN)).body.progress.done === s.n ? true : undefined,
        45_000,
      );
    }
  });
  afterAll(async () => {
    await ms?.stop();
    await sample?.close();
  });

  it('counts what was marked at load, and the organiser marks more (PATCH)', async () => {
    const counts = await send(ms, 'GET', '/api/challenges/bg/scored-articles', { token: ADMIN_TOKEN });
    expect(counts.json).toEqual({ challenge: 'bg', articles: 8, scored: 5, background: 3 });
    const patched = await send(ms, 'PATCH', '/api/challenges/bg/scored-articles', { body: { background: ['b4'] }, token: ADMIN_TOKEN });
    expect(patched.status).toBe(200);
    expect(patched.json).toEqual({ challenge: 'bg', articles: 8, scored: 4, background: 4, changed: 1 });
    const listed = await send(ms, 'GET', '/api/challenges/bg/scored-articles?list=background', { token: ADMIN_TOKEN });
    expect(listed.json.ids).toEqual(['b1', 'b2', 'b3', 'b4']);
  });

  it('warns when gold names background articles, and scores as if they were not there', async () => {
    // The challenge of the scored articles alone has the gold of those alone.
    const scoredOnly = (gold: string) => gold.replace(/^b.*\n/gm, '');
    for (const slug of ['bg', 'only']) {
      const gold = (body: string) => (slug === 'bg' ? body : scoredOnly(body));
      const intGold = await send(ms, 'PUT', `/api/challenges/${slug}/gold/INT`, { body: gold(INT_GOLD), token: ADMIN_TOKEN });
      expect(intGold.status).toBe(200);
      const actGold = await send(ms, 'PUT', `/api/challenges/${slug}/gold/ACT`, { body: gold(ACT_GOLD), token: ADMIN_TOKEN });
      expect(actGold.status).toBe(200);
      const warned = intGold.json.warnings.filter((w: string) => /background articles/.test(w));
      if (slug === 'bg')
        expect(warned).toEqual([expect.stringMatching(/^3 document\(s\) of the gold standard are background articles .*b1, b2, b4/)]);
      else expect(warned).toEqual([]);
      expect((await send(ms, 'POST', `/api/challenges/${slug}/runs/INT`, { body: INT_RUN, token: teamB.token })).status).toBe(201);
    }
    for (const task of ['INT', 'ACT']) {
      const bg = (await send(ms, 'GET', `/api/challenges/bg/scores/${task}`, { token: ADMIN_TOKEN })).json;
      const only = (await send(ms, 'GET', `/api/challenges/only/scores/${task}`, { token: ADMIN_TOKEN })).json;
      expect(bg.runs.length).toBe(task === 'INT' ? 2 : 1);
      expect(metricsOf(bg)).toEqual(metricsOf(only));
      expect(bg.runs.find((r: { kind: string }) => r.kind === 'S').answered).toBe(4);
    }
    const withConsensus = (slug: string) => send(ms, 'GET', `/api/challenges/${slug}/scores/INT?consensus=1&all=1`, { token: ADMIN_TOKEN });
    expect(metricsOf((await withConsensus('bg')).json)).toEqual(metricsOf((await withConsensus('only')).json));
  });

  it('changes the leaderboard when the marks change (PUT: the scored ones, all others background)', async () => {
    const put = await send(ms, 'PUT', '/api/challenges/bg/scored-articles', { body: { scored: ['d1', 'd2'] }, token: ADMIN_TOKEN });
    expect(put.json).toEqual({ challenge: 'bg', articles: 8, scored: 2, background: 6, changed: 2 });
    const board = (await send(ms, 'GET', '/api/challenges/bg/scores/INT', { token: ADMIN_TOKEN })).json;
    expect(board.runs.find((r: { kind: string }) => r.kind === 'S')).toMatchObject({ answered: 2, metrics: { evaluatedDocs: 2 } });
    const back = await send(ms, 'PUT', '/api/challenges/bg/scored-articles', {
      body: { scored: ['d1', 'd2', 'd3', 'd4'] },
      token: ADMIN_TOKEN,
    });
    expect(back.json).toMatchObject({ scored: 4, background: 4, changed: 2 });
  });

  it('refuses unknown ids, ids in both lists and an empty change, changing nothing', async () => {
    const unknown = await send(ms, 'PUT', '/api/challenges/bg/scored-articles', {
      body: { scored: ['d1', 'nope-1', 'b2', 'nope-2'] },
      token: ADMIN_TOKEN,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.message).toMatch(
      /^2 organiser id\(s\) name no article of challenge "bg": nope-1, nope-2; nothing was changed/,
    );
    expect(unknown.json.error.details).toEqual({ unknown: ['nope-1', 'nope-2'] });
    const patch = await send(ms, 'PATCH', '/api/challenges/bg/scored-articles', { body: { scored: ['b1', 'x9'] }, token: ADMIN_TOKEN });
    expect(patch.status).toBe(400);
    expect(patch.json.error.details).toEqual({ unknown: ['x9'] });
    const both = await send(ms, 'PATCH', '/api/challenges/bg/scored-articles', {
      body: { scored: ['b1'], background: ['b1'] },
      token: ADMIN_TOKEN,
    });
    expect(both.status).toBe(400);
    expect(both.json.error.message).toMatch(/in both lists/);
    expect((await send(ms, 'PATCH', '/api/challenges/bg/scored-articles', { body: {}, token: ADMIN_TOKEN })).status).toBe(400);
    const counts = await send(ms, 'GET', '/api/challenges/bg/scored-articles', { token: ADMIN_TOKEN });
    expect(counts.json).toMatchObject({ scored: 4, background: 4 });
    expect((await send(ms, 'GET', '/api/challenges/bg/scored-articles', { token: teamA.token })).status).toBe(403);
    expect((await send(ms, 'PUT', '/api/challenges/bg/scored-articles', { body: { scored: ['d1'] } })).status).toBe(401);
    expect((await send(ms, 'GET', '/api/challenges/nope/scored-articles', { token: ADMIN_TOKEN })).status).toBe(404);
  });

  it('shows teams a background article exactly as a scored one, and the organiser the counts', async () => {
    for (const token of [teamA.token, teamB.token, undefined]) {
      const views = [];
      for (const id of ['d1', 'b1']) {
        const byId = await send(ms, 'GET', `/api/articles/${ids[id]}`, { token });
        const byOrganiserId = await send(ms, 'GET', `/api/challenges/bg/articles/${id}`, { token });
        expect(byId.status).toBe(byOrganiserId.status);
        expect(JSON.stringify(byId.json)).not.toMatch(/scored|background/i);
        views.push({ status: byId.status, shape: shapeOf(byId.json), byOrganiserId: shapeOf(byOrganiserId.json) });
      }
      expect(views[1]).toEqual(views[0]);
    }
    // The team's own export holds every article its server answered, background or not.
    const exported = await send(ms, 'GET', `/api/challenges/bg/export/INT?server=${(await serverOf('bg')).id}`, { token: teamA.token });
    expect(
      exported.text
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]),
    ).toEqual(expect.arrayContaining(['b1', 'b4', 'd1']));
    const teamView = await send(ms, 'GET', '/api/challenges/bg', { token: teamA.token });
    expect(teamView.json.counts).toEqual({ articles: 8, servers: 1, teams: 1 });
    expect((await send(ms, 'GET', '/api/challenges', {})).json.find((c: { slug: string }) => c.slug === 'bg').counts).toEqual({
      articles: 8,
      servers: 1,
      teams: 1,
    });
    const organiserView = await send(ms, 'GET', '/api/challenges/bg', { token: ADMIN_TOKEN });
    expect(organiserView.json.counts).toEqual({ articles: 8, servers: 1, teams: 1, scored: 4, background: 4 });
    const glance = await ms.app!.inject({
      method: 'GET',
      url: '/fragments/organiser',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(glance.body).toMatch(/8 articles \(<span data-scored="bg">4 scored<\/span>, <span data-background="bg">4 background<\/span>\)/);
    expect(glance.body).toMatch(/4 articles, 1 servers/);
  });

  it('keeps on-demand submitters from marking, and the marks once the leaderboards are published', async () => {
    const onDemand = await send(ms, 'POST', '/api/articles', { body: { text: 'P37840 binds P38398.', background: true } });
    expect(onDemand.status).toBe(400);
    expect((await send(ms, 'PATCH', '/api/challenges/bg', { body: { phase: 'closed' }, token: ADMIN_TOKEN })).status).toBe(200);
    // Closed: marks may still change (the gold and the scoring are the organiser's until published).
    expect((await send(ms, 'PATCH', '/api/challenges/bg/scored-articles', { body: { scored: ['d4'] }, token: ADMIN_TOKEN })).status).toBe(
      200,
    );
    expect((await send(ms, 'PATCH', '/api/challenges/bg', { body: { leaderboardPublished: true }, token: ADMIN_TOKEN })).status).toBe(200);
    const refused = await send(ms, 'PATCH', '/api/challenges/bg/scored-articles', { body: { background: ['d4'] }, token: ADMIN_TOKEN });
    expect(refused.status).toBe(409);
    expect(refused.json.error.message).toMatch(/are published.*nothing was changed\. Withdraw the publication first/);
    expect((await send(ms, 'PATCH', '/api/challenges/bg', { body: { leaderboardPublished: false }, token: ADMIN_TOKEN })).status).toBe(200);
    expect(
      (await send(ms, 'PATCH', '/api/challenges/bg/scored-articles', { body: { background: ['d4'] }, token: ADMIN_TOKEN })).status,
    ).toBe(200);
  });

  async function serverOf(slug: string): Promise<{ id: number }> {
    const list = await ms.request('GET', `/api/challenges/${slug}/servers`, undefined, ADMIN_TOKEN);
    return list.body[0] ?? list.body.servers[0];
  }
});
