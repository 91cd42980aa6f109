// TOPIC from a real annotation server to the pages: the sample XML-RPC server (which answers
// LitCovid topics by word stem) is registered twice for TOPIC (the setup check judges its
// answer), a challenge's articles go through dispatch, the answers are validated and
// stored, scored on the leaderboard against gold worked out by hand (with an offline run
// in the official form and the consensus row), exported, voted on, served by the BCMS
// XML-RPC read API and shown on the article and leaderboard pages. A second challenge names
// labels of its own: the sample's LitCovid answer is refused there, its gold and runs hold them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheckServerCommand } from '../../../src/cli/check-server.ts';
import { startSampleServer, type SampleServer } from '../../../src/sample/server.ts';
import { expectFigures, send } from '../../leaderboard/helpers.ts';
import { startFaultyServer } from '../../support/faulty-servers.ts';
import { ADMIN_TOKEN, articleAnswered, serverSettled, startTestMetaserver, type TestMetaserver } from '../../support/runtime.ts';

// The sample answers (src/sample/annotator.ts), confidence n/(n+1) for n occurrences of a stem:
//   A1 Treatment (2/3)
//   A2 Prevention, Transmission, Case Report (1/2 each)
//   A3 none
const ARTICLES = [
  { id: 'A1', text: 'Treatment of treated patients was compared.' },
  { id: 'A2', text: 'Vaccines prevent transmission: a case report.' },
  { id: 'A3', text: 'Nothing about the virus here.' },
];
const GOLD = 'PMID,label\nA1,Treatment\nA2,Prevention;Mechanism\nA3,Diagnosis\n';
// By hand, seven label columns. Treatment and Prevention 1/1/1; Diagnosis, Mechanism (gold,
// never predicted), Transmission, Case Report (predicted, never gold), Epidemic Forecasting 0.
// Micro: 2 right of 4 predicted, 4 gold → 1/2 each. Macro: 2/7 each. Weighted (support 1
// each of T, D, P, M): 1/2 each. Samples: A1 (1, 1, 1), A2 (1/3, 1/2, 2/5), A3 (0, 0, 0) →
// P 4/9, R 1/2, F 7/15. Instance: A1 (1, 1), A2 (1/3, 1/2), A3 (0, 0) → P 0.4444, R 0.5,
// F 2·0.4444·0.5/0.9444 = 0.47056… → 0.4706.
const S_TOPIC = {
  micro: { p: 1 / 2, r: 1 / 2, f: 1 / 2 },
  macro: { p: 2 / 7, r: 2 / 7, f: 2 / 7 },
  weighted: { p: 1 / 2, r: 1 / 2, f: 1 / 2 },
  samples: { p: 4 / 9, r: 1 / 2, f: 7 / 15 },
  instance: { p: 0.4444, r: 0.5, f: 0.4706 },
  perLabel: { Treatment: { p: 1, r: 1, f: 1, support: 1 }, Transmission: { p: 0, r: 0, f: 0, support: 0 } },
  support: 4,
  documents: 3,
  missing: 0,
};
// An offline run in the track's official form, every gold label above 0.5 and nothing else.
const HEADER = 'PMID,Treatment,Diagnosis,Prevention,Mechanism,Transmission,Epidemic Forecasting,Case Report';
const RUN = `${HEADER}\nA1,0.9,0,0,0,0,0,0.5\nA2,0,0,0.7,0.6,0.1,0,0\nA3,0,0.8,0,0,0,0,0\n`;

let ms: TestMetaserver;
let sample: SampleServer;
let teams: Array<{ id: number; token: string }>;
let hallmarksServer: number;
const HALLMARKS = ['Sustaining proliferative signaling', 'Evading growth suppressors'];
const servers: number[] = [];
const liveServers: number[] = [];

beforeAll(async () => {
  sample = await startSampleServer({ port: 0 });
  ms = await startTestMetaserver();
  await ms.challenge('litcovid', { name: 'LitCovid', tasks: ['TOPIC'], timeoutSeconds: 10 });
  await ms.articles('litcovid', ARTICLES);
  teams = [];
  for (const n of [1, 2]) {
    const team = await ms.team(`Topic team ${n}`);
    teams.push(team);
    const server = await ms.server('litcovid', team.token, { name: 'sample', url: sample.url, tasks: ['TOPIC'] });
    expect(server.check).toMatchObject({ ok: true });
    servers.push(server.id);
    const live = await ms.server('live', team.token, { name: 'sample', url: sample.url, tasks: ['TOPIC'] });
    liveServers.push(live.id);
  }
  await ms.challenge('hallmarks', { name: 'Hallmarks', tasks: ['TOPIC'], timeoutSeconds: 10, maxAttempts: 1, topicLabels: HALLMARKS });
  await ms.articles('hallmarks', [ARTICLES[0]]);
  hallmarksServer = (await ms.server('hallmarks', teams[0].token, { name: 'sample', url: sample.url, tasks: ['TOPIC'] })).id;
  for (const [i, id] of [...servers, ...liveServers, hallmarksServer].entries()) {
    await ms.startServer(id, teams[i % 2].token);
  }
  for (const id of servers) await serverSettled(ms, id, ARTICLES.length);
  await serverSettled(ms, hallmarksServer, 1);
}, 90_000);

afterAll(async () => {
  await ms?.stop();
  await sample?.close();
});

describe('TOPIC through dispatch', () => {
  it('stores each answer as validated, labels in the order sent', async () => {
    const rows = await ms.database.db.query<{ id: string; result: { TOPIC: unknown } }>(
      'select a.organiser_id as id, an.result from answers an join articles a on a.id = an.article_id where an.server_id = $1 order by a.organiser_id',
      [servers[0]],
    );
    expect(rows.map((r) => [r.id, r.result])).toEqual([
      ['A1', { TOPIC: [{ label: 'Treatment', confidence: 2 / 3 }] }],
      [
        'A2',
        {
          TOPIC: [
            { label: 'Prevention', confidence: 0.5 },
            { label: 'Transmission', confidence: 0.5 },
            { label: 'Case Report', confidence: 0.5 },
          ],
        },
      ],
      ['A3', { TOPIC: [] }],
    ]);
    // Reliability counts the stored labels: 1 + 3 + 0 over 3 documents.
    expect((await ms.request('GET', `/api/servers/${servers[0]}`, undefined, ADMIN_TOKEN)).body.reliability.mad).toBeCloseTo(4 / 3, 3);
  });
});

describe("a challenge's own TOPIC labels", () => {
  it('are kept, shown and changed like the other settings; a label with a separator is refused', async () => {
    expect((await ms.request('GET', '/api/challenges/hallmarks', undefined, ADMIN_TOKEN)).body).toMatchObject({ topicLabels: HALLMARKS });
    expect((await ms.request('GET', '/api/challenges/litcovid', undefined, ADMIN_TOKEN)).body).toMatchObject({ topicLabels: [] });
    const patched = await ms.request(
      'PATCH',
      '/api/challenges/hallmarks',
      { topicLabels: [...HALLMARKS, 'Avoiding immune destruction'] },
      ADMIN_TOKEN,
    );
    expect(patched.body).toMatchObject({ topicLabels: [...HALLMARKS, 'Avoiding immune destruction'] });
    expect((await ms.request('PATCH', '/api/challenges/hallmarks', { topicLabels: ['A;B'] }, ADMIN_TOKEN)).status).toBe(400);
    expect((await ms.request('PATCH', '/api/challenges/hallmarks', { topicLabels: HALLMARKS }, ADMIN_TOKEN)).status).toBe(200);
  });

  it('refuse, through dispatch, the LitCovid label the sample answers', async () => {
    const rows = await ms.database.db.query<{ outcome: string; errors: Array<{ path: string; message: string }> }>(
      'select outcome, errors from attempts where server_id = $1',
      [hallmarksServer],
    );
    expect(rows.map((r) => r.outcome)).toEqual(['invalid']);
    expect(rows[0].errors.map((e) => `${e.path}: ${e.message}`)).toEqual([
      'topics[0].label: "Treatment" is not a label of this challenge (labels: Sustaining proliferative signaling, Evading growth suppressors)',
    ]);
  });

  it('are the labels of its list-form gold and runs, and its leaderboard columns', async () => {
    const gold = await send(ms, 'PUT', '/api/challenges/hallmarks/gold/TOPIC', {
      body: 'PMID,label\nA1,Evading growth suppressors\n',
      token: ADMIN_TOKEN,
    });
    expect(gold.json).toMatchObject({ documents: 1, items: 1, warnings: [] });
    expect(
      (await send(ms, 'POST', '/api/challenges/hallmarks/runs/TOPIC', { body: 'A1\tTreatment\n', token: teams[0].token })).status,
    ).toBe(400);
    expect(
      (await send(ms, 'POST', '/api/challenges/hallmarks/runs/TOPIC', { body: 'A1\tEvading growth suppressors\n', token: teams[0].token }))
        .status,
    ).toBe(201);
    const board = await send(ms, 'GET', '/api/challenges/hallmarks/scores/TOPIC', { token: ADMIN_TOKEN });
    expectFigures(board.json.runs.find((r: { kind: string }) => r.kind === 'R').metrics, { micro: { p: 1, r: 1, f: 1 } });
    const page = await ms.app!.inject({
      method: 'GET',
      url: '/fragments/challenges/hallmarks/leaderboard/TOPIC',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const headers = [...page.body.matchAll(/<th scope="col">([^<]*)<\/th>/g)].map((m) => m[1]);
    expect(headers.filter((h) => /^[A-Z].* F1$/.test(h))).toEqual([
      'Sustaining proliferative signaling F1',
      'Evading growth suppressors F1',
    ]);
  });

  it('are what metaserver check-server --topic-labels judges answers against', async () => {
    // The sample answers the check articles [] (no stem); this server answers Treatment to each: valid with LitCovid's labels, not with the challenge's.
    const answering = await startFaultyServer({ kind: 'custom', handler: () => ({ topics: [{ label: 'Treatment' }] }) });
    try {
      const check = async (...flags: string[]) => {
        const lines: string[] = [];
        const code = await runCheckServerCommand([answering.url, '--tasks', 'TOPIC', '--json', ...flags], (line) => lines.push(line));
        return { code, articles: (JSON.parse(lines.join('\n')) as { articles: Array<{ outcome: string; detail?: string }> }).articles };
      };
      expect((await check()).code).toBe(0);
      const strict = await check('--topic-labels', HALLMARKS.join(','));
      expect(strict.code).toBe(1);
      expect(strict.articles[0]).toMatchObject({ outcome: 'invalid' });
      expect(strict.articles[0].detail).toContain(
        'topics[0].label: "Treatment" is not a label of this challenge (labels: Sustaining proliferative signaling, Evading growth suppressors)',
      );
    } finally {
      await answering.close();
    }
  });
});

describe('the TOPIC leaderboard', () => {
  it('scores both servers, an offline run and the consensus as the track script would, worked out by hand', async () => {
    const gold = await send(ms, 'PUT', '/api/challenges/litcovid/gold/TOPIC', { body: GOLD, token: ADMIN_TOKEN });
    expect(gold.json).toMatchObject({ task: 'TOPIC', documents: 3, items: 4, unknownDocuments: 0 });
    const run = await send(ms, 'POST', '/api/challenges/litcovid/runs/TOPIC', { body: RUN, token: teams[1].token });
    expect(run.status).toBe(201);
    const board = await send(ms, 'GET', '/api/challenges/litcovid/scores/TOPIC?consensus=1', { token: ADMIN_TOKEN });
    expect(board.status).toBe(200);
    // Best micro F first: the offline run (1), then the S and C rows (1/2), ties by run name.
    expect(board.json.runs.map((r: { run: string; kind: string }) => `${r.kind} ${r.run}`)).toEqual([
      `R T${teams[1].id}_R1`,
      `S T${teams[0].id}_S1`,
      `S T${teams[1].id}_S1`,
      'C consensus-vote',
    ]);
    // Case Report at exactly 0.5 is not predicted (the script's preds > 0.5).
    expectFigures(board.json.runs[0].metrics, {
      micro: { p: 1, r: 1, f: 1 },
      macro: { p: 4 / 7, r: 4 / 7, f: 4 / 7 },
      instance: { p: 1, r: 1, f: 1 },
    });
    for (const row of board.json.runs.slice(1)) expectFigures(row.metrics, S_TOPIC);
  });

  it("shows the script's figures as columns, the P/R plot and the export on the web page", async () => {
    const page = await ms.app!.inject({
      method: 'GET',
      url: '/fragments/challenges/litcovid/leaderboard/TOPIC',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const headers = [...page.body.matchAll(/<th scope="col">([^<]*)<\/th>/g)].map((m) => m[1]);
    expect(headers.slice(0, 9)).toEqual(['Run', 'Kind', 'Team', 'micro P', 'micro R', 'micro F1', 'macro P', 'macro R', 'macro F1']);
    expect(headers).toContain('instance F1');
    expect(headers).toContain('Case Report F1');
    expect(page.body).toContain(`data-download="/api/challenges/litcovid/export/TOPIC?server=${servers[0]}"`);
    expect(page.body).toContain('data-plot="pr"');
  });
});

describe('TOPIC exports', () => {
  const path = (format: string) => `/api/challenges/litcovid/export/TOPIC/${format}?server=${servers[0]}`;

  it('writes the online run in the list form, which metaserver score reads', async () => {
    const expected = 'A1\tTreatment\nA2\tPrevention;Transmission;Case Report\nA3\t\n';
    expect((await send(ms, 'GET', `/api/challenges/litcovid/export/TOPIC?server=${servers[0]}`, { token: ADMIN_TOKEN })).text).toBe(
      expected,
    );
    expect((await ms.request('GET', path('tsv'), undefined, ADMIN_TOKEN)).body.files[0].content).toBe(expected);
  });

  it('writes BioC with one document-level annotation per label, and refuses formats TOPIC has not', async () => {
    const bioc = await ms.request('GET', path('bioc-json'), undefined, ADMIN_TOKEN);
    const a1 = JSON.parse(bioc.body.files[0].content).documents.find((d: { id: string }) => d.id === 'A1');
    expect(a1.passages[0].annotations).toEqual([
      {
        id: 'a1.1',
        infons: { server: `T${teams[0].id}_S1`, task: 'TOPIC', type: 'Topic', identifier: 'Treatment', confidence: String(2 / 3) },
        locations: [],
        text: '',
      },
    ]);
    const brat = await ms.request('GET', path('brat'), undefined, ADMIN_TOKEN);
    expect(brat.status).toBe(400);
    expect(brat.body.error.message).toBe('brat carries MENTION, REL, not TOPIC');
  });

  it('reads that BioC back as a run (a corpus upload), which scores as the online run', async () => {
    const bioc = (await ms.request('GET', path('bioc-json'), undefined, ADMIN_TOKEN)).body.files[0].content;
    const run = await send(ms, 'POST', '/api/challenges/litcovid/runs/TOPIC', {
      body: bioc,
      type: 'application/json',
      token: teams[0].token,
    });
    expect(run.status).toBe(201);
    const board = await send(ms, 'GET', '/api/challenges/litcovid/scores/TOPIC', { token: ADMIN_TOKEN });
    const row = board.json.runs.find((r: { run: string }) => r.run === `T${teams[0].id}_R1`);
    expectFigures(row.metrics, S_TOPIC);
  });
});

describe('TOPIC on demand: article view, consensus and the BCMS read API', () => {
  let articleId: string;

  beforeAll(async () => {
    articleId = (await ms.request('POST', '/api/articles', { text: 'Treatment to prevent transmission.' })).body.id;
    await articleAnswered(ms, articleId);
  });

  it("serves a server's answer as `topics`, confidences as doubles", async () => {
    const { xml, decoded } = await ms.xmlrpc('Annotations.getAnnotation', [articleId, liveServers[0]]);
    expect(decoded).toEqual({
      kind: 'value',
      value: {
        topics: [
          { label: 'Treatment', confidence: 0.5 },
          { label: 'Prevention', confidence: 0.5 },
          { label: 'Transmission', confidence: 0.5 },
        ],
      },
    });
    expect(xml).toContain('<name>confidence</name><value><double>0.5</double></value>');
    expect((await ms.xmlrpc('system.methodHelp', ['Annotations.getAnnotation'])).xml).toContain('topics [{label, confidence?}]');
  });

  it('votes on the labels of the two servers, in the article view and through Consensus.getConsensus', async () => {
    const view = (await ms.request('GET', `/api/articles/${articleId}`)).body;
    expect(view.consensus.TOPIC.items.map((i: { label: string; share: number }) => [i.label, i.share])).toEqual([
      ['Prevention', 1],
      ['Transmission', 1],
      ['Treatment', 1],
    ]);
    const { decoded } = await ms.xmlrpc('Consensus.getConsensus', [articleId]);
    expect(decoded).toMatchObject({
      kind: 'value',
      value: {
        vote: {
          topics: [
            { label: 'Prevention', confidence: 1 },
            { label: 'Transmission', confidence: 1 },
            { label: 'Treatment', confidence: 1 },
          ],
        },
      },
    });
  });

  it("lists each server's labels as topics (not a ranked list) and the consensus on the article page", async () => {
    const page = await ms.app!.inject({ method: 'GET', url: `/fragments/articles/${articleId}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<section aria-labelledby="topic-heading"><h2 id="topic-heading">Topics (TOPIC)</h2>');
    expect(page.body).toContain(
      '<ul class="compact"><li>Treatment <span class="muted">0.50</span></li><li>Prevention <span class="muted">0.50</span></li>',
    );
    expect(page.body).toContain('<a href="#topic-heading">Topics (TOPIC)</a>');
    // Not numbered among the ranked lists (INT, IPT, TX, REL of the on-demand challenge).
    expect(page.body).not.toContain('<ol class="compact"><li>Treatment');
    expect(page.body).toMatch(
      /<h3>TOPIC<\/h3><ul class="compact"><li>Prevention <span class="muted">[^<]*share 1\.00, 2 server\(s\)<\/span><\/li>/,
    );
  });
});
