// Significance of a leaderboard's differences, pure: per-document counts in, intervals and
// p-values out. Both methods resample documents, the unit a gold standard is drawn in:
//
// - Bootstrap (95% percentile interval): each trial draws the gold's n documents with
//   replacement (one draw shared by every run, so the intervals are of the same resamples),
//   sums each run's counts over the drawn documents (micro-average) and computes P, R, F
//   from the sums. The interval is the 2.5th and 97.5th percentiles of the trials' figures
//   (sorted values at ranks ⌊0.025·T⌋ and ⌈0.975·T⌉−1, 0-based: 25 and 974 for 1,000 trials).
// - Approximate randomization (Noreen 1989; as Padó's sigf and the art.py scripts do it):
//   each trial swaps the two runs' counts of each document with probability 1/2 and
//   recomputes the F difference; p = (trials with |diff| ≥ |observed diff| + 1) / (trials + 1).
//   Documents where both runs have the same counts change nothing when swapped, so only the
//   k documents where they differ are drawn; when 2^k ≤ trials the 2^k swaps are enumerated
//   and p is exact (the share of all swaps at least as far apart, the identity among them).
//
// Counts are those of a micro-averaged P/R/F: responses and how many of them matched, gold
// items and how many of them were matched (two matched counts, as MENTION keeps them: with
// nested spans the two sides may differ). A family with plain tp/fp/fn gives
// matchedResponses = matchedGold = tp, responses = tp + fp, gold = tp + fn.
import { f1, safeRatio } from './metrics.ts';

/** One document's counts for a run's main figures. */
export interface DocumentCounts {
  matchedResponses: number;
  responses: number;
  matchedGold: number;
  gold: number;
}

/** The figures an interval is given for, in the order `figuresOf` returns them. */
export const SIGNIFICANCE_FIGURES = ['p', 'r', 'f'] as const;

/** A run's counts, document by document in the gold's order: four numbers per document (the fields of DocumentCounts, in order). */
export type RunCounts = Float64Array;

const FIELDS = 4;

/** A run's counts as the dense form the trials read: a gold document the run has no count for is all zeros. */
export function runCountsOf(documents: readonly string[], byDocument: ReadonlyMap<string, DocumentCounts>): RunCounts {
  const counts = new Float64Array(documents.length * FIELDS);
  documents.forEach((doc, i) => {
    const c = byDocument.get(doc);
    if (!c) return;
    counts.set([c.matchedResponses, c.responses, c.matchedGold, c.gold], i * FIELDS);
  });
  return counts;
}

/** Micro P, R, F of summed counts (the scoring library's ratios: 0 when a denominator is 0). */
export function figuresOf(sum: ArrayLike<number>): [number, number, number] {
  const p = safeRatio(sum[0], sum[1]);
  const r = safeRatio(sum[2], sum[3]);
  return [p, r, f1(p, r)];
}

/** The counts summed over every document. */
export function totalsOf(counts: RunCounts): Float64Array {
  const sum = new Float64Array(FIELDS);
  for (let i = 0; i < counts.length; i++) sum[i % FIELDS] += counts[i];
  return sum;
}

// ── bootstrap ──────────────────────────────────────────────────────────────────────────

export interface Interval {
  low: number;
  high: number;
}

/** The percentile interval of a trial's values (sorted in place). */
export function percentileInterval(values: Float64Array): Interval {
  values.sort();
  const n = values.length;
  return { low: values[Math.floor(0.025 * n)], high: values[Math.ceil(0.975 * n) - 1] };
}

/**
 * Each run's 95% intervals of P, R and F (in SIGNIFICANCE_FIGURES order) from `trials`
 * resamples of the documents with replacement, drawn from `random` (a seeded generator, src/shared/prng.ts).
 */
export function bootstrapIntervals(runs: readonly RunCounts[], documents: number, trials: number, random: () => number): Interval[][] {
  const values = runs.map(() => SIGNIFICANCE_FIGURES.map(() => new Float64Array(trials)));
  const weight = new Int32Array(documents);
  const sum = new Float64Array(FIELDS);
  for (let t = 0; t < trials; t++) {
    weight.fill(0);
    // n draws of a document (a bias below n / 2^32: the generator's floats are 32-bit).
    for (let i = 0; i < documents; i++) weight[Math.floor(random() * documents)]++;
    runs.forEach((counts, r) => {
      sum.fill(0);
      for (let d = 0; d < documents; d++) {
        const w = weight[d];
        if (w === 0) continue;
        const at = d * FIELDS;
        sum[0] += w * counts[at];
        sum[1] += w * counts[at + 1];
        sum[2] += w * counts[at + 2];
        sum[3] += w * counts[at + 3];
      }
      const figures = figuresOf(sum);
      for (let f = 0; f < figures.length; f++) values[r][f][t] = figures[f];
    });
  }
  return values.map((perFigure) => perFigure.map(percentileInterval));
}

// ── approximate randomization ──────────────────────────────────────────────────────────

/** A difference counts as "at least as far" within this much: F of equal sums is equal, of swapped sums its negation, up to rounding. */
const SAME = 1e-12;

/** The documents where two runs' counts differ, as their count deltas (b − a), four per document. */
function differences(a: RunCounts, b: RunCounts): Float64Array {
  const deltas: number[] = [];
  for (let at = 0; at < a.length; at += FIELDS) {
    if (a[at] === b[at] && a[at + 1] === b[at + 1] && a[at + 2] === b[at + 2] && a[at + 3] === b[at + 3]) continue;
    for (let f = 0; f < FIELDS; f++) deltas.push(b[at + f] - a[at + f]);
  }
  return Float64Array.from(deltas);
}

/** What a pair's trials start from: both runs' totals, the documents that differ, the observed |ΔF|. */
interface PairSetup {
  totalA: Float64Array;
  totalB: Float64Array;
  deltas: Float64Array;
  observed: number;
}

function pairSetup(a: RunCounts, b: RunCounts): PairSetup {
  const totalA = totalsOf(a);
  const totalB = totalsOf(b);
  return { totalA, totalB, deltas: differences(a, b), observed: Math.abs(figuresOf(totalA)[2] - figuresOf(totalB)[2]) };
}

/** |ΔF| once the documents whose bit is set in `swapped(i)` have been swapped. */
function swappedDifference(s: PairSetup, swapped: (i: number) => boolean, sumA: Float64Array, sumB: Float64Array): number {
  sumA.set(s.totalA);
  sumB.set(s.totalB);
  for (let i = 0, at = 0; at < s.deltas.length; i++, at += FIELDS) {
    if (!swapped(i)) continue;
    for (let f = 0; f < FIELDS; f++) {
      sumA[f] += s.deltas[at + f];
      sumB[f] -= s.deltas[at + f];
    }
  }
  return Math.abs(figuresOf(sumA)[2] - figuresOf(sumB)[2]);
}

/** F of sums held as four numbers (figuresOf without an array: the trials' inner loop). */
function fOf(matchedResponses: number, responses: number, matchedGold: number, gold: number): number {
  return f1(safeRatio(matchedResponses, responses), safeRatio(matchedGold, gold));
}

/** p of the F difference between two runs from `trials` random swaps (one bit of a `random` draw per document). */
export function sampledRandomizationP(a: RunCounts, b: RunCounts, trials: number, random: () => number): number {
  const { totalA, totalB, deltas, observed } = pairSetup(a, b);
  let atLeast = 0;
  for (let t = 0; t < trials; t++) {
    // The swapped documents move their delta from one side to the other: A gains it, B loses it.
    let m = 0;
    let r = 0;
    let g = 0;
    let n = 0;
    let bits = 0;
    for (let i = 0, at = 0; at < deltas.length; i++, at += FIELDS) {
      if ((i & 31) === 0) bits = (random() * 0x1_0000_0000) >>> 0; // the draw's 32 bits, one coin each
      if (((bits >>> (i & 31)) & 1) === 0) continue;
      m += deltas[at];
      r += deltas[at + 1];
      g += deltas[at + 2];
      n += deltas[at + 3];
    }
    const fA = fOf(totalA[0] + m, totalA[1] + r, totalA[2] + g, totalA[3] + n);
    const fB = fOf(totalB[0] - m, totalB[1] - r, totalB[2] - g, totalB[3] - n);
    if (Math.abs(fA - fB) >= observed - SAME) atLeast++;
  }
  return (atLeast + 1) / (trials + 1);
}

/** The exact p: the share of all 2^k swaps of the k differing documents whose |ΔF| is at least the observed one. */
export function exactRandomizationP(a: RunCounts, b: RunCounts): number {
  const s = pairSetup(a, b);
  const k = s.deltas.length / FIELDS;
  if (k > 30) throw new RangeError(`exact randomization enumerates 2^${k} swaps; sample instead`);
  const sumA = new Float64Array(FIELDS);
  const sumB = new Float64Array(FIELDS);
  let atLeast = 0;
  for (let mask = 0; mask < 2 ** k; mask++) {
    if (swappedDifference(s, (i) => Math.floor(mask / 2 ** i) % 2 === 1, sumA, sumB) >= s.observed - SAME) atLeast++;
  }
  return atLeast / 2 ** k;
}

/** How many documents two runs differ on (the swaps that matter). */
function differingDocuments(a: RunCounts, b: RunCounts): number {
  return differences(a, b).length / FIELDS;
}

/** The p of a pair: exact when its 2^k swaps are no more than `trials`, sampled otherwise. */
export function randomizationP(a: RunCounts, b: RunCounts, trials: number, random: () => number): { p: number; exact: boolean } {
  const k = differingDocuments(a, b);
  return k <= 30 && 2 ** k <= trials
    ? { p: exactRandomizationP(a, b), exact: true }
    : { p: sampledRandomizationP(a, b, trials, random), exact: false };
}
