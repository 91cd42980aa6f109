// Baselines: the organiser uploads a run with ?baseline=1&name=NAME; the board shows it
// (baseline: true, rank: null, scored like any offline run), teams' ranks stay as without
// it, a team cannot upload one, a second upload of the same name replaces it, and a team's
// five run slots are not touched by baselines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';
import { send, tsv } from './helpers.ts';

let ms: TestMetaserver;
let team = '';

// Gold: two documents, one protein each. The perfect run finds both; the half run answers d1 only.
const PERFECT = tsv([
  ['d1', 'P38398', '1', '0.9'],
  ['d2', 'P04637', '1', '0.9'],
]);
const HALF = tsv([['d1', 'P38398', '1', '0.9']]);

const upload = (body: string, query = '', token = ADMIN_TOKEN) =>
  send(ms, 'POST', `/api/challenges/base/runs/INT${query}`, { body, token });
const board = async () => (await send(ms, 'GET', '/api/challenges/base/scores/INT', { token: ADMIN_TOKEN })).json;

beforeAll(async () => {
  ms = await startTestMetaserver({ workers: false });
  await ms.challenge('base', { name: 'Baselines' });
  await ms.articles('base', [
    { id: 'd1', text: 'BRCA1 (P38398) binds.' },
    { id: 'd2', text: 'p53 (P04637) binds.' },
  ]);
  team = (await ms.team('Halves')).token;
  const gold = tsv([
    ['d1', 'P38398'],
    ['d2', 'P04637'],
  ]);
  expect((await send(ms, 'PUT', '/api/challenges/base/gold/INT', { body: gold, token: ADMIN_TOKEN })).status).toBe(200);
});
afterAll(async () => {
  await ms?.stop();
});

describe('baselines on the leaderboard', () => {
  it('are refused to teams, and name without baseline=1 or a team run from the organiser are told what to do', async () => {
    const byTeam = await upload(PERFECT, '?baseline=1&name=mine', team);
    expect(byTeam.status).toBe(403);
    expect(byTeam.json.error.message).toMatch(/only the organiser uploads baselines/);
    expect((await upload(PERFECT, '?name=mine')).status).toBe(400);
    expect((await upload(PERFECT, '?name=mine', team)).status).toBe(400);
    const organiserRun = await upload(PERFECT);
    expect(organiserRun.status).toBe(403);
    expect(organiserRun.json.error.message).toMatch(/baseline=1&name=NAME/);
    expect((await upload(PERFECT, '?baseline=1')).status).toBe(400);
    expect((await upload(PERFECT, `?baseline=1&name=${encodeURIComponent('a\tb')}`)).status).toBe(400);
    expect((await upload(PERFECT, '?baseline=1&name=T1_R1')).status).toBe(400);
    expect((await upload(PERFECT, `?baseline=1&name=${'x'.repeat(101)}`)).status).toBe(400);
  });

  it('are shown marked and unranked, scored like a team run, and leave the teams ranks alone', async () => {
    const stored = await upload(PERFECT, '?baseline=1&name=dictionary%20lookup');
    expect(stored.status).toBe(201);
    expect(stored.json).toMatchObject({ run: 'dictionary lookup', baseline: true, replaced: false });
    expect((await upload(HALF, '', team)).status).toBe(201);
    const teamPerfect = await upload(PERFECT, '', team);
    expect(teamPerfect.status).toBe(201);

    const rows = (await board()).runs;
    const baseline = rows.find((r: any) => r.baseline);
    const teamRuns = rows.filter((r: any) => !r.baseline);
    expect(baseline).toMatchObject({ run: 'dictionary lookup', kind: 'R', team: '', baseline: true, rank: null });
    // The same file scores the same, baseline or not.
    const sameFile = teamRuns.find((r: any) => r.run === teamPerfect.json.run);
    expect(baseline.metrics).toEqual(sameFile.metrics);
    expect(teamRuns.map((r: any) => [r.rank, r.baseline])).toEqual([
      [1, false],
      [2, false],
    ]);
  });

  it('keep the best team run at rank 1 when the baseline scores above it (MENTION, with significance)', async () => {
    await ms.challenge('above', { name: 'Above', tasks: ['MENTION'] });
    const gold = {
      documents: { d1: { ann: 'T1\tGene 0 4\tBRCA\nT2\tGene 10 14\tTP53' }, d2: { ann: 'T1\tGene 0 3\tEGF' } },
    };
    const weak = { documents: { d1: { ann: 'T1\tGene 0 4\tBRCA\nT2\tGene 20 24\tNOPE' }, d2: { ann: '' } } };
    expect((await send(ms, 'PUT', '/api/challenges/above/gold/MENTION', { body: gold, token: ADMIN_TOKEN })).status).toBe(200);
    const post = (body: object, query: string, token: string) =>
      send(ms, 'POST', `/api/challenges/above/runs/MENTION${query}`, { body, token });
    expect((await post(gold, '?baseline=1&name=oracle', ADMIN_TOKEN)).status).toBe(201);
    expect((await post(weak, '', team)).status).toBe(201);
    const scores = async (query = '') => await send(ms, 'GET', `/api/challenges/above/scores/MENTION${query}`, { token: ADMIN_TOKEN });
    const rows = (await scores()).json.runs;
    expect(rows.map((r: any) => [r.run, r.rank, r.baseline])).toEqual([
      ['oracle', null, true],
      [expect.stringMatching(/^T\d+_R1$/), 1, false],
    ]);
    // Significance compares the baseline too, but the top of topGroup is the best team run.
    const sig = (await scores('?significance=1&trials=100')).json;
    expect(sig.runs.map((r: any) => [r.run, r.rank])).toEqual(rows.map((r: any) => [r.run, r.rank]));
    expect(sig.significance.pairs).toEqual([expect.objectContaining({ a: rows[1].run, b: 'oracle' })]);
    expect(sig.significance.topGroup[0]).toBe(rows[1].run);
    expect(sig.runs[0].ci95).toBeDefined();
    // The TSV table ends with the baseline and rank columns.
    const table = (await scores('?format=tsv')).text.split('\n');
    expect(table[0].split('\t').slice(-2)).toEqual(['baseline', 'rank']);
    expect(table[1].split('\t').slice(-2)).toEqual(['true', '']);
    // Once closed, teams' runs are refused but the organiser may still add a baseline.
    expect((await ms.request('PATCH', '/api/challenges/above', { phase: 'closed' }, ADMIN_TOKEN)).status).toBe(200);
    expect((await post(weak, '', team)).status).toBe(409);
    expect((await post(weak, '?baseline=1&name=late', ADMIN_TOKEN)).status).toBe(201);
  });

  it('are replaced by a second upload of the same name', async () => {
    const again = await upload(HALF, '?baseline=1&name=dictionary%20lookup');
    expect(again.status).toBe(201);
    expect(again.json.replaced).toBe(true);
    const baselines = (await board()).runs.filter((r: any) => r.baseline);
    expect(baselines).toHaveLength(1);
    const half = (await board()).runs.find((r: any) => !r.baseline && r.run.endsWith('_R1'));
    expect(baselines[0].metrics).toEqual(half.metrics);
  });

  it("take none of a team's five run slots", async () => {
    for (const name of ['b1', 'b2', 'b3', 'b4', 'b5', 'b6']) expect((await upload(HALF, `?baseline=1&name=${name}`)).status).toBe(201);
    // The team has 2 runs: 3 more are accepted, the sixth is refused as before.
    for (let i = 3; i <= 5; i++) expect((await upload(HALF, '', team)).json.n).toBe(i);
    const sixth = await upload(HALF, '', team);
    expect(sixth.status).toBe(409);
    expect(sixth.json.error.code).toBe('run_limit');
    const rows = (await board()).runs;
    expect(rows.filter((r: any) => r.baseline)).toHaveLength(7);
    expect(rows.filter((r: any) => !r.baseline).map((r: any) => r.rank)).toEqual([1, 2, 3, 4, 5]);
  });
});
