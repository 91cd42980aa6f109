// The leaderboard fragment with significance, rendered without a browser: intervals under
// the main figures of the rows that have them only (never under a server that never
// answered nor a run that could not be scored), the top group marked in words and by the
// sentence above the table, interval bars on the plot, and the pairs' p values. The options
// offer significance only to the families that count per document, and pass `trials` only
// with it; the TSV carries the group.
import { describe, expect, it } from 'vitest';
import { leaderboardFragment, leaderboardPageBody, type BoardJson } from '../../src/web/pages/leaderboard.ts';
import { scoreQueryString } from '../../src/web/pages/leaderboard-options.ts';
import { leaderboardTsv, type Leaderboard } from '../../src/leaderboard/leaderboard.ts';
import { fitDomain, tickStep } from '../../src/web/plots.ts';

const strict = (p: number, r: number) => ({ p, r, f: (2 * p * r) / (p + r), tp: 4, fp: 1, fn: 2 });
const metrics = (p: number, r: number) => ({ strict: strict(p, r), left: strict(p, r), right: strict(p, r) });
/** Intervals given as written (no arithmetic, so their printed forms are exact). */
const ci = (p: [number, number], r: [number, number]) => ({
  'strict.p': { low: p[0], high: p[1] },
  'strict.r': { low: r[0], high: r[1] },
  'strict.f': { low: 0.5, high: 0.75 },
});

const BOARD: BoardJson = {
  task: 'MENTION',
  options: {},
  runs: [
    { run: 'T1_R1', team: 'A', kind: 'R', baseline: false, rank: 1, metrics: metrics(0.8, 0.7), ci95: ci([0.75, 0.85], [0.6, 0.8]) },
    { run: 'lookup', team: '', kind: 'R', baseline: true, rank: null, metrics: metrics(0.75, 0.65), ci95: ci([0.7, 0.8], [0.55, 0.75]) },
    { run: 'T2_R1', team: 'B', kind: 'R', baseline: false, rank: 2, metrics: metrics(0.5, 0.4), ci95: ci([0.45, 0.55], [0.3, 0.5]) },
    // A server that never answered and a run that could not be scored: no interval, in no pair.
    {
      run: 'T3_S1',
      team: 'C',
      server: 3,
      serverName: 'quiet',
      answered: 0,
      kind: 'S',
      baseline: false,
      rank: null,
      metrics: metrics(0, 0),
    },
    { run: 'T4_R1', team: 'D', kind: 'R', baseline: false, rank: null, metrics: {}, error: 'line 3: no such document' },
  ],
  significance: {
    method: 'approximate randomization',
    trials: 1000,
    scope: 'all pairs',
    pairs: [
      { a: 'T1_R1', b: 'T2_R1', p: 0.000999, exact: false },
      { a: 'T1_R1', b: 'lookup', p: 0.4123, exact: true },
      { a: 'T2_R1', b: 'lookup', p: 0.0312, exact: false },
    ],
    topGroup: ['T1_R1', 'lookup'],
  },
};

/** Each row of the main table: its run, whether marked, and the intervals it shows. */
function rowsOf(page: string) {
  const main = page.slice(page.indexOf('id="board-main"'), page.indexOf('</table>', page.indexOf('id="board-main"')));
  return [...main.matchAll(/<tr data-run="([^"]+)"( data-top-group)?>(.*?)<\/tr>/gs)].map((m) => ({
    run: m[1],
    top: m[2] !== undefined,
    mark: m[3].includes('<span class="top-group-mark">top group</span>'),
    intervals: [...m[3].matchAll(/<\/span>(\([^)]*\))<\/span>/g)].map((i) => i[1]),
  }));
}

describe('the leaderboard fragment with significance', () => {
  const page = leaderboardFragment('c', BOARD, {}).value;

  it('shows the intervals of the main figures under them, on the rows that have them only', () => {
    const rows = rowsOf(page);
    expect(rows.map((r) => [r.run, r.intervals])).toEqual([
      ['T1_R1', ['(0.750–0.850)', '(0.600–0.800)', '(0.500–0.750)']],
      ['lookup', ['(0.700–0.800)', '(0.550–0.750)', '(0.500–0.750)']],
      ['T2_R1', ['(0.450–0.550)', '(0.300–0.500)', '(0.500–0.750)']],
      ['T3_S1', []],
      ['T4_R1', []],
    ]);
    // The figure stays first in its cell; the interval's words are there for screen readers.
    expect(page).toContain(
      '<td>0.800<span class="ci" data-ci-low="0.75" data-ci-high="0.85"><span class="visually-hidden">95% interval </span>(0.750–0.850)</span></td>',
    );
    expect(page).toMatch(/<td colspan="\d+" class="never" data-never-answered>Never answered/);
    expect(page).toContain('Could not be scored: line 3: no such document');
    expect(page).toContain('MENTION results; in parentheses: 95% bootstrap interval of each main figure</caption>');
  });

  it('marks the top group in words, never a row without figures, and says what the group is', () => {
    // A row without figures is never marked, even were the list to name it.
    const listed = leaderboardFragment(
      'c',
      { ...BOARD, significance: { ...BOARD.significance!, topGroup: ['T1_R1', 'lookup', 'T3_S1', 'T4_R1'] } },
      {},
    ).value;
    expect(rowsOf(listed).map((r) => [r.run, r.top, r.mark])).toEqual([
      ['T1_R1', true, true],
      ['lookup', true, true],
      ['T2_R1', false, false],
      ['T3_S1', false, false],
      ['T4_R1', false, false],
    ]);
    expect(page).toContain(
      'Runs in the <strong>top group</strong> are not significantly different from the best run (approximate randomization, 1,000 trials, p ≥ 0.05; scope: all pairs, every pair of runs compared;',
    );
  });

  it('lists the pairs with their p values, small ones in exponent form', () => {
    const pairs = [
      ...page.matchAll(
        /<tr data-pair="[^"]*"><th scope="row">([^<]*)<\/th><td>([^<]*)<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td>/g,
      ),
    ].map((m) => m.slice(1));
    expect(pairs).toEqual([
      ['T1_R1', 'T2_R1', '1.0e-3', 'yes', 'no (sampled)'],
      ['T1_R1', 'lookup', '0.412', 'no', 'yes'],
      ['T2_R1', 'lookup', '0.031', 'yes', 'no (sampled)'],
    ]);
    expect(page).toContain('p values of the 3 pairs compared');
  });

  it('draws a bar per plotted run and axis, and says in the description what the bars are', () => {
    const bars = [
      ...page.matchAll(/<g class="interval-bar" data-run="([^"]+)" data-axis="(x|y)" data-low="([^"]+)" data-high="([^"]+)">/g),
    ].map((m) => m.slice(1));
    expect(bars).toEqual([
      ['T1_R1', 'x', '0.6', '0.8'],
      ['T1_R1', 'y', '0.75', '0.85'],
      ['lookup', 'x', '0.55', '0.75'],
      ['lookup', 'y', '0.7', '0.8'],
      ['T2_R1', 'x', '0.3', '0.5'],
      ['T2_R1', 'y', '0.45', '0.55'],
    ]);
    expect(page).toMatch(/<desc>[^<]*; bars: 95% bootstrap intervals over the documents<\/desc>/);
    expect(page).toContain('T1_R1: recall 0.700 (95% interval 0.600–0.800), precision 0.800 (95% interval 0.750–0.850)');
    expect(page).toContain('Bars: each run&#39;s 95% bootstrap interval of its recall and precision.');
  });

  it('fits the axes to the bars in whole ticks (six intervals at most)', () => {
    // 0.275–0.825 rounded out by 0.1 would be 0.2–0.9, seven intervals: by 0.2 it is 0.2–1, four.
    expect(fitDomain([0.3, 0.8])).toEqual([0.2, 1]);
    for (const values of [
      [0.3, 0.8],
      [0.12, 0.61],
      [0.05, 0.97],
      [0.41, 0.44],
    ]) {
      const [d0, d1] = fitDomain(values);
      const intervals = (d1 - d0) / tickStep([d0, d1]);
      expect(Math.abs(intervals - Math.round(intervals)), String(values)).toBeLessThan(1e-9);
      expect(intervals).toBeLessThanOrEqual(6 + 1e-9);
    }
  });

  it('shows nothing of significance when the answer has none', () => {
    const plain: BoardJson = { task: 'MENTION', options: {}, runs: BOARD.runs.map(({ ci95: _, ...row }) => row) };
    const shown = leaderboardFragment('c', plain, {}).value;
    for (const absent of [
      'class="ci"',
      'top-group-mark',
      'data-top-group',
      'data-significance',
      'interval-bar',
      'in parentheses',
      'bootstrap',
    ])
      expect(shown).not.toContain(absent);
  });
});

describe('the options', () => {
  const fields = (task: string) => [...leaderboardPageBody('c', task).value.matchAll(/<input [^>]*id="board-(\w+)"/g)].map((m) => m[1]);

  it('offer significance and its trials to a family that counts per document, and not to the others', () => {
    expect(fields('MENTION')).toEqual(expect.arrayContaining(['significance', 'trials']));
    for (const task of ['INT', 'TX', 'COREF', 'CREL']) expect(fields(task), task).not.toContain('significance');
    expect(leaderboardPageBody('c', 'MENTION', { significance: '1', trials: '200' }).value).toMatch(
      /id="board-significance" name="significance" value="1" checked/,
    );
  });

  it('pass significance and trials on together, and trials never alone (the API refuses it)', () => {
    expect(scoreQueryString({ significance: '1', trials: ' 500 ' })).toBe('?significance=1&trials=500');
    expect(scoreQueryString({ significance: '0', trials: '500' })).toBe('');
    expect(scoreQueryString({ trials: '500', singleClass: '1' })).toBe('?singleClass=1');
    expect(leaderboardPageBody('c', 'MENTION', { significance: '1', trials: '300' }).value).toContain(
      'data-fragment="/fragments/challenges/c/leaderboard/MENTION?significance=1&amp;trials=300"',
    );
  });
});

describe('the TSV', () => {
  const board = (significance: boolean): Leaderboard => ({
    task: 'MENTION',
    options: {},
    runs: BOARD.runs.map((row) => (significance ? row : { ...row, ci95: undefined })),
    ...(significance ? { significance: BOARD.significance } : {}),
  });

  it('has a topGroup column, true or false on every row, when significance was asked', () => {
    const [header, ...lines] = leaderboardTsv(board(true))
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    const column = header.indexOf('topGroup');
    expect(column).toBeGreaterThan(header.indexOf('ci95.strict.f.high'));
    expect(lines.map((l) => [l[0], l[column]])).toEqual([
      ['T1_R1', 'true'],
      ['lookup', 'true'],
      ['T2_R1', 'false'],
      ['T3_S1', 'false'],
      ['T4_R1', 'false'],
    ]);
  });

  it('has none without significance', () => {
    expect(leaderboardTsv(board(false)).split('\n')[0].split('\t')).not.toContain('topGroup');
  });
});
