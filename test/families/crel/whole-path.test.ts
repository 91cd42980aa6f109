// Concept ids and relations between concepts from real annotation servers to the
// leaderboard: the TypeScript sample server, over XML-RPC and over JSON, answers gene
// mentions with NCBI Gene ids and an Association between the first two (MENTION + CREL),
// over PubAnnotation the mentions with their ids (the protocol has no place for relations
// between concepts); a pull agent answers BC5CDR's chemical-induced diseases (CREL). The answers are validated
// against the challenge's namespaces and relation types, stored, voted on, scored against
// gold uploaded as BioRED and BC5CDR ship it (PubTator), exported and read back by
// `metaserver score`, and shown on the article page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScoreCommand } from '../../../src/cli/score.ts';
import { annotate } from '../../../src/sample/annotator.ts';
import { startSampleServer, type SampleServer } from '../../../src/sample/server.ts';
import { expectFigures, send } from '../../leaderboard/helpers.ts';
import { axeViolations, collectPageErrors, launchChromium, pageSettled } from '../../support/browser.ts';
import { ADMIN_TOKEN, articleAnswered, serverSettled, startTestMetaserver, type TestMetaserver } from '../../support/runtime.ts';

// The sample's rules (src/sample/annotator.ts): a word with an uppercase letter and a digit
// is a `protein` mention, with an NCBI Gene id when it is one of its five genes; the first
// two distinct ids make a novel Association.
//   G1 → TP53 0–4 (7157), MDM2 11–15 (4193), U2OS 27–31 (no id); Association 7157–4193
//   G2 → BRCA1 0–5 (672), CD4 10–13 (920), IL2R 19–23 (no id); Association 672–920
const G1 = 'TP53 binds MDM2 and p21 in U2OS cells.';
const G2 = 'BRCA1 and CD4 with IL2R.';
// As BioRED ships it: bare NCBI Gene ids typed GeneOrGeneProduct, relation lines with novelty.
const GENES_GOLD = [
  `G1|t|${G1}`,
  'G1|a|',
  'G1\t0\t4\tTP53\tGeneOrGeneProduct\t7157',
  'G1\t11\t15\tMDM2\tGeneOrGeneProduct\t4193',
  'G1\t20\t23\tp21\tGeneOrGeneProduct\t1026',
  'G1\tBind\t7157\t4193\tNovel',
  '',
  `G2|t|${G2}`,
  'G2|a|',
  'G2\t0\t5\tBRCA1\tGeneOrGeneProduct\t672',
  'G2\t10\t13\tCD4\tGeneOrGeneProduct\t920',
  'G2\t19\t23\tIL2R\tGeneOrGeneProduct\t3559',
  'G2\tAssociation\t672\t920\tNo',
  '',
].join('\n');
// By hand, MENTION (types aside: the sample says `protein`, BioRED `GeneOrGeneProduct`):
// gold 6 spans, the sample's 6; TP 5 (all but p21 and U2OS), FP 1 (U2OS), FN 1 (p21).
const S_MENTION = { tp: 5, fp: 1, fn: 1, p: 5 / 6, r: 5 / 6, f: 5 / 6 };
// By hand, CREL. Gold {G1 (4193, 7157) Bind Novel; G2 (672, 920) Association No}; each
// sample {G1 (4193, 7157) Association Novel; G2 (672, 920) Association Novel}.
//   pair: both pairs found → TP 2. pair+type: G2 only → TP 1, FP 1, FN 1.
//   pair+novelty: G1 only → TP 1, FP 1, FN 1. all: neither → TP 0, FP 2, FN 2.
const half = { tp: 1, fp: 1, fn: 1, p: 1 / 2, r: 1 / 2, f: 1 / 2 };
const S_CREL = {
  pair: { tp: 2, fp: 0, fn: 0, p: 1, r: 1, f: 1 },
  pairType: half,
  pairNovelty: half,
  all: { tp: 0, fp: 2, fn: 2, p: 0, r: 0, f: 0 },
};

// BC5CDR: bare MeSH ids, CID lines chemical first.
const C1 = 'Lidocaine-induced cardiac asystole.';
const C2 = 'Methyl dopa and depression.';
const CDR_GOLD = [
  `C1|t|${C1}`,
  'C1|a|',
  'C1\t0\t9\tLidocaine\tChemical\tD008012',
  'C1\t18\t34\tcardiac asystole\tDisease\tD006323',
  'C1\tCID\tD008012\tD006323',
  '',
  `C2|t|${C2}`,
  'C2|a|',
  'C2\t0\t11\tMethyl dopa\tChemical\tD008750',
  'C2\t16\t26\tdepression\tDisease\tD003866',
  'C2\tCID\tD008750\tD003866',
  '',
].join('\n');
// The pull agent's answers: C1 right (the disease's namespace spelled `MeSH`, the relation
// written disease first), C2 with the wrong disease id. Bad ones: B1 a composite in one
// string, B2 a relation to an id no mention carries.
const B1 = 'Lidocaine and asystole.';
const B2 = 'Cocaine-induced asystole.';
const AGENT: Record<string, unknown> = {
  [C1]: {
    mentions: [
      { offset: 0, mention: 'Lidocaine', type: 'Chemical', ids: ['MESH:D008012'] },
      { offset: 18, mention: 'cardiac asystole', type: 'Disease', ids: ['MeSH:D006323'] },
    ],
    concept_relations: [{ type: 'CID', concept1: 'MESH:D006323', concept2: 'MESH:D008012', confidence: 0.8 }],
  },
  [C2]: {
    mentions: [
      { offset: 0, mention: 'Methyl dopa', type: 'Chemical', ids: ['MESH:D008750'] },
      { offset: 16, mention: 'depression', type: 'Disease', ids: ['MESH:D003863'] },
    ],
    concept_relations: [{ type: 'CID', concept1: 'MESH:D008750', concept2: 'MESH:D003863' }],
  },
  [B1]: {
    mentions: [{ offset: 0, mention: 'Lidocaine', type: 'Chemical', ids: ['MESH:D008012|D006323'] }],
    concept_relations: [],
  },
  [B2]: {
    mentions: [
      { offset: 0, mention: 'Cocaine', type: 'Chemical', ids: ['MESH:D003042'] },
      { offset: 16, mention: 'asystole', type: 'Disease', ids: ['MESH:D006323'] },
    ],
    concept_relations: [{ type: 'CID', concept1: 'MESH:D003042', concept2: 'MESH:D000001' }],
  },
};
// By hand, CREL of the agent: gold {C1 (D006323, D008012), C2 (D003866, D008750)}, all CID,
// no novelty; the agent {C1 (D006323, D008012), C2 (D003863, D008750)}: every setting TP 1,
// FP 1, FN 1; BC5CDR's tool keys (doc, CID, chemical, disease) the same way: TP 1, FP 1, FN 1.
const AGENT_CREL = { pair: half, pairType: half, pairNovelty: half, all: half };

const GENES = { protein: ['NCBIGene'] };
const RELATION_TYPES = ['Association', 'Bind', 'Positive_Correlation'];

let ms: TestMetaserver;
let xmlrpcSample: SampleServer;
let jsonSample: SampleServer;
let pubAnnotationSample: SampleServer;
/** The PubAnnotation sample: mentions only (the protocol carries no relations between concepts). */
let pubAnnotationServer: number;
let team: { id: number; token: string };
let agent: number;
let nsStrict: number;
let typeStrict: number;
const servers: number[] = [];
const liveServers: number[] = [];
/** The setup checks of the strict challenges' servers, as registration answered them. */
const strictChecks: Array<{ ok: boolean; outcome: string; errors: Array<{ path: string; message: string }> }> = [];
const agentAnswers: Array<{ text: string; status: number; body: any }> = [];

async function runAgent(): Promise<void> {
  agent = (await ms.server('cdr', team.token, { name: 'agent', tasks: ['CREL'], protocol: 'pull' })).id;
  const setup = (await ms.request('POST', `/api/servers/${agent}/leases?wait=5`, undefined, team.token)).body;
  // The check article names genes, and a CID challenge takes no Association: the agent answers CID only.
  const check = { ...annotate(setup.article.text), concept_relations: [] };
  const checked = await ms.request('POST', `/api/leases/${setup.lease}/answer`, check, team.token);
  expect(checked.body, JSON.stringify(checked.body)).toMatchObject({ outcome: 'ok' });
  await ms.articles('cdr', { pubtator: CDR_GOLD });
  await ms.articles('cdr', [
    { id: 'B1', text: B1 },
    { id: 'B2', text: B2 },
  ]);
  await ms.startServer(agent, team.token);
  for (let i = 0; i < 4; i++) {
    const lease = await ms.request('POST', `/api/servers/${agent}/leases?wait=5`, undefined, team.token);
    expect(lease.status).toBe(200);
    const text = lease.body.article.text as string;
    const res = await ms.request('POST', `/api/leases/${lease.body.lease}/answer`, AGENT[text], team.token);
    agentAnswers.push({ text, status: res.status, body: res.body });
  }
}

beforeAll(async () => {
  xmlrpcSample = await startSampleServer({ port: 0 });
  jsonSample = await startSampleServer({ port: 0, protocol: 'json' });
  pubAnnotationSample = await startSampleServer({ port: 0, protocol: 'pubannotation' });
  ms = await startTestMetaserver();
  team = await ms.team('Normalisers');
  const settings = { tasks: ['MENTION', 'CREL'], timeoutSeconds: 10, maxAttempts: 1 };
  await ms.challenge('biored', { ...settings, mentionNamespaces: GENES, conceptRelationTypes: RELATION_TYPES });
  await ms.articles('biored', { pubtator: GENES_GOLD });
  // The sample's answers break each: its ids are NCBI Gene, its relation an Association.
  await ms.challenge('ns-strict', { ...settings, mentionNamespaces: { protein: ['MESH'] } });
  await ms.challenge('type-strict', { ...settings, mentionNamespaces: GENES, conceptRelationTypes: ['Bind'] });
  for (const slug of ['ns-strict', 'type-strict']) await ms.articles(slug, [{ id: 'G1', text: G1 }]);
  await ms.challenge('cdr', {
    tasks: ['CREL'],
    timeoutSeconds: 10,
    maxAttempts: 1,
    mentionNamespaces: { Chemical: ['MESH'], Disease: ['MESH', 'OMIM'] },
    conceptRelationTypes: ['CID'],
  });
  for (const [slug, list] of [
    ['biored', servers],
    ['live', liveServers],
  ] as const) {
    for (const [sample, protocol] of [
      [xmlrpcSample, 'xmlrpc'],
      [jsonSample, 'json'],
    ] as const) {
      const server = await ms.server(slug, team.token, {
        name: `sample-${protocol}`,
        url: sample.url,
        tasks: ['MENTION', 'CREL'],
        protocol,
      });
      expect(server.check).toMatchObject({ ok: true, outcome: 'ok' });
      list.push(server.id);
    }
  }
  const pubAnnotation = await ms.server('biored', team.token, {
    name: 'sample-pubannotation',
    url: pubAnnotationSample.url,
    tasks: ['MENTION'],
    protocol: 'pubannotation',
  });
  expect(pubAnnotation.check).toMatchObject({ ok: true, outcome: 'ok' });
  pubAnnotationServer = pubAnnotation.id;
  const strict = (slug: string) => ms.server(slug, team.token, { name: 'sample', url: xmlrpcSample.url, tasks: ['MENTION', 'CREL'] });
  const ns = await strict('ns-strict');
  const type = await strict('type-strict');
  [nsStrict, typeStrict] = [ns.id, type.id];
  strictChecks.push(ns.check, type.check);
  for (const id of [...servers, pubAnnotationServer, ...liveServers, nsStrict, typeStrict]) await ms.startServer(id, team.token);
  await runAgent();
  for (const id of [...servers, pubAnnotationServer]) await serverSettled(ms, id, 2, 30_000);
  for (const id of [nsStrict, typeStrict]) await serverSettled(ms, id, 1, 30_000);
}, 90_000);

afterAll(async () => {
  await ms?.stop();
  await xmlrpcSample?.close();
  await jsonSample?.close();
  await pubAnnotationSample?.close();
});

const stored = (serverId: number) =>
  ms.database.db.query<{ id: string; result: any }>(
    'select a.organiser_id as id, an.result from answers an join articles a on a.id = an.article_id where an.server_id = $1 order by a.organiser_id',
    [serverId],
  );

describe('ids and relations through dispatch and the pull protocol', () => {
  it('are stored canonical from XML-RPC and JSON alike: the mentions with their ids, the relation with the mentions it names', async () => {
    const tp53 = { start: 0, end: 4, text: 'TP53', type: 'protein', ids: ['NCBIGene:7157'] };
    const mdm2 = { start: 11, end: 15, text: 'MDM2', type: 'protein', ids: ['NCBIGene:4193'] };
    const brca1 = { start: 0, end: 5, text: 'BRCA1', type: 'protein', ids: ['NCBIGene:672'] };
    const cd4 = { start: 10, end: 13, text: 'CD4', type: 'protein', ids: ['NCBIGene:920'] };
    for (const id of servers) {
      const rows = await stored(id);
      expect(rows.map((r) => r.id)).toEqual(['G1', 'G2']);
      expect(rows[0].result.MENTION).toEqual([
        { ...tp53, confidence: 0.9 },
        { ...mdm2, confidence: 0.9 },
        { start: 27, end: 31, text: 'U2OS', type: 'protein', confidence: 0.9 },
      ]);
      // The pair in string order ("NCBIGene:4193" < "NCBIGene:7157"), whichever the sample wrote first.
      expect(rows[0].result.CREL).toEqual({
        relations: [
          { type: 'Association', concept1: 'NCBIGene:4193', concept2: 'NCBIGene:7157', novelty: 'Novel', rank: 1, confidence: 0.5 },
        ],
        mentions: [tp53, mdm2],
      });
      expect(rows[1].result.CREL).toEqual({
        relations: [
          { type: 'Association', concept1: 'NCBIGene:672', concept2: 'NCBIGene:920', novelty: 'Novel', rank: 1, confidence: 0.5 },
        ],
        mentions: [brca1, cd4],
      });
    }
    // PubAnnotation's denotations with their `pubann:denotes` attributes: the same mentions, the same ids.
    const pubAnnotation = await stored(pubAnnotationServer);
    expect(pubAnnotation.map((r) => r.result)).toEqual((await stored(servers[0])).map((r) => ({ MENTION: r.result.MENTION })));
  });

  it("are refused when they break the challenge's namespaces or relation types, each at its path, nothing stored", async () => {
    const errors = async (serverId: number) => {
      const rows = await ms.database.db.query<{ outcome: string; errors: Array<{ path: string; message: string }> }>(
        'select outcome, errors from attempts where server_id = $1',
        [serverId],
      );
      expect(rows.map((r) => r.outcome)).toEqual(['invalid']);
      expect(await stored(serverId)).toEqual([]);
      return rows[0].errors.map((e) => `${e.path}: ${e.message}`);
    };
    expect(await errors(nsStrict)).toEqual([
      'mentions[0].ids[0]: namespace NCBIGene ("NCBIGene:7157") is not accepted for "protein" mentions in this challenge (accepted: MESH); send ids of those namespaces, or leave this one out',
      'mentions[1].ids[0]: namespace NCBIGene ("NCBIGene:4193") is not accepted for "protein" mentions in this challenge (accepted: MESH); send ids of those namespaces, or leave this one out',
      "concept_relations: relations name concepts by the ids of the answer's mentions, and this answer has no valid mentions; send the mentions with their ids in the same answer",
    ]);
    expect(await errors(typeStrict)).toEqual(['concept_relations[0].type: "Association" is not a relation type of this challenge (Bind)']);
    // Registration said so already: the setup check's answer breaks the same rules.
    expect(strictChecks.map((c) => [c.ok, c.outcome])).toEqual([
      [false, 'invalid'],
      [false, 'invalid'],
    ]);
    const nsPaths = strictChecks[0].errors.map((e) => e.path);
    expect(nsPaths).toContain('concept_relations');
    expect(nsPaths.length).toBeGreaterThan(1);
    expect(nsPaths.filter((p) => /^mentions\[\d+\]\.ids\[0\]$/.test(p)).length).toBe(nsPaths.length - 1);
    expect(strictChecks[1].errors).toEqual([
      { path: 'concept_relations[0].type', message: '"Association" is not a relation type of this challenge (Bind)' },
    ]);
  });

  it("from a pull agent: BC5CDR's relations stored, a composite id in one string and a relation to an id no mention carries refused at their paths", async () => {
    const byText = Object.fromEntries(agentAnswers.map((a) => [a.text, a]));
    expect(Object.keys(byText).sort()).toEqual([B1, B2, C1, C2].sort());
    for (const text of [C1, C2]) expect(byText[text].body).toMatchObject({ stored: true, outcome: 'ok' });
    // (each rule has its own tests: test/families/mention/ids-whole-path.test.ts, test/families/crel/validate.unit.test.ts)
    for (const [text, message] of [
      [B1, 'mentions[0].ids[0]: "MESH:D008012|D006323" joins 2 ids in one string'],
      [B2, 'concept_relations[0].concept2: MESH:D000001 is carried by no mention of this answer'],
    ] as const) {
      expect(byText[text].status).toBe(422);
      expect(byText[text].body.error.details).toMatchObject({ stored: false, outcome: 'invalid' });
      expect(byText[text].body.error.message).toContain(message);
    }
    const rows = await stored(agent);
    expect(rows.map((r) => r.id)).toEqual(['C1', 'C2']);
    expect(rows[0].result).toEqual({
      CREL: {
        relations: [{ type: 'CID', concept1: 'MESH:D006323', concept2: 'MESH:D008012', confidence: 0.8 }],
        mentions: [
          { start: 0, end: 9, text: 'Lidocaine', type: 'Chemical', ids: ['MESH:D008012'] },
          { start: 18, end: 34, text: 'cardiac asystole', type: 'Disease', ids: ['MESH:D006323'] },
        ],
      },
    });
  });
});

/** `metaserver score` as the command line runs it, reading the files handed to it (name → content). */
async function scoreFiles(files: Record<string, string>, ...argv: string[]): Promise<any> {
  let out = '';
  let err = '';
  const code = await runScoreCommand(argv, {
    stdout: (s) => (out += s),
    stderr: (s) => (err += s),
    readFile: async (p) => {
      if (!Object.hasOwn(files, p)) throw new Error(`ENOENT: ${p}`);
      return files[p];
    },
    readDir: async () => [],
  });
  expect({ code, err }).toEqual({ code: 0, err: '' });
  return JSON.parse(out).runs[0].metrics;
}

const exported = async (slug: string, task: string, format: string, server: number): Promise<string> => {
  const res = await ms.request('GET', `/api/challenges/${slug}/export/${task}/${format}?server=${server}`, undefined, ADMIN_TOKEN);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.files).toHaveLength(1);
  return res.body.files[0].content as string;
};

describe('the leaderboards, from gold as BioRED and BC5CDR ship it', () => {
  let mentionBoard: any;
  let crelBoard: any;

  beforeAll(async () => {
    const mention = await send(ms, 'PUT', '/api/challenges/biored/gold/MENTION', {
      body: GENES_GOLD,
      type: 'text/plain',
      token: ADMIN_TOKEN,
    });
    expect(mention.status, mention.text).toBe(200);
    expect(mention.json).toMatchObject({ documents: 2, items: 6, unknownDocuments: 0 });
    const crel = await send(ms, 'PUT', '/api/challenges/biored/gold/CREL', { body: GENES_GOLD, token: ADMIN_TOKEN });
    expect(crel.status, crel.text).toBe(200);
    expect(crel.json).toMatchObject({ documents: 2, items: 2, unknownDocuments: 0 });
    const cdr = await send(ms, 'PUT', '/api/challenges/cdr/gold/CREL', { body: CDR_GOLD, token: ADMIN_TOKEN });
    expect(cdr.status, cdr.text).toBe(200);
    expect(cdr.json).toMatchObject({ documents: 2, items: 2 });
  });

  it("MENTION: the three servers' spans, types aside (the sample says protein, BioRED GeneOrGeneProduct)", async () => {
    const board = await send(ms, 'GET', '/api/challenges/biored/scores/MENTION?singleClass=1', { token: ADMIN_TOKEN });
    expect(board.status, board.text).toBe(200);
    mentionBoard = board.json;
    expect(mentionBoard.runs.map((r: { kind: string }) => r.kind)).toEqual(['S', 'S', 'S']);
    for (const row of mentionBoard.runs) expectFigures(row.metrics.strict, S_MENTION);
    // The gold carries ids, so the board also gives BC5CDR's and NLM-Chem's figures, which
    // keep the type in their keys: no mention or id matches ((doc, protein, 7157) is not
    // (doc, GeneOrGeneProduct, 7157)); the run's 4 ids (U2OS and IL2R have none) are false
    // positives. NLM-Chem's approximate spans ignore types: 5 of 6 spans overlap on each side.
    for (const row of mentionBoard.runs) {
      expectFigures(row.metrics.mention, { tp: 0, fp: 6, fn: 6 });
      expectFigures(row.metrics.id, { tp: 0, fp: 4, fn: 6 });
      expectFigures(row.metrics.span.approx, { p: 5 / 6, r: 5 / 6, f: 5 / 6 });
      expectFigures(row.metrics.identifier.strict, { p: 0, r: 0, f: 0 });
    }
    // Typed, nothing matches: the figures do look at the type.
    const typed = await send(ms, 'GET', '/api/challenges/biored/scores/MENTION', { token: ADMIN_TOKEN });
    expectFigures(typed.json.runs[0].metrics.strict, { tp: 0, fp: 6, fn: 6 });
  });

  it("CREL: BioRED's four settings for both servers and for the pull agent, worked out by hand", async () => {
    const board = await send(ms, 'GET', '/api/challenges/biored/scores/CREL', { token: ADMIN_TOKEN });
    expect(board.status, board.text).toBe(200);
    crelBoard = board.json;
    expect(crelBoard.runs.map((r: { kind: string }) => r.kind)).toEqual(['S', 'S']);
    for (const row of crelBoard.runs) expectFigures(row.metrics, S_CREL);
    const cdr = await send(ms, 'GET', '/api/challenges/cdr/scores/CREL', { token: ADMIN_TOKEN });
    expect(cdr.json.runs).toHaveLength(1);
    expectFigures(cdr.json.runs[0].metrics, AGENT_CREL);
  });

  it("shows BioRED's settings on the leaderboard page, with each server's export", async () => {
    const page = await ms.app!.inject({
      method: 'GET',
      url: '/fragments/challenges/biored/leaderboard/CREL',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const headers = [...page.body.matchAll(/<th scope="col">([^<]*)<\/th>/g)].map((m) => m[1]);
    expect(headers).toEqual([
      'Run',
      'Kind',
      'Team',
      'Pair P',
      'Pair R',
      'Pair F',
      'Pair+type F',
      'Pair+novelty F',
      'All P',
      'All R',
      'All F',
      'TP',
      'FP',
      'FN',
      'Export',
    ]);
    expect(page.body).toContain(`data-download="/api/challenges/biored/export/CREL?server=${servers[0]}"`);
  });

  it("exports read back to the leaderboard's figures: PubTator and BioC as MENTION runs, PubTator and BioC by `metaserver score CREL`", async () => {
    const pubtator = await exported('biored', 'MENTION', 'pubtator', servers[0]);
    // The id column as BioRED writes it: bare NCBI Gene ids, none for U2OS.
    expect(pubtator).toContain('G1\t0\t4\tTP53\tprotein\t7157\n');
    expect(pubtator).toContain('G1\t27\t31\tU2OS\tprotein\t-\n');
    const up = await send(ms, 'POST', '/api/challenges/biored/runs/MENTION?format=pubtator', {
      body: pubtator,
      type: 'text/plain',
      token: team.token,
    });
    expect(up.status, up.text).toBe(201);
    const bioc = await exported('biored', 'MENTION', 'bioc-xml', servers[1]);
    expect(bioc.replace(/>\s+</g, '><')).toContain(
      '<infon key="type">protein</infon><infon key="identifier">NCBIGene:7157</infon><infon key="confidence">0.9</infon><location offset="0" length="4">',
    );
    const upBioc = await send(ms, 'POST', '/api/challenges/biored/runs/MENTION?format=bioc', {
      body: bioc,
      type: 'application/xml',
      token: team.token,
    });
    expect(upBioc.status, upBioc.text).toBe(201);
    const board = (await send(ms, 'GET', '/api/challenges/biored/scores/MENTION?singleClass=1', { token: ADMIN_TOKEN })).json;
    const runs = board.runs.filter((r: { kind: string }) => r.kind === 'R');
    expect(runs).toHaveLength(2);
    for (const run of runs) expect(run.metrics).toEqual(mentionBoard.runs[0].metrics);

    const crelPubtator = await exported('biored', 'CREL', 'pubtator', servers[0]);
    expect(crelPubtator).toContain('G1\tAssociation\t4193\t7157\tNovel\n');
    const crelBioc = await exported('biored', 'CREL', 'bioc-xml', servers[1]);
    const files = { 'gold.pubtator': GENES_GOLD, 'S1.pubtator': crelPubtator, 'S2.xml': crelBioc };
    expect(await scoreFiles(files, 'CREL', '--gold', 'gold.pubtator', 'S1.pubtator')).toEqual(crelBoard.runs[0].metrics);
    expect(await scoreFiles(files, 'CREL', '--gold', 'gold.pubtator', 'S2.xml')).toEqual(crelBoard.runs[1].metrics);
  });

  it("the pull agent's run, exported in PubTator and BioC, reads back through BC5CDR's eval_relation.sh rules to the leaderboard's figures", async () => {
    const pubtator = await exported('cdr', 'CREL', 'pubtator', agent);
    // BC5CDR's form: bare MeSH ids, the chemical first though the agent wrote the disease first.
    expect(pubtator).toContain('C1\tCID\tD008012\tD006323\n');
    expect(pubtator).toContain('C2\tCID\tD008750\tD003863\n');
    const bioc = await exported('cdr', 'CREL', 'bioc-xml', agent);
    const files = { 'CDR.gold.PubTator': CDR_GOLD, 'run.PubTator': pubtator, 'run.BioC.xml': bioc };
    const board = (await send(ms, 'GET', '/api/challenges/cdr/scores/CREL', { token: ADMIN_TOKEN })).json;
    // Every relation is a CID of one chemical and one disease: the tool's figures are the pair+type setting's.
    for (const run of ['run.PubTator', 'run.BioC.xml'])
      expect(await scoreFiles(files, 'CID', '--gold', 'CDR.gold.PubTator', run)).toEqual(board.runs[0].metrics.pairType);
  });
});

describe('an article on demand: consensus and the page', () => {
  let articleId: string;

  beforeAll(async () => {
    const posted = await ms.request('POST', '/api/articles', { text: G1 });
    expect(posted.status).toBe(202);
    articleId = posted.body.id;
    await articleAnswered(ms, articleId, 30_000);
  });

  it('the consensus of the two servers holds the ids of each mention and the relation', async () => {
    const view = (await ms.request('GET', `/api/articles/${articleId}`)).body;
    const mentions = view.consensus.MENTION.items.map((m: { text: string; ids?: string[]; idVotes?: unknown[]; share: number }) => [
      m.text,
      m.ids,
      m.idVotes,
      m.share,
    ]);
    expect(mentions).toEqual([
      ['TP53', ['NCBIGene:7157'], [{ id: 'NCBIGene:7157', support: 2, share: 1 }], 1],
      ['MDM2', ['NCBIGene:4193'], [{ id: 'NCBIGene:4193', support: 2, share: 1 }], 1],
      ['U2OS', undefined, undefined, 1],
    ]);
    expect(view.consensus.CREL).toEqual({
      items: [
        { type: 'Association', concept1: 'NCBIGene:4193', concept2: 'NCBIGene:7157', novelty: 'Novel', share: 1, servers: liveServers },
      ],
      mentions: [
        { start: 0, end: 4, text: 'TP53', type: 'protein', ids: ['NCBIGene:7157'] },
        { start: 11, end: 15, text: 'MDM2', type: 'protein', ids: ['NCBIGene:4193'] },
      ],
    });
  });

  it('the page links each id to NCBI Gene and shows the relation with its two concepts marked', async () => {
    const page = await ms.app!.inject({ method: 'GET', url: `/fragments/articles/${articleId}` });
    expect(page.statusCode).toBe(200);
    const links =
      '<a href="https://www.ncbi.nlm.nih.gov/gene/4193" rel="external">NCBIGene:4193</a>, <a href="https://www.ncbi.nlm.nih.gov/gene/7157" rel="external">NCBIGene:7157</a>';
    const marked =
      '<span class="item-context"><mark class="item-arg" title="NCBIGene:7157 protein">TP53</mark><sub class="item-arg-label">NCBIGene:7157 protein</sub> binds <mark class="item-arg" title="NCBIGene:4193 protein">MDM2</mark><sub class="item-arg-label">NCBIGene:4193 protein</sub> and p21 in U2OS cel…</span> <span class="muted">novel</span> ';
    const crel = page.body.slice(page.body.indexOf('<h3>CREL: relations between concepts</h3>'), page.body.indexOf('id="text-heading"'));
    // Each server's relation, then the consensus's: the two concepts' mentions marked, both ids linked.
    expect(crel.split(`Association ${marked}${links}`)).toHaveLength(4);
    expect(crel).toContain(`${links} <span class="muted">share 1.00, 2 server(s)</span>`);
    // The viewer's data: each mention's ids, their links and database (the panel shows them when one is selected).
    expect(page.body).toContain(
      '[0,4,0,[0,1,2],"TP53",null,[["NCBIGene:7157","https://www.ncbi.nlm.nih.gov/gene/7157","NCBI Gene",[0,1,2]]]]',
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
        // A mention selected: the panel links its id to NCBI Gene.
        await page.locator('mark.ann[data-m="0"]').click();
        await page.locator('[data-viewer-panel] a[href="https://www.ncbi.nlm.nih.gov/gene/7157"]').waitFor({ timeout: 20_000 });
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
