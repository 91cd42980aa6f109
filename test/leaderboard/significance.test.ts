// `GET /scores/:task?significance=1` (src/leaderboard/board-significance.ts) on the hand-worked
// case of test/scoring/significance.unit.test.ts: a MENTION gold of 3 documents and two offline
// runs whose per-document counts are those of runs A and B there, so the exact p is 0.25
// and B's intervals are [0, 1/2], A's [1, 1]. The same call twice answers the same; a
// family without per-document counts is refused, naming the ones with.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';
import { send, tsv } from './helpers.ts';

// d1, d2: two mentions each; d3: one.
const GOLD = {
  documents: {
    d1: { ann: 'T1\tGene 0 4\tBRCA\nT2\tGene 10 14\tTP53' },
    d2: { ann: 'T1\tGene 0 3\tEGF\nT2\tGene 8 12\tKRAS' },
    d3: { ann: 'T1\tGene 5 9\tMYC1' },
  },
};
// A: every mention right. Counts (2,2,2,2), (2,2,2,2), (1,1,1,1).
const RUN_A = GOLD;
// B: d1 one right, one wrong (1,2,1,2); d2 one wrong (0,1,0,2); d3 nothing (0,0,0,1).
const RUN_B = {
  documents: {
    d1: { ann: 'T1\tGene 0 4\tBRCA\nT2\tGene 20 24\tNOPE' },
    d2: { ann: 'T1\tGene 1 3\tGF' },
    d3: { ann: '' },
  },
};

let ms: TestMetaserver;
let teamId: number;
const scores = (query: string) => send(ms, 'GET', `/api/challenges/sig/scores/MENTION${query}`, { token: ADMIN_TOKEN });

beforeAll(async () => {
  ms = await startTestMetaserver({ workers: false });
  await ms.challenge('sig', { name: 'Significance', tasks: ['MENTION', 'INT'] });
  const team = await ms.team('Team S');
  teamId = team.id;
  expect((await send(ms, 'PUT', '/api/challenges/sig/gold/MENTION', { body: GOLD, token: ADMIN_TOKEN })).status).toBe(200);
  expect((await send(ms, 'POST', '/api/challenges/sig/runs/MENTION', { body: RUN_A, token: team.token })).status).toBe(201);
  expect((await send(ms, 'POST', '/api/challenges/sig/runs/MENTION', { body: RUN_B, token: team.token })).status).toBe(201);
  const intGold = tsv([['d1', 'P37840']]);
  expect((await send(ms, 'PUT', '/api/challenges/sig/gold/INT', { body: intGold, token: ADMIN_TOKEN })).status).toBe(200);
});
afterAll(async () => {
  await ms?.stop();
});

describe('significance on the leaderboard', () => {
  it('adds the intervals to each row and the p of the pair', async () => {
    const res = await scores('?significance=1&trials=10000');
    expect(res.status).toBe(200);
    const [a, b] = [`T${teamId}_R1`, `T${teamId}_R2`];
    expect(res.json.runs.map((r: { run: string }) => r.run)).toEqual([a, b]);
    expect(res.json.runs[0].ci95).toEqual({
      'strict.p': { low: 1, high: 1 },
      'strict.r': { low: 1, high: 1 },
      'strict.f': { low: 1, high: 1 },
    });
    expect(res.json.runs[1].ci95).toEqual({
      'strict.p': { low: 0, high: 0.5 },
      'strict.r': { low: 0, high: 0.5 },
      'strict.f': { low: 0, high: 0.5 },
    });
    expect(res.json.significance).toEqual({
      method: 'approximate randomization',
      trials: 10000,
      scope: 'all pairs',
      pairs: [{ a, b, p: 0.25, exact: true }],
      topGroup: [a, b],
    });
    // The figures are those of the board without significance (read page by page).
    const plain = await scores('');
    expect(res.json.runs.map((r: { metrics: unknown }) => r.metrics)).toEqual(plain.json.runs.map((r: { metrics: unknown }) => r.metrics));
    expect(plain.json.significance).toBeUndefined();
    expect(plain.json.runs[0].ci95).toBeUndefined();
  });

  it('answers the same call the same', async () => {
    const first = await scores('?significance=1&trials=200');
    const second = await scores('?significance=1&trials=200');
    expect(second.json).toEqual(first.json);
  });

  it('carries the intervals as TSV columns', async () => {
    const res = await scores('?significance=1&format=tsv');
    expect(res.status).toBe(200);
    const [header, top] = res.text
      .trim()
      .split('\n')
      .map((line) => line.split('\t'));
    const at = (column: string) => top[header.indexOf(column)];
    expect(header).toEqual(expect.arrayContaining(['ci95.strict.f.low', 'ci95.strict.f.high', 'ci95.strict.p.low', 'ci95.strict.r.high']));
    expect([at('ci95.strict.f.low'), at('ci95.strict.f.high')]).toEqual(['1', '1']);
    expect((await scores('?format=tsv')).text).not.toMatch(/ci95/);
  });

  it('refuses a family without per-document counts, naming those with, and bad trials', async () => {
    const res = await send(ms, 'GET', '/api/challenges/sig/scores/INT?significance=1', { token: ADMIN_TOKEN });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/INT does not give.*available for MENTION/);
    const few = await scores('?significance=1&trials=99');
    expect(few.status).toBe(400);
    expect(few.json.error.message).toMatch(/trials must be a whole number from 100 to 10000/);
    expect((await scores('?significance=1&trials=10001')).status).toBe(400);
    const alone = await scores('?trials=500');
    expect(alone.status).toBe(400);
    expect(alone.json.error.message).toMatch(/significance=1/);
  });
});
