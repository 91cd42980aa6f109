import { describe, expect, it } from 'vitest';
import {
  aucIPR,
  f1,
  fBeta,
  mcc,
  mean,
  populationSd,
  precisionAtFullRecall,
  prfFromCounts,
  type PrPoint,
} from '../../src/scoring/metrics.ts';
import { scoreActRanking } from '../../src/scoring/act.ts';

/** (P, R) after each item of a list of hits, FN starting at `goldCount`. */
function walk(hits: boolean[], goldCount: number): PrPoint[] {
  let tp = 0;
  return hits.map((hit, i) => {
    if (hit) tp++;
    return { p: tp / (i + 1), r: tp / goldCount };
  });
}

describe('AUC iP/R', () => {
  it('reproduces the bc-evaluate ranking example T F F F T F F T F F with 3 positives', () => {
    const labels = 'T F F F T F F T F F'.split(' ').map((l) => l === 'T');
    const points = walk(labels, 3);
    expect(aucIPR(points)).toBeCloseTo((1 + 2 / 5 + 3 / 8) / 3, 9);
    expect(aucIPR(points)).toBeCloseTo(0.591667, 6);
    expect(precisionAtFullRecall(points)).toBeCloseTo(0.375, 9);
    const ranking = scoreActRanking(labels, 3);
    expect(ranking.aucIPR).toBeCloseTo(0.591667, 6);
    expect(ranking.pAtFullR).toBeCloseTo(0.375, 9);
  });

  it('drops a recall level whose precision does not beat a higher recall level', () => {
    // A, B(miss), C, D for gold {A, C, D}: the 2/3-recall point (P 2/3) is dominated by
    // the full-recall point (P 3/4), so the area is 1·1/3 + 3/4·2/3.
    const points = walk([true, false, true, true], 3);
    expect(aucIPR(points)).toBeCloseTo(1 / 3 + 0.5, 9);
  });

  it('adds nothing at recall 0, does not extrapolate to recall 1, and accepts unsorted points', () => {
    expect(
      aucIPR([
        { p: 0, r: 0 },
        { p: 0, r: 0 },
      ]),
    ).toBe(0);
    expect(aucIPR([])).toBe(0);
    // Only half the gold found: area stops at recall 0.5.
    expect(aucIPR(walk([false, true], 2))).toBeCloseTo(0.25, 9);
    expect(
      aucIPR([
        { p: 0.5, r: 1 },
        { p: 1, r: 0.5 },
      ]),
    ).toBeCloseTo(0.5 + 0.25, 9);
    expect(precisionAtFullRecall(walk([false, true], 2))).toBeNull();
  });

  it('keeps the best precision recorded at one recall value', () => {
    // Recall 1/2 reached with P 1 then P 1/2: the interpolation uses 1.
    expect(aucIPR(walk([true, false, false, true], 2))).toBeCloseTo(0.5 + 0.5 * 0.5, 9);
  });
});

describe('counting metrics', () => {
  it('computes MCC for TP, FP, FN, TN = 2, 2, 1, 5', () => {
    expect(mcc(2, 2, 1, 5)).toBeCloseTo(8 / Math.sqrt(504), 12);
    expect(mcc(2, 2, 1, 5)).toBeCloseTo(0.356348, 6);
  });

  it('gives 0 for MCC with an empty marginal and for divisions by zero', () => {
    expect(mcc(3, 0, 0, 0)).toBe(0);
    expect(prfFromCounts(0, 0, 0)).toEqual({ p: 0, r: 0, f: 0 });
    expect(f1(0, 0)).toBe(0);
  });

  it('computes F-beta, which equals F1 at beta 1 and leans to recall for beta 10', () => {
    expect(fBeta(0.5, 1, 1)).toBeCloseTo(f1(0.5, 1), 12);
    // (1+100)·0.1·0.9 / (100·0.1 + 0.9) = 9.09 / 10.9
    expect(fBeta(0.1, 0.9, 10)).toBeCloseTo(9.09 / 10.9, 12);
    expect(fBeta(0, 0, 10)).toBe(0);
  });

  it('computes mean and population standard deviation', () => {
    expect(mean([1, 2, 3, 4])).toBeCloseTo(2.5, 12);
    // Population SD of 1..4 divides by 4: sqrt(1.25).
    expect(populationSd([1, 2, 3, 4])).toBeCloseTo(Math.sqrt(1.25), 12);
    expect(mean([])).toBe(0);
    expect(populationSd([])).toBe(0);
  });
});
