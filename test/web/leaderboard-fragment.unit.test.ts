// The leaderboard fragment's rows: run names with their server and team, a server that
// never answered said in words, and export buttons only where the export route would answer.
import { describe, expect, it } from 'vitest';
import { leaderboardFragment, type BoardJson } from '../../src/web/pages/leaderboard.ts';

const metrics = { macro: { p: 0.5, r: 0.25, f: 1 / 3, aucIPR: 0.2 }, micro: { p: 0.5, r: 0.25, f: 1 / 3, aucIPR: 0.2 } };
const board: BoardJson = {
  task: 'INT',
  options: { cutoff: 5 },
  runs: [
    { run: 'T1_S1', team: 'A', server: 1, serverName: 'live-1', answered: 2, kind: 'S', metrics },
    { run: 'T2_S1', team: 'B', server: 2, serverName: 'live-1', answered: 2, kind: 'S', metrics },
    { run: 'T2_R1', team: 'B', kind: 'R', metrics },
    {
      run: 'T3_S1',
      team: 'C',
      server: 3,
      serverName: 'quiet',
      answered: 0,
      kind: 'S',
      metrics: { macro: { p: 0, r: 0, f: 0, aucIPR: 0 } },
    },
  ],
};
const exported = (page: string) => [...page.matchAll(/data-filename="([^"]+)\.INT\.tsv"/g)].map((m) => m[1]);

describe('leaderboard rows', () => {
  it("name each run's server and team, and list a server that never answered as such", () => {
    const page = leaderboardFragment('c', board, {}).value;
    expect([...page.matchAll(/<span class="run-what">([^<]*)<\/span>/g)].map((m) => m[1])).toEqual([
      'server live-1 of A',
      'server live-1 of B',
      'offline run of B',
      'server quiet of C',
    ]);
    expect(page).toContain('<td>0.500</td><td>0.250</td><td>0.333</td><td>0.200</td>');
    expect(page).toMatch(/<td colspan="8" class="never" data-never-answered>Never answered/);
    expect(page).toContain('INT results (first 5 results per document)');
    // In each of the two plots, one point per run that answered (the quiet server has none).
    expect(page.match(/<g class="point /g)).toHaveLength(6);
  });

  it('offers exports to the organiser for every server, to a team for its own, to a visitor for none', () => {
    expect(exported(leaderboardFragment('c', board, { exports: { all: true } }).value)).toEqual(['T1_S1', 'T2_S1', 'T3_S1']);
    expect(exported(leaderboardFragment('c', board, { exports: { team: 'B' } }).value)).toEqual(['T2_S1']);
    const visitor = leaderboardFragment('c', board, {}).value;
    expect(exported(visitor)).toEqual([]);
    expect(visitor).not.toContain('<th scope="col">Export</th>');
  });
});

describe('a baseline row', () => {
  it("is said to be the organiser's, not ranked, rather than a team's offline run", () => {
    const withBaseline: BoardJson = { ...board, runs: [{ run: 'lookup', team: '', kind: 'R', baseline: true, rank: null, metrics }] };
    const page = leaderboardFragment('c', withBaseline, {}).value;
    expect([...page.matchAll(/<span class="run-what">([^<]*)<\/span>/g)].map((m) => m[1])).toEqual([
      'organiser&#39;s baseline, not ranked',
    ]);
  });
});

describe('MENTION normalization groups', () => {
  const counts = { p: 1, r: 0.5, f: 2 / 3, tp: 1, fp: 0, fn: 1 };
  const prf = { p: 1, r: 0.5, f: 2 / 3 };
  const groups = (metrics: Record<string, unknown>) =>
    [
      ...leaderboardFragment(
        'c',
        { task: 'MENTION', options: {}, runs: [{ run: 'T1_R1', team: 'A', kind: 'R', metrics }] },
        {},
      ).value.matchAll(/<th scope="colgroup"[^>]*>([^<]*)<\/th>/g),
    ].map((m) => m[1]);
  const base = { strict: counts, left: counts, right: counts };

  it('show BC5CDR and NLM-Chem figures when the scores hold them (a gold with ids)', () => {
    expect(groups({ ...base, mention: counts, id: counts, span: { strict: prf, approx: prf }, identifier: { strict: prf } })).toEqual([
      'Strict match',
      'Left match',
      'Right match',
      'BC5CDR mentions',
      'BC5CDR ids (per document)',
      'NLM-Chem span strict',
      'NLM-Chem span approx',
      'NLM-Chem identifier strict',
    ]);
  });

  it('are left out when no run reports them (a gold without ids)', () => {
    expect(groups(base)).toEqual(['Strict match', 'Left match', 'Right match']);
  });
});
