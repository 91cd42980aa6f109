// REL from real annotation servers to the leaderboard: the TypeScript sample server, once
// over XML-RPC and once over the JSON protocol, is registered for REL (the setup check
// judges its answer); a challenge's articles go out with their given entities, the answers
// are validated against them, stored, scored on the leaderboard against gold worked out by
// hand (the DrugProt library's rules, its shared cell included), exported, voted on, shown
// on the web pages and served by the BCMS XML-RPC read API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestParts } from '../../../src/dispatch/annotators/parts.ts';
import { startSampleServer, type SampleServer } from '../../../src/sample/server.ts';
import { expectFigures, send } from '../../leaderboard/helpers.ts';
import { axeViolations, collectPageErrors, launchChromium, pageSettled } from '../../support/browser.ts';
import { ADMIN_TOKEN, articleAnswered, serverSettled, startTestMetaserver, type TestMetaserver } from '../../support/runtime.ts';

// The sample rule: a CHEMICAL, then a GENE, with "inhibit" or "activat" between them.
//   R1 → INHIBITOR T1–T2 (rank 1, 1/2), INHIBITOR T1–T3 (rank 2, 1/3)
//   R2 → ACTIVATOR T1–T2 (rank 1, 1/2)
const R1 = 'Aspirin inhibits COX-2 but not COX-1.';
const R2 = 'L-NMMA activates iNOS.';
const ARTICLES = [
  { id: 'R1', text: R1, given: 'T1\tCHEMICAL 0 7\tAspirin\nT2\tGENE 17 22\tCOX-2\nT3\tGENE 31 36\tCOX-1' },
  { id: 'R2', text: R2, given: 'T1\tCHEMICAL 0 6\tL-NMMA\nT2\tGENE 17 21\tiNOS' },
];
const ENTITIES =
  'R1\tT1\tCHEMICAL\t0\t7\tAspirin\nR1\tT2\tGENE\t17\t22\tCOX-2\nR1\tT3\tGENE\t31\t36\tCOX-1\nR2\tT1\tCHEMICAL\t0\t6\tL-NMMA\nR2\tT2\tGENE\t17\t21\tiNOS\n';
const GOLD = { entities: ENTITIES, relations: 'R1\tINHIBITOR\tArg1:T1\tArg2:T2\nR2\tINDIRECT-UPREGULATOR\tArg1:T1\tArg2:T2\n' };
// By hand. Pairs: R1 (T1,T2) cell 0, (T1,T3) cell 1; R2 starts at R1's last index, so its
// (T1,T2) is cell 1 too. Gold: INHIBITOR {0}, INDIRECT-UPREGULATOR {1}. Servers:
// INHIBITOR {0, 1}, ACTIVATOR {1}. TP 1 (INHIBITOR 0), FP 2, FN 1: P 1/3, R 1/2, F 2/5.
const S_REL = {
  micro: { tp: 1, fp: 2, fn: 1, p: 1 / 3, r: 1 / 2, f: 2 / 5 },
  perType: { INHIBITOR: { tp: 1, fp: 1, fn: 0, p: 1 / 2, r: 1 }, 'INDIRECT-UPREGULATOR': { tp: 0, fn: 1, f: 0 } },
  pairs: 3,
};

let ms: TestMetaserver;
let xmlrpcSample: SampleServer;
let jsonSample: SampleServer;
let team: { id: number; token: string };
let strictServer: number;
const servers: number[] = [];
const liveServers: number[] = [];

beforeAll(async () => {
  xmlrpcSample = await startSampleServer({ port: 0 });
  jsonSample = await startSampleServer({ port: 0, protocol: 'json' });
  ms = await startTestMetaserver();
  await ms.challenge('drugprot', { name: 'DrugProt', tasks: ['REL'], timeoutSeconds: 10 });
  await ms.articles('drugprot', ARTICLES);
  team = await ms.team('Relations team');
  // A challenge with its own relation types and argument types: the sample's answers break both.
  await ms.challenge('drugprot-strict', {
    name: 'Strict',
    tasks: ['REL'],
    timeoutSeconds: 10,
    maxAttempts: 1,
    relationTypes: ['ACTIVATOR'],
    relationArguments: { arg1: ['GENE'] },
  });
  await ms.articles('drugprot-strict', [ARTICLES[0]]);
  for (const [slug, list] of [
    ['drugprot', servers],
    ['live', liveServers],
  ] as const) {
    for (const [sample, protocol] of [
      [xmlrpcSample, 'xmlrpc'],
      [jsonSample, 'json'],
    ] as const) {
      const server = await ms.server(slug, team.token, { name: `sample-${protocol}`, url: sample.url, tasks: ['REL'], protocol });
      expect(server.check).toMatchObject({ ok: true, outcome: 'ok' });
      list.push(server.id);
    }
  }
  strictServer = (await ms.server('drugprot-strict', team.token, { name: 'sample', url: xmlrpcSample.url, tasks: ['REL'] })).id;
  for (const id of [...servers, ...liveServers, strictServer]) await ms.startServer(id, team.token);
  for (const id of servers) await serverSettled(ms, id, ARTICLES.length, 30_000);
  await serverSettled(ms, strictServer, 1, 30_000);
}, 60_000);

afterAll(async () => {
  await ms?.stop();
  await xmlrpcSample?.close();
  await jsonSample?.close();
});

describe('REL through dispatch', () => {
  it('sends the given entities to REL servers only, in every protocol', () => {
    const article = { id: 'a', organiserId: 'R1', text: R1, given: ARTICLES[0].given };
    expect(requestParts(article, { tasks: ['REL'], sendMetadata: false }).given).toBe(ARTICLES[0].given);
    expect(requestParts(article, { tasks: ['MENTION'], sendMetadata: false }).given).toBeUndefined();
  });

  it('stores the relations with the entities they name, from both protocols alike', async () => {
    for (const id of servers) {
      const rows = await ms.database.db.query<{ id: string; result: unknown; warnings: unknown[] }>(
        'select a.organiser_id as id, an.result, an.warnings from answers an join articles a on a.id = an.article_id where an.server_id = $1 order by a.organiser_id',
        [id],
      );
      expect(rows.map((r) => [r.id, r.result])).toEqual([
        [
          'R1',
          {
            REL: {
              relations: [
                { type: 'INHIBITOR', arg1: 'T1', arg2: 'T2', rank: 1, confidence: 1 / 2 },
                { type: 'INHIBITOR', arg1: 'T1', arg2: 'T3', rank: 2, confidence: 1 / 3 },
              ],
              entities: [
                { id: 'T1', type: 'CHEMICAL', start: 0, end: 7, text: 'Aspirin' },
                { id: 'T2', type: 'GENE', start: 17, end: 22, text: 'COX-2' },
                { id: 'T3', type: 'GENE', start: 31, end: 36, text: 'COX-1' },
              ],
            },
          },
        ],
        [
          'R2',
          {
            REL: {
              relations: [{ type: 'ACTIVATOR', arg1: 'T1', arg2: 'T2', rank: 1, confidence: 1 / 2 }],
              entities: [
                { id: 'T1', type: 'CHEMICAL', start: 0, end: 6, text: 'L-NMMA' },
                { id: 'T2', type: 'GENE', start: 17, end: 21, text: 'iNOS' },
              ],
            },
          },
        ],
      ]);
    }
    // Reliability counts the stored relations: 2 + 1 over 2 documents.
    expect((await ms.request('GET', `/api/servers/${servers[0]}`, undefined, ADMIN_TOKEN)).body.reliability.mad).toBeCloseTo(3 / 2, 3);
  });
});

describe("a challenge's relation types and argument types", () => {
  it('are kept, shown and changed like the other settings', async () => {
    expect((await ms.request('GET', '/api/challenges/drugprot-strict', undefined, ADMIN_TOKEN)).body).toMatchObject({
      relationTypes: ['ACTIVATOR'],
      relationArguments: { arg1: ['GENE'] },
    });
    expect((await ms.request('GET', '/api/challenges/drugprot', undefined, ADMIN_TOKEN)).body).toMatchObject({
      relationTypes: [],
      relationArguments: {},
    });
    const patched = await ms.request(
      'PATCH',
      '/api/challenges/drugprot-strict',
      { relationArguments: { arg1: ['GENE'], arg2: ['CHEMICAL'] } },
      ADMIN_TOKEN,
    );
    expect(patched.body).toMatchObject({ relationTypes: ['ACTIVATOR'], relationArguments: { arg1: ['GENE'], arg2: ['CHEMICAL'] } });
    const bad = await ms.request('PATCH', '/api/challenges/drugprot-strict', { relationArguments: { arg3: ['GENE'] } }, ADMIN_TOKEN);
    expect(bad.status).toBe(400);
  });

  it('refuse, through dispatch, the answers that break them, each error at its path', async () => {
    const rows = await ms.database.db.query<{ outcome: string; errors: Array<{ path: string; message: string }> }>(
      'select outcome, errors from attempts where server_id = $1',
      [strictServer],
    );
    expect(rows.map((r) => r.outcome)).toEqual(['invalid']);
    expect(rows[0].errors.map((e) => `${e.path}: ${e.message}`)).toEqual([
      'relations[0].type: "INHIBITOR" is not a relation type of this challenge (ACTIVATOR)',
      'relations[0].arg1: T1 is a CHEMICAL entity; this challenge takes GENE as arg1',
      'relations[1].type: "INHIBITOR" is not a relation type of this challenge (ACTIVATOR)',
      'relations[1].arg1: T1 is a CHEMICAL entity; this challenge takes GENE as arg1',
    ]);
  });
});

describe('the REL leaderboard', () => {
  it('scores both servers, an offline run and the consensus as the DrugProt library would', async () => {
    const gold = await send(ms, 'PUT', '/api/challenges/drugprot/gold/REL', { body: GOLD, token: ADMIN_TOKEN });
    expect(gold.status, gold.text).toBeLessThan(300);
    expect(gold.json).toMatchObject({ task: 'REL', documents: 2, items: 2, unknownDocuments: 0 });
    const run = await send(ms, 'POST', '/api/challenges/drugprot/runs/REL', { body: { relations: GOLD.relations }, token: team.token });
    expect(run.status, run.text).toBe(201);
    const board = await send(ms, 'GET', '/api/challenges/drugprot/scores/REL?consensus=1', { token: ADMIN_TOKEN });
    expect(board.status).toBe(200);
    expect(board.json.runs.map((r: { kind: string }) => r.kind)).toEqual(['R', 'S', 'S', 'C']);
    expectFigures(board.json.runs[0].metrics, { micro: { p: 1, r: 1, f: 1 } });
    for (const row of board.json.runs.slice(1)) expectFigures(row.metrics, S_REL);
  });

  it('shows the micro columns and the export link on the web page', async () => {
    const page = await ms.app!.inject({
      method: 'GET',
      url: '/fragments/challenges/drugprot/leaderboard/REL',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const headers = [...page.body.matchAll(/<th scope="col">([^<]*)<\/th>/g)].map((m) => m[1]);
    expect(headers).toEqual(['Run', 'Kind', 'Team', 'P', 'R', 'F', 'TP', 'FP', 'FN', 'Export']);
    expect(page.body).toContain(`data-download="/api/challenges/drugprot/export/REL?server=${servers[0]}"`);
  });
});

describe('REL exports', () => {
  const path = (format: string) => `/api/challenges/drugprot/export/REL/${format}?server=${servers[0]}`;

  it('writes the online run as the DrugProt relations file', async () => {
    const tsv = await send(ms, 'GET', `/api/challenges/drugprot/export/REL?server=${servers[0]}`, { token: ADMIN_TOKEN });
    expect(tsv.text).toBe('R1\tINHIBITOR\tArg1:T1\tArg2:T2\nR1\tINHIBITOR\tArg1:T1\tArg2:T3\nR2\tACTIVATOR\tArg1:T1\tArg2:T2\n');
  });

  it('writes brat R lines, PubAnnotation relations and BioC relations', async () => {
    const brat = await ms.request('GET', path('brat'), undefined, ADMIN_TOKEN);
    expect(brat.body.files.find((f: { name: string }) => f.name === 'R1.ann').content).toBe(
      'T1\tCHEMICAL 0 7\tAspirin\nT2\tGENE 17 22\tCOX-2\nT3\tGENE 31 36\tCOX-1\nR1\tINHIBITOR Arg1:T1 Arg2:T2\nR2\tINHIBITOR Arg1:T1 Arg2:T3\n',
    );
    const pub = await ms.request('GET', `${path('pubannotation')}&sourcedb=PubMed`, undefined, ADMIN_TOKEN);
    expect(JSON.parse(pub.body.files[1].content).relations).toEqual([{ id: 'R1', subj: 'T1', obj: 'T2', pred: 'ACTIVATOR' }]);
    const bioc = JSON.parse((await ms.request('GET', path('bioc-json'), undefined, ADMIN_TOKEN)).body.files[0].content);
    const r2 = bioc.documents.find((d: { id: string }) => d.id === 'R2');
    expect(r2.relations).toEqual([
      {
        id: 'a1.3',
        infons: { server: `T${team.id}_S1`, task: 'REL', type: 'ACTIVATOR', id: 'R1', confidence: '0.5', rank: '1' },
        nodes: [
          { refid: 'a1.1', role: 'Arg1' },
          { refid: 'a1.2', role: 'Arg2' },
        ],
      },
    ]);
  });
});

describe('REL on demand: article view, consensus and the BCMS read API', () => {
  let articleId: string;

  beforeAll(async () => {
    const posted = await ms.request('POST', '/api/articles', { text: R1, given: ARTICLES[0].given });
    expect(posted.status).toBe(202);
    articleId = posted.body.id;
    await articleAnswered(ms, articleId, 30_000);
  });

  it("serves a server's answer as `relations`, and the vote through Consensus.getConsensus", async () => {
    expect((await ms.xmlrpc('Annotations.getAnnotation', [articleId, liveServers[0]])).decoded).toEqual({
      kind: 'value',
      value: {
        relations: [
          { type: 'INHIBITOR', arg1: 'T1', arg2: 'T2', rank: 1, confidence: 0.5 },
          { type: 'INHIBITOR', arg1: 'T1', arg2: 'T3', rank: 2, confidence: 1 / 3 },
        ],
      },
    });
    const view = (await ms.request('GET', `/api/articles/${articleId}`)).body;
    expect(view.consensus.REL.items.map((i: { type: string; arg2: string; share: number }) => [i.type, i.arg2, i.share])).toEqual([
      ['INHIBITOR', 'T2', 1],
      ['INHIBITOR', 'T3', 1],
    ]);
    expect((await ms.xmlrpc('Consensus.getConsensus', [articleId])).decoded).toMatchObject({
      kind: 'value',
      value: {
        vote: {
          relations: [
            { type: 'INHIBITOR', arg1: 'T1', arg2: 'T2', rank: 1 },
            { arg2: 'T3', rank: 2 },
          ],
        },
      },
    });
  });

  it("shows each server's relations, their mentions named, on the article page", async () => {
    const page = await ms.app!.inject({ method: 'GET', url: `/fragments/articles/${articleId}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h3>REL: relations</h3>');
    expect(page.body).toContain('Aspirin (CHEMICAL T1) → COX-2 (GENE T2)');
    expect(page.body).toContain('<span class="muted">share 1.00, 2 server(s)</span>');
    // Each relation shows its two mentions in the text, highlighted and named (no script needed).
    expect(page.body).toContain(
      '<span class="item-context"><mark class="item-arg" title="Arg1 CHEMICAL">Aspirin</mark><sub class="item-arg-label">Arg1 CHEMICAL</sub> inhibits <mark class="item-arg" title="Arg2 GENE">COX-2</mark><sub class="item-arg-label">Arg2 GENE</sub> but not COX-1.</span>',
    );
  });

  it('reads in a browser at 390 and 1280 px: no axe-core violation, no console error, no sideways scrolling', async () => {
    const base = await ms.app!.listen({ port: 0, host: '127.0.0.1' });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors = collectPageErrors(page, { strict: true });
      const problems: string[] = [];
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${base}/articles/${articleId}`);
        await pageSettled(page);
        await page.locator('mark.item-arg').first().waitFor({ timeout: 20_000 });
        const overflow = await page.evaluate<number>('document.documentElement.scrollWidth');
        if (overflow > width) problems.push(`@${width}: the page scrolls sideways (${overflow} px wide)`);
        for (const v of await axeViolations(page))
          problems.push(`@${width}: axe ${v.id} (${v.impact}): ${v.help} — ${v.targets.join(' | ')}`);
      }
      expect([...problems, ...errors]).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
