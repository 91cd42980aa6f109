// Scoring end to end: the TypeScript sample server annotates four articles through a real
// meta-server; the organiser loads hand-made gold; a team uploads an offline run; the
// leaderboard's figures are checked against values computed by hand, and the exported
// online run, scored with the scoring library, gives the leaderboard's figures again.
//
// The sample annotator (src/sample/annotator.ts) answers, for these texts:
//   INT  d1 P37840 (1, 1/2), P38398 (2, 1/3), P04637 (3, 1/4)
//        d2 Q9Y6K9 (1, 1/2), O14920 (2, 1/3), P38398 (3, 1/4)
//        d3 P31749 (1, 1/2);  d4 nothing
//   ACT  d1 true 1/2 ("binds"), d2 true 2/3 ("complex", "interacts"), d3 false 1/2, d4 false 1/2
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseActGold, parseActRun, parseIntGold, parseIntRun, scoreActRun, scoreRankedRun } from '../../src/scoring/index.ts';
import { startSampleServer, type SampleServer } from '../../src/sample/server.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';
import { expectFigures, send, tsv } from './helpers.ts';

const ARTICLES = [
  { id: 'd1', text: 'Alpha-synuclein P37840 binds BRCA1 P38398 and P04637.' },
  { id: 'd2', text: 'Q9Y6K9 forms a complex with O14920 and interacts with P38398.' },
  { id: 'd3', text: 'The kinase P31749 was measured in serum.' },
  { id: 'd4', text: 'Nothing of note here.' },
];
const INT_GOLD = tsv([
  ['d1', 'P37840'],
  ['d1', 'P04637'],
  ['d2', 'O14920'],
  ['d2', 'Q13547'],
  ['d3', 'P31749'],
  ['d4', 'P99999'],
]);
const ACT_GOLD = tsv([
  ['d1', '1'],
  ['d2', 'true'],
  ['d3', 'y'],
  ['d4', '0'],
]);
// Team B's offline run; dX is not in the gold and is ignored.
const INT_RUN = tsv([
  ['d1', 'P04637', '1', '0.9'],
  ['d1', 'P37840', '2', '0.8'],
  ['d2', 'O14920', '1', '0.7'],
  ['d2', 'Q13547', '2', '0.6'],
  ['d3', 'P00533', '1', '0.5'],
  ['dX', 'P11111', '1', '0.5'],
]);

// Hand-computed (see the comments for the walks).
// S, per document: d1 T F T / 2 gold → P 2/3 R 1 F 4/5, AUC 1·1/2 + 2/3·1/2 = 5/6;
// d2 F T F / 2 → P 1/3 R 1/2 F 2/5, AUC 1/2·1/2 = 1/4; d3 T / 1 → all 1.
// Micro levels: (2/3, 2/5), (3/5, 3/5), (4/7, 4/5) → AUC 2/3·2/5 + 3/5·1/5 + 4/7·1/5.
const S_INT = {
  evaluatedDocs: 3,
  tp: 4,
  fp: 3,
  fn: 1,
  micro: { p: 4 / 7, r: 4 / 5, f: 2 / 3, aucIPR: (2 / 3) * (2 / 5) + (3 / 5) * (1 / 5) + (4 / 7) * (1 / 5) },
  macro: { p: 2 / 3, r: 2.5 / 3, f: 2.2 / 3, aucIPR: (5 / 6 + 1 / 4 + 1) / 3, sdP: Math.sqrt(2 / 27), sdF: Math.sqrt(14) / 15 },
};
// R: d1 T T, d2 T T (all 1), d3 F (all 0). Micro levels (2/3, 2/5), (4/5, 4/5) → AUC 4/5·4/5.
const R_INT = {
  evaluatedDocs: 3,
  tp: 4,
  fp: 1,
  fn: 1,
  micro: { p: 4 / 5, r: 4 / 5, f: 4 / 5, aucIPR: 0.64 },
  macro: { p: 2 / 3, r: 2 / 3, f: 2 / 3, aucIPR: 2 / 3 },
};
// ACT: TP d1 d2, FN d3, TN d4 → MCC 2/√12. Walk: d2, d1 (trues by confidence), then
// d3, d4 (falses by confidence ascending, the tie broken by id) → T T T F, AUC 1.
const S_ACT = {
  tp: 2,
  fp: 0,
  fn: 1,
  tn: 1,
  accuracy: 3 / 4,
  sensitivity: 2 / 3,
  specificity: 1,
  mcc: 2 / Math.sqrt(12),
  pAtFullR: 1,
  aucIPR: 1,
};

let ms: TestMetaserver;
let sample: SampleServer;
let teamA: { id: number; token: string };
let teamB: { id: number; token: string };
let serverId: number;

beforeAll(async () => {
  ms = await startTestMetaserver();
  sample = await startSampleServer({ port: 0 });
  await ms.challenge('lb', { name: 'Leaderboard', tasks: ['ACT', 'INT'] });
  teamA = await ms.team('Team A');
  teamB = await ms.team('Team B');
  const server = await ms.server('lb', teamA.token, { name: 'sample', url: sample.url, tasks: ['ACT', 'INT'] });
  serverId = server.id;
  await ms.articles('lb', ARTICLES);
  await ms.startServer(serverId, teamA.token);
  await waitFor(
    'all four answers',
    async () => {
      const res = await ms.request('GET', `/api/servers/${serverId}`, undefined, ADMIN_TOKEN);
      return res.body.progress.done === 4 ? true : undefined;
    },
    45_000,
  );
});
afterAll(async () => {
  await ms?.stop();
  await sample?.close();
});

describe('leaderboard end to end', () => {
  it('loads gold standards and an offline run', async () => {
    const intGold = await send(ms, 'PUT', '/api/challenges/lb/gold/INT', { body: INT_GOLD, token: ADMIN_TOKEN });
    expect(intGold.status).toBe(200);
    expect(intGold.json).toMatchObject({ documents: 4, items: 6, unknownDocuments: 0 });
    const actGold = await send(ms, 'PUT', '/api/challenges/lb/gold/ACT', {
      body: ACT_GOLD,
      type: 'text/plain; charset=utf-8',
      token: ADMIN_TOKEN,
    });
    expect(actGold.status).toBe(200);
    expect(actGold.json).toMatchObject({ documents: 4, items: 4 });

    const run = await send(ms, 'POST', '/api/challenges/lb/runs/INT?columns=rank,confidence', { body: INT_RUN, token: teamB.token });
    expect(run.status).toBe(201);
    expect(run.json).toMatchObject({ runId: expect.any(Number), run: `T${teamB.id}_R1` });
  });

  it('shows the leaderboard to the organiser, and to teams only once closed', async () => {
    const early = await send(ms, 'GET', '/api/challenges/lb/scores/INT', { token: teamA.token });
    expect(early.status).toBe(403);
    expect(early.json.error.message).toMatch(/once the challenge is closed/);
    expect((await send(ms, 'GET', '/api/challenges/lb/scores/INT')).status).toBe(401);

    const admin = await send(ms, 'GET', '/api/challenges/lb/scores/INT', { token: ADMIN_TOKEN });
    expect(admin.status).toBe(200);
    expect(admin.json.runs.map((r: { run: string }) => r.run)).toEqual([`T${teamA.id}_S1`, `T${teamB.id}_R1`]);

    expect((await ms.request('PATCH', '/api/challenges/lb', { phase: 'closed' }, ADMIN_TOKEN)).status).toBe(200);
    const board = await send(ms, 'GET', '/api/challenges/lb/scores/INT', { token: teamB.token });
    expect(board.status).toBe(200);
    expect(board.json.task).toBe('INT');
    const [s, r] = board.json.runs;
    expect(s).toMatchObject({ run: `T${teamA.id}_S1`, team: 'Team A', server: serverId, kind: 'S' });
    expect(r).toMatchObject({ run: `T${teamB.id}_R1`, team: 'Team B', kind: 'R' });
    expect(r.server).toBeUndefined();
    expectFigures(s.metrics, S_INT);
    expectFigures(r.metrics, R_INT);
  });

  it('applies the options: all, cutoff, beta', async () => {
    const all = await send(ms, 'GET', '/api/challenges/lb/scores/INT?all=1&beta=1', { token: ADMIN_TOKEN });
    expect(all.json.options).toEqual({ all: true, beta: 1 });
    const s = all.json.runs.find((x: { kind: string }) => x.kind === 'S');
    // d4 joins as an empty list: macro F (4/5 + 2/5 + 1 + 0)/4, micro recall 4/6.
    expectFigures(s.metrics, { evaluatedDocs: 4, fn: 2, macro: { f: 2.2 / 4 }, micro: { r: 4 / 6 }, fBeta: 2.2 / 4 });
    const cut = await send(ms, 'GET', '/api/challenges/lb/scores/INT?cutoff=1', { token: ADMIN_TOKEN });
    // First results only: d1 T (F 2/3), d2 F (0), d3 T (1).
    expectFigures(cut.json.runs.find((x: { kind: string }) => x.kind === 'S').metrics.macro.f, 5 / 9);
  });

  it('scores ACT online runs by confidence order', async () => {
    const board = await send(ms, 'GET', '/api/challenges/lb/scores/ACT', { token: teamA.token });
    expect(board.status).toBe(200);
    expect(board.json.runs).toHaveLength(1);
    expectFigures(board.json.runs[0].metrics, S_ACT);
  });

  it('gives the leaderboard as a TSV table', async () => {
    const table = await send(ms, 'GET', '/api/challenges/lb/scores/INT?format=tsv', { token: teamB.token });
    expect(table.status).toBe(200);
    expect(table.type).toMatch(/^text\/tab-separated-values/);
    const [header, sLine, rLine, extra] = table.text.split('\n');
    const columns = header.split('\t');
    expect(columns.slice(0, 9)).toEqual(['run', 'kind', 'team', 'server', 'evaluatedDocs', 'tp', 'fp', 'fn', 'micro.p']);
    const cell = (line: string, name: string) => line.split('\t')[columns.indexOf(name)];
    expect(cell(sLine, 'run')).toBe(`T${teamA.id}_S1`);
    expect(cell(sLine, 'server')).toBe(String(serverId));
    expect(Number(cell(sLine, 'macro.f'))).toBeCloseTo(2.2 / 3, 12);
    expect(cell(rLine, 'kind')).toBe('R');
    expect(cell(rLine, 'server')).toBe('');
    expect(Number(cell(rLine, 'micro.aucIPR'))).toBeCloseTo(0.64, 12);
    expect(extra).toBe('');
  });

  it('exports the online run as BC II.5 TSV that scores the same as the leaderboard', async () => {
    const intExport = await send(ms, 'GET', `/api/challenges/lb/export/INT?server=${serverId}`, { token: teamA.token });
    expect(intExport.status).toBe(200);
    expect(intExport.type).toMatch(/^text\/tab-separated-values/);
    expect(intExport.text).toBe(
      tsv([
        ['d1', 'P37840', '1', '0.5'],
        ['d1', 'P38398', '2', String(1 / 3)],
        ['d1', 'P04637', '3', '0.25'],
        ['d2', 'Q9Y6K9', '1', '0.5'],
        ['d2', 'O14920', '2', String(1 / 3)],
        ['d2', 'P38398', '3', '0.25'],
        ['d3', 'P31749', '1', '0.5'],
      ]),
    );
    const board = (await send(ms, 'GET', '/api/challenges/lb/scores/INT', { token: ADMIN_TOKEN })).json;
    const { documents: _d, ...rescored } = scoreRankedRun(parseIntGold(INT_GOLD), parseIntRun(intExport.text), { task: 'INT' });
    expect(rescored).toEqual(board.runs.find((r: { kind: string }) => r.kind === 'S').metrics);

    const actExport = await send(ms, 'GET', `/api/challenges/lb/export/ACT?server=${serverId}`, { token: ADMIN_TOKEN });
    // Trues ranked by confidence; falses so that rank descending walks d3 then d4.
    expect(actExport.text).toBe(
      tsv([
        ['d1', '1', '2', '0.5'],
        ['d2', '1', '1', String(2 / 3)],
        ['d3', '0', '2', '0.5'],
        ['d4', '0', '1', '0.5'],
      ]),
    );
    const actBoard = (await send(ms, 'GET', '/api/challenges/lb/scores/ACT', { token: ADMIN_TOKEN })).json;
    expect({ ...scoreActRun(parseActGold(ACT_GOLD).value, parseActRun(actExport.text).value, 'rank') }).toEqual(actBoard.runs[0].metrics);
  });

  it('refuses exports to other teams and for tasks without a TSV form', async () => {
    expect((await send(ms, 'GET', `/api/challenges/lb/export/INT?server=${serverId}`, { token: teamB.token })).status).toBe(404);
    expect((await send(ms, 'GET', `/api/challenges/lb/export/INT?server=${serverId}`)).status).toBe(401);
    expect((await send(ms, 'GET', `/api/challenges/lb/export/INT?server=99999`, { token: ADMIN_TOKEN })).status).toBe(404);
    const unknown = await send(ms, 'GET', `/api/challenges/lb/export/FOO?server=${serverId}`, { token: ADMIN_TOKEN });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.code).toBe('unknown_task');
  });

  it('accepts no offline runs once the challenge is closed', async () => {
    const late = await send(ms, 'POST', '/api/challenges/lb/runs/INT', { body: INT_RUN, token: teamB.token });
    expect(late.status).toBe(409);
  });
});
