import { describe, expect, it } from 'vitest';
import { scoreActRun } from '../../src/scoring/act.ts';
import { parseActGold, parseActRun } from '../../src/scoring/bc2-input.ts';
import { orderActEntries } from '../../src/scoring/ranking.ts';
import type { ActEntry } from '../../src/scoring/types.ts';

const tsv = (...lines: string[]) => lines.map((line) => line.replace(/ \| /g, '\t')).join('\n') + '\n';

// Ten documents whose gold labels, in the run's ACT order, read T F F F T F F T F F.
const gold = parseActGold(
  tsv('d01 | 1', 'd02 | 0', 'd03 | 0', 'd04 | 0', 'd05 | 1', 'd06 | 0', 'd07 | 0', 'd08 | 1', 'd09 | 0', 'd10 | 0'),
).value;

// Predicted trues d01–d04 by rank ascending; predicted falses by rank DEScending, so
// d05 (false rank 6) comes right after the trues and d10 (false rank 1) last.
const runLines = [
  'd01 | 1 | 1 | 0.9',
  'd02 | 1 | 2 | 0.8',
  'd03 | 1 | 3 | 0.7',
  'd04 | 1 | 4 | 0.6',
  'd05 | 0 | 6 | 0.5',
  'd06 | 0 | 5 | 0.5',
  'd07 | 0 | 4 | 0.5',
  'd08 | 0 | 3 | 0.5',
  'd09 | 0 | 2 | 0.5',
  'd10 | 0 | 1 | 0.5',
];

describe('ACT ordering', () => {
  const entry = (doc: string, relevant: boolean, confidence: number, line: number, rank?: number): ActEntry => ({
    doc,
    relevant,
    confidence,
    line,
    rank,
  });
  const entries = [
    entry('e3', false, 0.9, 1, 1),
    entry('e5', false, 0.2, 2, 3),
    entry('e1', true, 0.9, 3, 2),
    entry('e4', false, 0.2, 4, 2),
    entry('e2', true, 0.9, 5, 1),
  ];

  it('by confidence: trues descending, then falses ascending; ties by id ascending in both', () => {
    expect(orderActEntries(entries, 'confidence').map((e) => e.doc)).toEqual(['e1', 'e2', 'e4', 'e5', 'e3']);
  });

  it('by rank: trues ascending, then falses descending', () => {
    expect(orderActEntries(entries, 'rank').map((e) => e.doc)).toEqual(['e2', 'e1', 'e5', 'e4', 'e3']);
  });

  it('by line: trues in line order, then falses in reverse line order', () => {
    expect(orderActEntries(entries, 'line').map((e) => e.doc)).toEqual(['e1', 'e2', 'e4', 'e5', 'e3']);
  });
});

describe('ACT scoring', () => {
  it('scores the ranking example and the confusion matrix', () => {
    const score = scoreActRun(gold, parseActRun(tsv(...runLines)).value, 'rank');
    expect(score.aucIPR).toBeCloseTo(0.591667, 6);
    expect(score.pAtFullR).toBeCloseTo(0.375, 9);
    // Trues d01 (TP), d02–d04 (FP); falses d05, d08 (FN), the rest TN.
    expect([score.tp, score.fp, score.fn, score.tn]).toEqual([1, 3, 2, 4]);
    expect(score.accuracy).toBeCloseTo(0.5, 9);
    expect(score.sensitivity).toBeCloseTo(1 / 3, 9);
    expect(score.specificity).toBeCloseTo(4 / 7, 9);
    expect(score.mcc).toBeCloseTo(-2 / Math.sqrt(504), 9);
  });

  it('reaches the MCC example TP, FP, FN, TN = 2, 2, 1, 5', () => {
    // Predict d01, d05 (gold true) and d02, d03 (gold false) as true: 2 TP, 2 FP, 1 FN (d08), 5 TN.
    const predicted = new Set(['d01', 'd05', 'd02', 'd03']);
    const lines = [...gold.keys()].map((doc, i) => `${doc} | ${predicted.has(doc) ? 1 : 0} | ${i + 1} | 0.5`);
    const score = scoreActRun(gold, parseActRun(tsv(...lines)).value, 'rank');
    expect([score.tp, score.fp, score.fn, score.tn]).toEqual([2, 2, 1, 5]);
    expect(score.mcc).toBeCloseTo(0.356348, 6);
  });

  it('ignores documents absent from the gold; a missing positive leaves P at full R undefined', () => {
    const lines = runLines.filter((line) => !line.startsWith('d08')).concat('zz | 1 | 9 | 0.5');
    const score = scoreActRun(gold, parseActRun(tsv(...lines)).value, 'rank');
    expect(score.pAtFullR).toBeNull();
    // d08 is neither FN nor TN now; zz counts nowhere.
    expect([score.tp, score.fp, score.fn, score.tn]).toEqual([1, 3, 1, 4]);
    // The walk still divides recall by all 3 positives: (1 + 2/5)/3.
    expect(score.aucIPR).toBeCloseTo((1 + 2 / 5) / 3, 9);
  });

  it('orders by confidence or line order when told to', () => {
    const confidenceOnly = runLines.map((line, i) => {
      const [doc, label] = line.split(' | ');
      // Trues by descending confidence, falses by ascending confidence: same order as above.
      const confidence = label === '1' ? 0.9 - i * 0.1 : 0.1 + (i - 4) * 0.1;
      return `${doc} | ${label} | ${confidence.toFixed(2)}`;
    });
    const byConfidence = scoreActRun(gold, parseActRun(tsv(...confidenceOnly), { columns: 'confidence' }).value, 'confidence');
    expect(byConfidence.aucIPR).toBeCloseTo(0.591667, 6);
    // Line order: falses reversed, so list them d10 … d05 to walk d05 first.
    const lineOrder = [...runLines.slice(0, 4), ...runLines.slice(4).reverse()].map((l) => l.split(' | ').slice(0, 2).join(' | '));
    const byLine = scoreActRun(gold, parseActRun(tsv(...lineOrder), { columns: 'order' }).value, 'line');
    expect(byLine.aucIPR).toBeCloseTo(0.591667, 6);
    expect(byLine.pAtFullR).toBeCloseTo(0.375, 9);
  });
});
