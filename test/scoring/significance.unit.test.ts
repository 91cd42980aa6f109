// Bootstrap intervals and approximate randomization (src/scoring/significance.ts) on a case
// small enough to enumerate by hand, and per-document MENTION counts that add up to the
// run's figures.
//
// Three gold documents, two runs; counts as (matched responses, responses, matched gold, gold):
//
//        d1          d2          d3          total        P     R     F
//   A  (2,2,2,2)   (2,2,2,2)   (1,1,1,1)   (5,5,5,5)     1     1     1
//   B  (1,2,1,2)   (0,1,0,2)   (0,0,0,1)   (1,3,1,5)    1/3   1/5   1/4
//
// Observed |ΔF| = 1 − 1/4 = 3/4. The runs differ on all 3 documents: 2^3 = 8 swaps (S: the
// documents whose counts are swapped; a swap and its complement give the same |ΔF|):
//   {} / {1,2,3}:  A (5,5,5,5) F 1;     B (1,3,1,5) F 1/4          |ΔF| = 3/4   ≥ 3/4
//   {1} / {2,3}:   A (4,5,4,5) F 4/5;   B (2,3,2,5) F 1/2          |ΔF| = 3/10
//   {2} / {1,3}:   A (3,4,3,5) F 2/3;   B (3,4,3,5) F 2/3          |ΔF| = 0
//   {3} / {1,2}:   A (4,4,4,5) F 8/9;   B (2,4,2,5) F 4/9          |ΔF| = 4/9
// Exact p = 2/8 = 0.25. Sampled with T trials, (hits + 1)/(T + 1) has mean ≈ 0.25 and standard
// error √(0.25·0.75/T): 0.0043 for T = 10,000, so a tolerance of 0.02 is over 4.5 errors.
//
// Bootstrap: 3^3 = 27 equally likely ordered draws; with multiplicities (w1, w2, w3), B sums to
// (w1, 2w1+w2, w1, 2w1+2w2+w3), so F = 2w1 / (4w1+3w2+w3) (0 when w1 = 0):
//   (3,0,0) 1/27: 1/2   (2,1,0) 3/27: 4/11   (2,0,1) 3/27: 4/9   (1,2,0) 3/27: 1/5
//   (1,0,2) 3/27: 1/3   (1,1,1) 6/27: 1/4    w1 = 0 (4 tuples)  8/27: 0
// F's distribution: P(F = 0) = 8/27 ≈ 0.30 > 0.025, so the 2.5th percentile is 0; P(F ≤ 4/9) =
// 26/27 ≈ 0.963 < 0.975, so the 97.5th is 1/2. Same for P (= w1/(2w1+w2): 1/2 with 7/27) and R
// (= w1/(2w1+2w2+w3): 1/2 with 1/27, ≤ 2/5 with 26/27): B's intervals are all [0, 1/2]. A is right
// on every document: [1, 1]. With T = 10,000 the percentile ranks 250 and 9,749 lie over 6
// standard errors inside those steps (2,963 zeros expected; 9,630 values ≤ 4/9).
import { describe, expect, it } from 'vitest';
import {
  bootstrapIntervals,
  exactRandomizationP,
  figuresOf,
  percentileInterval,
  randomizationP,
  runCountsOf,
  sampledRandomizationP,
  totalsOf,
  type DocumentCounts,
} from '../../src/scoring/significance.ts';
import { boardSignificance, pairsToCompare } from '../../src/scoring/significance-board.ts';
import { hashSeed, mulberry32 } from '../../src/shared/prng.ts';
import { mentionDocumentCounts, scoreMentions, type Mention } from '../../src/scoring/index.ts';

const counts = (...docs: Array<[number, number, number, number]>) => Float64Array.from(docs.flat());
const A = counts([2, 2, 2, 2], [2, 2, 2, 2], [1, 1, 1, 1]);
const B = counts([1, 2, 1, 2], [0, 1, 0, 2], [0, 0, 0, 1]);

describe('approximate randomization', () => {
  it('gives the hand-enumerated exact p', () => {
    expect(figuresOf(totalsOf(A))).toEqual([1, 1, 1]);
    expect(figuresOf(totalsOf(B))).toEqual([1 / 3, 1 / 5, 1 / 4]);
    expect(exactRandomizationP(A, B)).toBe(0.25);
    expect(exactRandomizationP(B, A)).toBe(0.25);
  });

  it('approaches the exact p when sampled', () => {
    const p = sampledRandomizationP(A, B, 10_000, mulberry32(1));
    expect(Math.abs(p - 0.25)).toBeLessThan(0.02);
    // Few trials still give a p in (0, 1]: the observed split counts once (the +1).
    expect(sampledRandomizationP(A, B, 100, mulberry32(2))).toBeGreaterThan(0);
  });

  it('enumerates when 2^k swaps are no more than the trials, and samples otherwise', () => {
    expect(randomizationP(A, B, 8, mulberry32(3))).toEqual({ p: 0.25, exact: true });
    const sampled = randomizationP(A, B, 7, mulberry32(3));
    expect(sampled.exact).toBe(false);
  });

  it('gives p = 1 for identical runs (no document to swap)', () => {
    expect(randomizationP(A, A, 1000, mulberry32(4))).toEqual({ p: 1, exact: true });
  });
});

describe('bootstrap intervals', () => {
  it('gives the hand-enumerated percentiles', () => {
    const [a, b] = bootstrapIntervals([A, B], 3, 10_000, mulberry32(5));
    for (const interval of a) expect(interval).toEqual({ low: 1, high: 1 });
    for (const interval of b) expect(interval).toEqual({ low: 0, high: 0.5 });
  });

  it('takes the sorted values at ranks ⌊0.025·T⌋ and ⌈0.975·T⌉ − 1', () => {
    const values = Float64Array.from({ length: 1000 }, (_, i) => 999 - i);
    expect(percentileInterval(values)).toEqual({ low: 25, high: 974 });
  });
});

describe('a board', () => {
  it('compares every pair up to 20 runs, adjacent ones and the top against all above', () => {
    expect(pairsToCompare(3)).toEqual({
      scope: 'all pairs',
      pairs: [
        [0, 1],
        [0, 2],
        [1, 2],
      ],
    });
    const wide = pairsToCompare(22);
    expect(wide.scope).toBe('adjacent');
    expect(wide.pairs).toHaveLength(21 + 20);
  });

  it('above 20 runs, finds the top group from the top against every run', () => {
    // 21 runs equal to A (p = 1 against it: nothing to swap) and one equal to B (exact p 0.25): all in the top group.
    const ranked = [...Array.from({ length: 21 }, (_, i) => ({ run: `A${i}`, counts: A })), { run: 'B', counts: B }];
    const board = boardSignificance(ranked, 3, 100, 'wide');
    expect(board.scope).toBe('adjacent');
    expect(board.pairs).toHaveLength(21 + 20);
    expect(board.pairs.find((p) => p.a === 'A0' && p.b === 'B')).toEqual({ a: 'A0', b: 'B', p: 0.25, exact: true });
    expect(board.topGroup).toEqual(ranked.map((r) => r.run));
  });

  it('is the same for the same seed, and groups runs not different from the top', () => {
    const ranked = [
      { run: 'A', counts: A },
      { run: 'B', counts: B },
      { run: 'A2', counts: A },
    ];
    const one = boardSignificance(ranked, 3, 1000, 'seed');
    expect(boardSignificance(ranked, 3, 1000, 'seed')).toEqual(one);
    // 8 ≤ 1000 swaps: exact. A vs B: p = 0.25 ≥ 0.05, so B is in the top group with A2.
    expect(one.pairs).toEqual([
      { a: 'A', b: 'B', p: 0.25, exact: true },
      { a: 'A', b: 'A2', p: 1, exact: true },
      { a: 'B', b: 'A2', p: 0.25, exact: true },
    ]);
    expect(one.topGroup).toEqual(['A', 'B', 'A2']);
    expect(hashSeed('seed')).toBe(hashSeed('seed'));
    expect(hashSeed('seed')).not.toBe(hashSeed('seee'));
  });

  it('leaves out of the top group a run significantly below it', () => {
    // 12 documents where A is right and B wrong: the exact p is 2/4096 (only the identity and the full swap).
    const good = Float64Array.from(Array.from({ length: 12 }, () => [1, 1, 1, 1]).flat());
    const bad = Float64Array.from(Array.from({ length: 12 }, () => [0, 1, 0, 1]).flat());
    const board = boardSignificance(
      [
        { run: 'good', counts: good },
        { run: 'bad', counts: bad },
      ],
      12,
      10_000,
      's',
    );
    expect(board.pairs[0]).toEqual({ a: 'good', b: 'bad', p: 2 / 4096, exact: true });
    expect(board.topGroup).toEqual(['good']);
  });
});

describe('MENTION per-document counts', () => {
  const m = (doc: string, start: number, end: number, type = 'Gene'): Mention => ({ doc, start, end, type });
  const gold = [m('d1', 0, 4), m('d1', 10, 14), m('d2', 0, 3), m('d3', 5, 9)];
  const run = [m('d1', 0, 4), m('d1', 20, 24), m('d2', 0, 3, 'Chemical'), m('d2', 0, 3)];

  it('sum to the strict overall counts', () => {
    const byDoc = mentionDocumentCounts(gold, run);
    expect(Object.fromEntries(byDoc)).toEqual({
      d1: { matchedResponses: 1, responses: 2, matchedGold: 1, gold: 2 },
      d2: { matchedResponses: 1, responses: 2, matchedGold: 1, gold: 1 },
      d3: { matchedResponses: 0, responses: 0, matchedGold: 0, gold: 1 },
    });
    const [p, r, f] = figuresOf(totalsOf(runCountsOf(['d1', 'd2', 'd3', 'd4'], byDoc)));
    const whole = scoreMentions(gold, run).strict;
    expect([p, r, f]).toEqual([whole.p, whole.r, whole.f]);
  });

  it('take the single-class mode', () => {
    const byDoc = mentionDocumentCounts(gold, run, { singleClass: true });
    expect(byDoc.get('d2')).toEqual<DocumentCounts>({ matchedResponses: 2, responses: 2, matchedGold: 1, gold: 1 });
  });
});
