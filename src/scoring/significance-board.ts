// A leaderboard's significance, pure: the ranked runs' per-document counts in, every run's
// 95% intervals and the pairs' randomization p-values out (significance.ts holds the math).
// Every pair is compared when there are at most ALL_PAIRS_LIMIT runs (190 pairs for 20);
// above, each run against the next below it and the top run against every other (what the
// top group needs), which grows linearly. No correction for multiple comparisons is made:
// each p is of its own pair, as the field's scripts report them.
import { seededRandom } from '../shared/prng.ts';
import { bootstrapIntervals, randomizationP, SIGNIFICANCE_FIGURES, type Interval, type RunCounts } from './significance.ts';

/** Up to this many runs, every pair is compared. */
export const ALL_PAIRS_LIMIT = 20;
/** A pair with p below this differs significantly. */
export const SIGNIFICANCE_LEVEL = 0.05;

export interface RankedCounts {
  run: string;
  counts: RunCounts;
}

export interface PairP {
  a: string;
  b: string;
  p: number;
  /** All 2^k swaps of the k documents the two runs differ on were enumerated (2^k ≤ trials). */
  exact: boolean;
}

export interface BoardSignificance {
  /** Per run (in the order given), its intervals of P, R and F. */
  intervals: Array<Record<(typeof SIGNIFICANCE_FIGURES)[number], Interval>>;
  method: 'approximate randomization';
  trials: number;
  scope: 'all pairs' | 'adjacent';
  pairs: PairP[];
  /** The top run and every run whose p against it is ≥ SIGNIFICANCE_LEVEL. */
  topGroup: string[];
}

/** The pairs compared, as indexes into the ranking (best first). */
export function pairsToCompare(runs: number): { scope: BoardSignificance['scope']; pairs: Array<[number, number]> } {
  const pairs: Array<[number, number]> = [];
  if (runs <= ALL_PAIRS_LIMIT) {
    for (let a = 0; a < runs; a++) for (let b = a + 1; b < runs; b++) pairs.push([a, b]);
    return { scope: 'all pairs', pairs };
  }
  for (let b = 1; b < runs; b++) pairs.push([0, b]);
  for (let a = 1; a + 1 < runs; a++) pairs.push([a, a + 1]);
  return { scope: 'adjacent', pairs };
}

/**
 * Intervals and p-values of `ranked` (best first, the board's order) over `documents`
 * gold documents. `seed` names the data (the same text, the same figures); each pair and
 * the bootstrap draw from their own stream of it, so one pair's p does not depend on which
 * pairs were compared before it.
 */
export function boardSignificance(ranked: readonly RankedCounts[], documents: number, trials: number, seed: string): BoardSignificance {
  const bootstrap = seededRandom(`${seed}\u0000bootstrap`);
  const intervals = bootstrapIntervals(
    ranked.map((r) => r.counts),
    documents,
    trials,
    bootstrap,
  ).map((perFigure) => Object.fromEntries(SIGNIFICANCE_FIGURES.map((f, i) => [f, perFigure[i]])) as BoardSignificance['intervals'][number]);
  const { scope, pairs: indexes } = pairsToCompare(ranked.length);
  const pairs = indexes.map(([a, b]): PairP => {
    const next = seededRandom(`${seed}\u0000${ranked[a].run}\u0000${ranked[b].run}`);
    return { a: ranked[a].run, b: ranked[b].run, ...randomizationP(ranked[a].counts, ranked[b].counts, trials, next) };
  });
  const top = ranked[0]?.run;
  const topGroup = top === undefined ? [] : [top, ...pairs.filter((p) => p.a === top && p.p >= SIGNIFICANCE_LEVEL).map((p) => p.b)];
  return { intervals, method: 'approximate randomization', trials, scope, pairs, topGroup };
}
