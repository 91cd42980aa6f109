// The pure parts: stored MENTION/COREF answers → run structures → rows, the JSON upload
// forms, the sort order, and a run that cannot be scored.
import { describe, expect, it } from 'vitest';
import { parseGoldUpload, parseRunUpload } from '../../src/leaderboard/inputs.ts';
import { buildLeaderboard, leaderboardTsv } from '../../src/leaderboard/leaderboard.ts';
import { onlineRun } from '../../src/leaderboard/online-runs.ts';
import { leaderboardFragment } from '../../src/web/pages/leaderboard.ts';
import { expectFigures } from './helpers.ts';

describe('MENTION', () => {
  const gold = parseGoldUpload('MENTION', { documents: { d1: { ann: 'T1\tprotein 0 5\tBRCA1\nT2\tprotein 10 14\tTP53' } } }).gold;
  const online = onlineRun('MENTION', [
    {
      doc: 'd1',
      value: [
        { start: 0, end: 5, text: 'BRCA1', type: 'protein' },
        { start: 10, end: 13, text: 'TP5' },
      ],
    },
    { doc: 'other', value: [{ start: 0, end: 1, text: 'x', type: 'protein' }] },
  ]);

  it('scores online answers by strict, left and right match, untyped mentions apart', () => {
    const board = buildLeaderboard('MENTION', gold, [{ run: 'T1_S1', team: 'A', server: 1, kind: 'S', data: online }], {}, {});
    // The document outside the gold is ignored; the untyped mention matches nothing typed.
    expectFigures(board.runs[0].metrics, { strict: { tp: 1, fp: 1, fn: 1, f: 0.5 }, left: { tp: 1, f: 0.5 }, right: { tp: 1 } });
    expect(Object.keys(board.runs[0].metrics.perType as object)).toEqual(['protein', 'untyped']);
  });

  it('ignores types in single-class mode', () => {
    const board = buildLeaderboard('MENTION', gold, [{ run: 'T1_S1', team: 'A', kind: 'S', data: online }], { singleClass: true }, {});
    expectFigures(board.runs[0].metrics, { strict: { tp: 1, f: 0.5 }, left: { tp: 2, fp: 0, fn: 0, p: 1, r: 1, f: 1 } });
  });
});

describe('COREF', () => {
  // The antecedent is an expression of the .a2 over the given protein T1: the official
  // scorer ignores links whose antecedent is the .a1 protein itself (see below).
  const gold = parseGoldUpload('COREF', {
    documents: { d1: { a1: 'T1\tProtein 0 3\tp65', a2: 'T3\tExp 0 3\tp65\nT2\tExp 10 12\tit\nR1\tCoref Anaphora:T2 Antecedent:T3' } },
  }).gold;

  it('scores online answers (expressions and links) in surface and protein mode', () => {
    const online = onlineRun('COREF', [
      {
        doc: 'd1',
        value: {
          expressions: [
            { id: 'T3', start: 0, end: 3, text: 'p65' },
            { id: 'T4', start: 10, end: 12, text: 'it' },
          ],
          links: [{ id: 'R1', anaphor: 'T4', antecedent: 'T3' }],
        },
      },
    ]);
    const offline = parseRunUpload('COREF', { documents: { d2: { a2: '' } } }, 'rank,confidence').run;
    const board = buildLeaderboard(
      'COREF',
      gold,
      [
        { run: 'T2_R1', team: 'B', kind: 'R', data: offline },
        { run: 'T1_S1', team: 'A', kind: 'S', data: online },
      ],
      {},
      {},
    );
    expect(board.runs.map((r) => r.run)).toEqual(['T1_S1', 'T2_R1']);
    expectFigures(board.runs[0].metrics, {
      surface: { tp: 1, f: 1 },
      protein: { tp: 1, fp: 0, fn: 0, f: 1 },
      perType: { PRON: { protein: { tp: 1 } } },
    });
    // A run without d1 misses its link.
    expectFigures(board.runs[1].metrics, { protein: { tp: 0, fn: 1, f: 0 } });
    // Mention detection comes first, as in the official report: protein mode scores the gold
    // expressions on protein chains (T2, T3); both online expressions match one → P = R = 1.
    expect(Object.keys(board.runs[0].metrics)[0]).toBe('mentions');
    expectFigures(board.runs[0].metrics, { mentions: { protein: { gold: 2, response: 2, tp: 2, p: 1, r: 1 } } });
    expectFigures(board.runs[1].metrics, { mentions: { protein: { gold: 2, response: 0, fn: 2, r: 0 } } });
  });

  it('shows mention detection, protein and surface figures and the links not scored on the web page', () => {
    const online = onlineRun('COREF', [
      {
        doc: 'd1',
        value: {
          expressions: [
            { id: 'T3', start: 0, end: 3, text: 'p65' },
            { id: 'T4', start: 10, end: 12, text: 'it' },
          ],
          // R2 points forward (T4 starts at 10, T3 at 0): it is not scored.
          links: [
            { id: 'R1', anaphor: 'T4', antecedent: 'T3' },
            { id: 'R2', anaphor: 'T3', antecedent: 'T4' },
          ],
        },
      },
    ]);
    const board = buildLeaderboard('COREF', gold, [{ run: 'T1_S1', team: 'A', kind: 'S', data: online }], {}, {});
    const page = leaderboardFragment('bc', JSON.parse(JSON.stringify(board))).value;
    const headers = [...page.matchAll(/<th scope="col">([^<]*)<\/th>/g)].map((m) => m[1]);
    expect(headers).toEqual([
      'Run',
      'Kind',
      'Team',
      'Mention P',
      'Mention R',
      'Mention F',
      'Resp',
      'C',
      'P',
      'R',
      'F',
      'Surface P',
      'Surface R',
      'Surface F',
      'Links not scored',
    ]);
    // Everything right but R2: counts as integers, figures with three decimals, 1 link not scored.
    const cells = [...page.matchAll(/<td>([^<]*)<\/td>/g)].map((m) => m[1]);
    expect(cells).toEqual(['S', 'A', '1.000', '1.000', '1.000', '1', '1', '1.000', '1.000', '1.000', '1.000', '1.000', '1.000', '1']);
    expect(page).toContain('data-plot="pr"');
  });

  it('ignores links to a given protein of the .a1 and lists them beside the figures', () => {
    const toProtein = parseGoldUpload('COREF', {
      documents: { d1: { a1: 'T1\tProtein 0 3\tp65', a2: 'T2\tExp 10 12\tit\nR1\tCoref Anaphora:T2 Antecedent:T1' } },
    }).gold;
    const online = onlineRun('COREF', [
      {
        doc: 'd1',
        value: { expressions: [{ id: 'T4', start: 10, end: 12, text: 'it' }], links: [{ id: 'R1', anaphor: 'T4', antecedent: 'T1' }] },
      },
    ]);
    const board = buildLeaderboard('COREF', toProtein, [{ run: 'T1_S1', team: 'A', kind: 'S', data: online }], {}, {});
    // Both links are ignored: no gold and no response link is left in either mode.
    expectFigures(board.runs[0].metrics, {
      surface: { gold: 0, response: 0 },
      protein: { gold: 0, response: 0 },
      dropped: { gold: { givenProtein: 1 }, response: { givenProtein: 1 } },
    });
    expect(board.runs[0].droppedLinks!.map((d) => `${d.side} ${d.link} ${d.reason}`)).toEqual([
      'gold R1 given-protein',
      'response R1 given-protein',
    ]);
    // The TSV stays one table: counts, not the list.
    const header = leaderboardTsv(board).split('\n')[0].split('\t');
    expect(header).toContain('dropped.response.givenProtein');
    expect(header.some((c) => c.startsWith('droppedLinks'))).toBe(false);
  });

  it('shows a run that cannot be scored as a row with its error, last', () => {
    const broken = parseRunUpload('COREF', { documents: { d1: { a2: 'R1\tCoref Anaphora:T8 Antecedent:T9' } } }, 'rank,confidence').run;
    const board = buildLeaderboard(
      'COREF',
      gold,
      [
        { run: 'T1_R1', team: 'A', kind: 'R', data: broken },
        { run: 'T2_R1', team: 'B\tC', kind: 'R', data: parseRunUpload('COREF', { documents: { d1: { a2: '' } } }, 'order').run },
      ],
      {},
      {},
    );
    expect(board.runs[1]).toMatchObject({ run: 'T1_R1', metrics: {}, error: expect.stringMatching(/T8/) });
    const lines = leaderboardTsv(board).trimEnd().split('\n');
    expect(lines[1].split('\t').slice(0, 4)).toEqual(['T2_R1', 'R', 'B C', '']);
  });

  it('refuses a COREF gold without the given proteins', () => {
    expect(() => parseGoldUpload('COREF', { documents: { d1: { a2: '' } } })).toThrow(/documents\["d1"\]\.a1 must be a string/);
  });
});
