// The LitCovid track's evaluation rules, one hand-computed example each (src/scoring/topic.ts;
// README.md, "TOPIC: the official script's rules").

import { describe, expect, it } from 'vitest';
import { ScoringInputError } from '../../src/scoring/index.ts';
import { numpyMean, numpyRound, officialReport, pythonFixed, readTopics, scoreTopics, type TopicSet } from '../../src/scoring/topic.ts';

const LABELS = ['A', 'B', 'C'];
const gold = (text: string) => readTopics(text, { role: 'gold', labels: LABELS, file: 'gold.csv' });
const run = (text: string) => readTopics(text, { role: 'run', labels: LABELS, file: 'pred.csv' });
const lines = (...rows: string[]) => rows.join('\n') + '\n';

// d1 {A,B}, d2 {A}, d3 {}, d4 {C}; predicted (above 0.5): d1 {A} (B at exactly 0.5 is not), d2 {A,B}, d3 {}, d4 {A}.
const GOLD = gold(lines('PMID,A,B,C', 'd1,1,1,0', 'd2,1,0,0', 'd3,0,0,0', 'd4,0,0,1'));
const RUN = run(lines('PMID,A,B,C', 'd4,0.51,0.1,0.2', 'd3,0.1,0.2,0.3', 'd2,0.7,0.6,0', 'd1,0.9,0.5,0.2'));

describe('TOPIC scoring, the script rules', () => {
  const score = scoreTopics(GOLD, RUN, { missing: 'refuse' });

  it('predicts a label when its probability is above 0.5, not at it (preds > threshold)', () => {
    expect([...RUN.docs.get('d1')!.labels]).toEqual(['A']);
    expect(RUN.docs.get('d1')!.confidence!.get('B')).toBe(0.5);
  });

  it('scores each label from its counts; a label never predicted has P 0, one never right F 0 (zero_division "warn" → 0)', () => {
    // A: 2 right of 3 predicted, 2 gold → P 2/3, R 1, F 2·(2/3)·1 / (5/3) = 0.8.
    expect(score.perLabel.A).toEqual({ p: 2 / 3, r: 1, f: (2 * (2 / 3) * 1) / (2 / 3 + 1), support: 2 });
    expect(score.perLabel.A.f).toBeCloseTo(0.8, 15);
    // B: predicted once (d2), wrong; C: never predicted.
    expect(score.perLabel.B).toEqual({ p: 0, r: 0, f: 0, support: 1 });
    expect(score.perLabel.C).toEqual({ p: 0, r: 0, f: 0, support: 1 });
  });

  it('micro-averages over pooled counts: 2 right of 4 predicted, 4 gold', () => {
    expect(score.micro).toEqual({ p: 0.5, r: 0.5, f: 0.5 });
    expect(score.support).toBe(4);
  });

  it('macro-averages every label column, the zeros of labels nobody got included', () => {
    expect(score.macro.p).toBeCloseTo(2 / 9, 15);
    expect(score.macro.r).toBeCloseTo(1 / 3, 15);
    expect(score.macro.f).toBeCloseTo(0.8 / 3, 15);
  });

  it('weights by support (2, 1, 1) for the weighted average', () => {
    expect(score.weighted.p).toBeCloseTo(1 / 3, 15);
    expect(score.weighted.r).toBe(0.5);
    expect(score.weighted.f).toBeCloseTo(0.4, 15);
  });

  it("averages per document for sklearn's samples average, where nothing in gold or prediction scores 0", () => {
    // d1 (1, 0.5, 2/3), d2 (0.5, 1, 2/3), d3 (0, 0, 0), d4 (0, 0, 0).
    expect(score.samples.p).toBe(0.375);
    expect(score.samples.r).toBe(0.375);
    expect(score.samples.f).toBeCloseTo(1 / 3, 15);
  });

  it("counts nothing in gold or prediction as P = R = 1 in the script's instance-based measures", () => {
    // d1 (1, 0.5), d2 (0.5, 1), d3 (1, 1), d4 (0, 0): means 0.625, F 0.625.
    expect(score.instance).toEqual({ p: 0.625, r: 0.625, f: 0.625 });
    expect(score.samples.p).not.toBe(score.instance.p);
  });

  it('rounds the instance means to 4 digits first and takes F1 of the rounded means, rounded again', () => {
    const g = gold(lines('PMID,A,B,C', '1,1,0,0', '2,1,1,1', '3,0,1,0'));
    const r = run(lines('PMID,A,B,C', '1,1,1,0', '2,1,0,0', '3,0,0,1'));
    // P: 0.5, 1, 0 → 0.5; R: 1, 1/3, 0 → 0.4444…, rounded 0.4444; F = 2·0.5·0.4444 / 0.9444 = 0.470563… → 0.4706.
    const { instance } = scoreTopics(g, r, { missing: 'refuse' });
    expect(instance.p).toBe(0.5);
    expect(instance.r).toBe(0.4444);
    expect(instance.f).toBe(0.4706);
  });

  it('gives instance F1 0 where the script divides 0 by 0 (it prints nan)', () => {
    const g = gold(lines('PMID,A,B,C', '1,1,0,0'));
    const r = run(lines('PMID,A,B,C', '1,0,0.9,0'));
    expect(scoreTopics(g, r, { missing: 'refuse' }).instance).toEqual({ p: 0, r: 0, f: 0 });
  });

  it("refuses a run without the gold standard's PMIDs, as the script does, naming them", () => {
    const partial = run(lines('PMID,A,B,C', 'd1,1,0,0', 'd2,1,0,0', 'd9,0,0,0'));
    const refusal = (() => {
      try {
        scoreTopics(GOLD, partial, { missing: 'refuse', runFile: 'pred.csv' });
      } catch (error) {
        return error as ScoringInputError;
      }
      throw new Error('not refused');
    })();
    expect(refusal).toBeInstanceOf(ScoringInputError);
    expect(refusal.message).toContain('2 gold PMIDs missing (d3, d4)');
    expect(refusal.message).toContain('1 PMID not in the gold standard (d9)');
  });

  it("scores a missing document as predicting no label for online runs ('none'), counting it", () => {
    const partial = run(lines('PMID,A,B,C', 'd1,0.9,0.5,0.2', 'd2,0.7,0.6,0', 'd3,0.1,0.2,0.3'));
    const s = scoreTopics(GOLD, partial, { missing: 'none' });
    expect(s.missing).toBe(1);
    // d4 predicts nothing: A's third prediction is gone → P 1, R 1.
    expect(s.perLabel.A).toMatchObject({ p: 1, r: 1 });
    expect(s.instance).toEqual({ p: 0.625, r: 0.625, f: 0.625 });
  });

  it("refuses a run whose header is not the gold standard's", () => {
    const other = run(lines('PMID,B,A,C', 'd1,1,0,0', 'd2,1,0,0', 'd3,0,0,0', 'd4,0,0,0'));
    expect(() => scoreTopics(GOLD, other, { missing: 'refuse', runFile: 'pred.csv' })).toThrow(
      'pred.csv, line 1: the header must be PMID,A,B,C',
    );
  });
});

describe('TOPIC files', () => {
  it('reads the list form PMID,label;label (with or without its header, comma or TAB) as the wide form', () => {
    const list = gold(lines('PMID,label', 'd1,A;B', 'd2,A', 'd3,', 'd4,C'));
    const tsv = gold(lines('d1\tB;A', 'd2\tA', 'd3\t', 'd4\tC'));
    for (const set of [list, tsv]) {
      expect(set.labels).toEqual(LABELS);
      expect(scoreTopics(GOLD, asRun(set), { missing: 'refuse' }).micro).toEqual({ p: 1, r: 1, f: 1 });
    }
  });

  it('refuses unknown labels, a label twice, a PMID twice and a gold cell other than 0/1, with file and line', () => {
    expect(() => gold(lines('d1,A;D'))).toThrow('gold.csv, line 1: unknown label "D" (the labels are A, B, C)');
    expect(() => gold(lines('d1,A;A'))).toThrow('gold.csv, line 1: "A" is given twice');
    expect(() => gold(lines('PMID,A,B,C', 'd1,1,0,0', 'd1,0,0,0'))).toThrow('gold.csv, line 3: PMID d1 is given twice (first on line 2)');
    expect(() => gold(lines('PMID,A,B,C', 'd1,1,0,0.7'))).toThrow('gold.csv, line 2: "C" is "0.7", not 0 or 1');
    expect(() => run(lines('PMID,A,B,C', 'd1,1,0,high'))).toThrow('pred.csv, line 2: "C" is "high", not a number');
  });

  it("takes a wide file's label set from its header", () => {
    expect(gold(lines('PMID,X,"Y, quoted"', '1,0,1')).labels).toEqual(['X', 'Y, quoted']);
  });
});

describe("numpy's and Python's arithmetic, as the script's figures come out of them", () => {
  it('sums pairwise as np.mean does (blocks of 8), not left to right', () => {
    const values = Array.from({ length: 20 }, (_, i) => [0.1, 0.7, 1 / 3][i % 3]);
    const leftToRight = values.reduce((a, b) => a + b, 0) / values.length;
    // Worked out with numpy: np.mean of this list is 0.38; left to right gives 0.37999999999999995.
    expect(numpyMean(values)).toBe(0.38);
    expect(leftToRight).toBe(0.37999999999999995);
  });

  it("rounds as numpy: x·10⁴ to even, so 0.12345 → 0.1234 where Python's round gives 0.1235", () => {
    expect(numpyRound(0.12345, 4)).toBe(0.1234);
    expect(numpyRound(0.03125, 4)).toBe(0.0312);
    expect(numpyRound(0.00015, 4)).toBe(0.0001);
  });

  it("prints as Python's '.4f': an exact tie to even (0.03125 → 0.0312), unlike toFixed", () => {
    expect(pythonFixed(0.03125, 4)).toBe('0.0312');
    expect((0.03125).toFixed(4)).toBe('0.0313');
    expect(pythonFixed(0.09375, 4)).toBe('0.0938');
    expect(pythonFixed(0.12345, 4)).toBe('0.1235');
  });

  it('lays the report out as classification_report(digits=4) does', () => {
    const report = officialReport(scoreTopics(GOLD, RUN, { missing: 'refuse' }), LABELS);
    expect(report.split('\n').slice(0, 7)).toEqual([
      '              precision    recall  f1-score   support',
      '',
      '           A     0.6667    1.0000    0.8000         2',
      '           B     0.0000    0.0000    0.0000         1',
      '           C     0.0000    0.0000    0.0000         1',
      '',
      '   micro avg     0.5000    0.5000    0.5000         4',
    ]);
  });
});

function asRun(set: TopicSet): TopicSet {
  return { ...set, docs: new Map([...set.docs].map(([id, doc]) => [id, { ...doc }])) };
}
