// TX from a real annotation server to the leaderboard: a species tagger written on Python's
// own XML-RPC server (species_server.py) is registered twice for TX (the setup check
// judges its answer), the articles of a challenge go through dispatch, its answers are
// checked against the NCBI Taxonomy release index the meta-server was started with
// (merged id mapped, deleted and unknown ids dropped, each warned about), stored, scored
// on the leaderboard against gold worked out by hand, exported, voted on, shown on the
// web pages and served by the BCMS XML-RPC read API.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFigures, send, tsv } from '../../leaderboard/helpers.ts';
import { ADMIN_TOKEN, articleAnswered, serverSettled, startTestMetaserver, type TestMetaserver } from '../../support/runtime.ts';
import { buildFixtureIndex, RELEASE, type BuiltIndex } from './helpers.ts';

// The tagger answers (taxid, rank, confidence 1/rank), the index maps or drops:
//   A1 human, mouse                → 9606 (1), 10090 (2)
//   A2 yeast, Escherichia coli     → 4932 (1), 562 (2)
//   A3 unicorn, dragon, Mus musculus → 3000100 deleted, 42424242 unknown, 3000002 merged
//                                     (via 3000001) into 10090: stored 10090 (3, 1/3)
const ARTICLES = [
  { id: 'A1', text: 'Human and mouse cells were compared.' },
  { id: 'A2', text: 'Yeast and Escherichia coli grew together.' },
  { id: 'A3', text: 'The unicorn and the dragon met Mus musculus.' },
];
const GOLD = tsv([
  ['A1', '9606'],
  ['A2', '562'],
  ['A2', '4932'],
  ['A3', '10090'],
  ['A3', '9606'],
]);
// By hand. A1 [9606 ✓, 10090 ✗] of gold 1: P 1/2, R 1, F 2/3; curve (1, 1), (1/2, 1) → AUC 1.
// A2 [4932 ✓, 562 ✓] of 2: P = R = F = 1; curve (1, 1/2), (1, 1) → AUC 1.
// A3 [10090 ✓] of 2: P 1, R 1/2, F 2/3; AUC 1·1/2 = 1/2.
// Macro: P (1/2 + 1 + 1)/3 = 5/6, R (1 + 1 + 1/2)/3 = 5/6, F (2/3 + 1 + 2/3)/3 = 7/9, AUC 5/6.
// Micro (gold 5): level 1 three hits of 3 → (P 1, R 3/5); level 2 A1 ✗ A2 ✓ → (4/5, 4/5).
// P = R = F = 4/5; AUC 1·3/5 + 4/5·(4/5 − 3/5) = 19/25.
const S_TX = {
  evaluatedDocs: 3,
  tp: 4,
  fp: 1,
  fn: 1,
  macro: { p: 5 / 6, r: 5 / 6, f: 7 / 9, aucIPR: 5 / 6 },
  micro: { p: 4 / 5, r: 4 / 5, f: 4 / 5, aucIPR: 19 / 25 },
};
// An offline run: A1 [9606 ✓], A3 [9606 ✓, 10090 ✓] → both documents all 1 (A2 is not in it).
const RUN = tsv([
  ['A1', '9606', '1', '0.9'],
  ['A3', '9606', '1', '0.8'],
  ['A3', '10090', '2', '0.7'],
]);
const R_TX = { evaluatedDocs: 2, tp: 3, fp: 0, fn: 0, macro: { p: 1, r: 1, f: 1, aucIPR: 1 } };

interface Tagger {
  url: string;
  child: ChildProcess;
}

async function startTagger(): Promise<Tagger> {
  const script = fileURLToPath(new URL('./species_server.py', import.meta.url));
  const child = spawn('python3', [script, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('error', (err) => reject(new Error(`cannot start python3 (is it installed?): ${err.message}`)));
    child.once('exit', (code) => reject(new Error(`the species tagger exited with code ${code}: ${stderr}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = /^listening on (http:\/\/\S+\/)/.exec(line);
      if (m) resolve(m[1]);
    });
  });
  return { url, child };
}

let ms: TestMetaserver;
let tagger: Tagger;
let index: BuiltIndex;
let teams: Array<{ id: number; token: string }>;
const servers: number[] = [];
const liveServers: number[] = [];

beforeAll(async () => {
  index = await buildFixtureIndex();
  tagger = await startTagger();
  ms = await startTestMetaserver({ config: { taxonomyIndex: index.path } });
  await ms.challenge('species', { name: 'Species', tasks: ['TX'], timeoutSeconds: 10 });
  await ms.articles('species', ARTICLES);
  teams = [];
  for (const n of [1, 2]) {
    const team = await ms.team(`Species team ${n}`);
    teams.push(team);
    const server = await ms.server('species', team.token, { name: 'tagger', url: tagger.url, tasks: ['TX'] });
    // The setup article mentions yeast: a valid TX answer.
    expect(server.check).toMatchObject({ ok: true, outcome: 'ok' });
    servers.push(server.id);
    const live = await ms.server('live', team.token, { name: 'tagger', url: tagger.url, tasks: ['TX'] });
    liveServers.push(live.id);
  }
  for (const [i, id] of [...servers, ...liveServers].entries()) {
    await ms.startServer(id, teams[i % 2].token);
  }
  for (const id of servers) await serverSettled(ms, id, ARTICLES.length);
}, 90_000);

afterAll(async () => {
  await ms?.stop();
  tagger?.child.kill('SIGTERM');
  index?.remove();
});

describe('TX through dispatch', () => {
  it('loads the release index at start and says so', async () => {
    expect((await ms.request('GET', '/healthz')).body.indexes).toEqual({ TX: RELEASE });
  });

  it('stores each answer checked against the release, with the warnings', async () => {
    const rows = await ms.database.db.query<{ id: string; result: { TX: unknown }; warnings: Array<{ path: string; message: string }> }>(
      'select a.organiser_id as id, an.result, an.warnings from answers an join articles a on a.id = an.article_id where an.server_id = $1 order by a.organiser_id',
      [servers[0]],
    );
    expect(rows.map((r) => [r.id, r.result])).toEqual([
      [
        'A1',
        {
          TX: [
            { taxid: 9606, rank: 1, confidence: 1 },
            { taxid: 10090, rank: 2, confidence: 0.5 },
          ],
        },
      ],
      [
        'A2',
        {
          TX: [
            { taxid: 4932, rank: 1, confidence: 1 },
            { taxid: 562, rank: 2, confidence: 0.5 },
          ],
        },
      ],
      ['A3', { TX: [{ taxid: 10090, rank: 3, confidence: 1 / 3 }] }],
    ]);
    expect(rows[2].warnings.map((w) => `${w.path}: ${w.message}`)).toEqual([
      `taxons[0].taxid: 3000100 was deleted from NCBI Taxonomy release ${RELEASE}; item dropped`,
      `taxons[1].taxid: 42424242 is not a taxon of NCBI Taxonomy release ${RELEASE} (neither current, merged nor deleted); item dropped`,
      `taxons[2].taxid: 3000002 was merged into 10090 in NCBI Taxonomy release ${RELEASE}; mapped to 10090`,
    ]);
    // Reliability counts the stored taxa: 2 + 2 + 1 over 3 documents.
    expect((await ms.request('GET', `/api/servers/${servers[0]}`, undefined, ADMIN_TOKEN)).body.reliability.mad).toBeCloseTo(5 / 3, 3);
  });
});

describe('the TX leaderboard', () => {
  it('scores both servers, an offline run and the consensus against the gold, as worked out by hand', async () => {
    const gold = await send(ms, 'PUT', '/api/challenges/species/gold/TX', { body: GOLD, token: ADMIN_TOKEN });
    expect(gold.json).toMatchObject({ task: 'TX', documents: 3, items: 5, unknownDocuments: 0 });
    const run = await send(ms, 'POST', '/api/challenges/species/runs/TX', { body: RUN, token: teams[1].token });
    expect(run.status).toBe(201);
    const board = await send(ms, 'GET', '/api/challenges/species/scores/TX?consensus=1', { token: ADMIN_TOKEN });
    expect(board.status).toBe(200);
    // Best macro F first: the offline run (1), then the S and C rows (7/9), ties by run name.
    expect(board.json.runs.map((r: { run: string; kind: string }) => `${r.kind} ${r.run}`)).toEqual([
      `R T${teams[1].id}_R1`,
      `S T${teams[0].id}_S1`,
      `S T${teams[1].id}_S1`,
      'C consensus-vote',
    ]);
    expectFigures(board.json.runs[0].metrics, R_TX);
    // The two servers answer alike, so the vote keeps every taxon with share 1, in the same order.
    for (const row of board.json.runs.slice(1)) expectFigures(row.metrics, S_TX);
  });

  it('takes the options of ranked lists and refuses the maps of INT', async () => {
    const cut = await send(ms, 'GET', '/api/challenges/species/scores/TX?cutoff=1', { token: ADMIN_TOKEN });
    // Cut at 1, A1 [9606 ✓], A2 [4932 ✓], A3 [10090 ✓]: P 1 everywhere; R (1 + 1/2 + 1/2)/3 = 2/3.
    expectFigures(cut.json.runs.find((r: { kind: string }) => r.kind === 'S').metrics, { macro: { p: 1, r: 2 / 3 } });
    const ho = await send(ms, 'GET', '/api/challenges/species/scores/TX?ho=1', { token: ADMIN_TOKEN });
    expect(ho.status).toBe(400);
    expect(ho.json.error.message).toMatch(/ho does not apply to TX/);
  });

  it('trains an ensemble on TX and scores it as one more consensus row', async () => {
    const trained = await ms.request('POST', '/api/challenges/species/ensembles/TX', {}, ADMIN_TOKEN);
    expect(trained.status).toBe(201);
    expect(trained.body).toMatchObject({ task: 'TX', version: 1, training: { documents: 3 } });
    const board = await send(ms, 'GET', '/api/challenges/species/scores/TX?consensus=1', { token: ADMIN_TOKEN });
    expect(board.json.runs.some((r: { run: string }) => r.run === 'consensus-ensemble-v1')).toBe(true);
  });

  it('shows the table with the ranked columns, the plots and the TSV export on the web page', async () => {
    const page = await ms.app!.inject({
      method: 'GET',
      url: '/fragments/challenges/species/leaderboard/TX',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const headers = [...page.body.matchAll(/<th scope="col">([^<]*)<\/th>/g)].map((m) => m[1]);
    expect(headers).toEqual(['Run', 'Kind', 'Team', 'P', 'R', 'F', 'AUC iP/R', 'micro P', 'micro R', 'micro F', 'micro AUC', 'Export']);
    expect(page.body).toContain(`data-download="/api/challenges/species/export/TX?server=${servers[0]}"`);
    expect(page.body).toContain('data-plot="scatter"');
  });
});

describe('TX exports', () => {
  const path = (format: string, server = servers[0]) => `/api/challenges/species/export/TX/${format}?server=${server}`;

  it('writes the online run as the result file the leaderboard scored, in both export routes', async () => {
    const expected = 'A1\t9606\t1\t1\nA1\t10090\t2\t0.5\nA2\t4932\t1\t1\nA2\t562\t2\t0.5\nA3\t10090\t3\t0.3333333333333333\n';
    const leaderboard = await send(ms, 'GET', `/api/challenges/species/export/TX?server=${servers[0]}`, { token: ADMIN_TOKEN });
    expect(leaderboard.text).toBe(expected);
    expect((await ms.request('GET', path('tsv'), undefined, ADMIN_TOKEN)).body.files[0].content).toBe(expected);
  });

  it('writes BioC and PubAnnotation documents, and refuses the formats TX has not', async () => {
    const bioc = await ms.request('GET', path('bioc-json'), undefined, ADMIN_TOKEN);
    const collection = JSON.parse(bioc.body.files[0].content);
    const a3 = collection.documents.find((d: { id: string }) => d.id === 'A3');
    expect(a3.passages[0].annotations).toEqual([
      {
        id: 'a1.1',
        infons: { server: `T${teams[0].id}_S1`, task: 'TX', type: 'Species', identifier: '10090', rank: '3', confidence: String(1 / 3) },
        locations: [],
        text: '',
      },
    ]);
    const pub = await ms.request('GET', `${path('pubannotation')}&sourcedb=species`, undefined, ADMIN_TOKEN);
    expect(pub.body.files.map((f: { name: string }) => f.name)).toEqual(['A1.json', 'A2.json', 'A3.json']);
    expect(JSON.parse(pub.body.files[0].content).denotations).toEqual([
      { id: 'T1', span: { begin: 0, end: ARTICLES[0].text.length }, obj: 'NCBITaxon:9606' },
      { id: 'T2', span: { begin: 0, end: ARTICLES[0].text.length }, obj: 'NCBITaxon:10090' },
    ]);
    const brat = await ms.request('GET', path('brat'), undefined, ADMIN_TOKEN);
    expect(brat.status).toBe(400);
    expect(brat.body.error.message).toBe('brat carries MENTION, REL, not TX');
  });
});

describe('TX on demand: article view, consensus and the BCMS read API', () => {
  let articleId: string;

  beforeAll(async () => {
    articleId = (await ms.request('POST', '/api/articles', { text: 'Human and yeast, and a unicorn.' })).body.id;
    await articleAnswered(ms, articleId);
  });

  it("serves a server's answer as `taxons`, taxids and ranks as ints, confidences as doubles", async () => {
    const { xml, decoded } = await ms.xmlrpc('Annotations.getAnnotation', [articleId, liveServers[0]]);
    expect(decoded).toEqual({
      kind: 'value',
      value: {
        taxons: [
          { taxid: 9606, rank: 1, confidence: 1 },
          { taxid: 4932, rank: 2, confidence: 0.5 },
        ],
      },
    });
    expect(xml).toContain('<name>taxid</name><value><int>9606</int></value>');
    expect(xml).toContain('<name>confidence</name><value><double>1.0</double></value>');
    expect((await ms.xmlrpc('system.methodHelp', ['Annotations.getAnnotation'])).xml).toContain('taxons [{taxid, rank, confidence?}]');
  });

  it('votes on the taxa of the two servers, in the article view and through Consensus.getConsensus', async () => {
    const view = (await ms.request('GET', `/api/articles/${articleId}`)).body;
    expect(view.consensus.TX.items.map((i: { taxid: number; share: number }) => [i.taxid, i.share])).toEqual([
      [9606, 1],
      [4932, 1],
    ]);
    const { decoded } = await ms.xmlrpc('Consensus.getConsensus', [articleId]);
    expect(decoded).toMatchObject({
      kind: 'value',
      value: {
        vote: {
          taxons: [
            { taxid: 9606, rank: 1 },
            { taxid: 4932, rank: 2 },
          ],
        },
      },
    });
  });

  it("shows each server's taxa with links to NCBI Taxonomy on the article page", async () => {
    const page = await ms.app!.inject({ method: 'GET', url: `/fragments/articles/${articleId}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h3>TX: species</h3>');
    expect(page.body).toContain('<a href="https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?id=9606" rel="external">9606</a>');
    expect(page.body).toMatch(
      /<h3>TX<\/h3><ul class="compact"><li><a href="[^"]+id=9606" rel="external">9606<\/a> <span class="muted">share 1\.00, 2 server\(s\)<\/span><\/li>/,
    );
  });
});
