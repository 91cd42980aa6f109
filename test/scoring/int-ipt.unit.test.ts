import { describe, expect, it } from 'vitest';
import { parseIntGold, parseIntRun, parseIptGold, parseIptRun } from '../../src/scoring/bc2-input.ts';
import { ScoringInputError } from '../../src/scoring/errors.ts';
import { scoreRankedRun } from '../../src/scoring/int-ipt.ts';

const tsv = (...lines: string[]) => lines.map((line) => line.replace(/ \| /g, '\t')).join('\n') + '\n';
/** An INT run in line order: doc → accessions. */
const intRun = (docs: Record<string, string[]>) =>
  parseIntRun(tsv(...Object.entries(docs).flatMap(([doc, accs]) => accs.map((acc) => `${doc} | ${acc}`))), { columns: 'order' });
const intGold = (docs: Record<string, string[]>) =>
  parseIntGold(tsv(...Object.entries(docs).flatMap(([doc, accs]) => accs.map((acc) => `${doc} | ${acc}`))));

describe('INT per document', () => {
  const gold = intGold({ d1: ['A', 'C', 'D'] });
  const run = intRun({ d1: ['A', 'B', 'C', 'D'] });

  it('reproduces the spec example: [A, B, C, D] for gold {A, C, D} at cutoff 3', () => {
    const score = scoreRankedRun(gold, run, { task: 'INT', mode: 'line', cutoff: 3 });
    expect([score.tp, score.fp, score.fn]).toEqual([2, 1, 1]);
    expect(score.macro.p).toBeCloseTo(2 / 3, 9);
    expect(score.macro.r).toBeCloseTo(2 / 3, 9);
    expect(score.macro.f).toBeCloseTo(2 / 3, 9);
    expect(score.macro.aucIPR).toBeCloseTo(0.555556, 6);
    expect(score.micro.aucIPR).toBeCloseTo(1 / 3 + 2 / 9, 9);
    expect(score.evaluatedDocs).toBe(1);
  });

  it('without a cutoff the full list counts', () => {
    const score = scoreRankedRun(gold, run, { task: 'INT', mode: 'line' });
    expect([score.tp, score.fp, score.fn]).toEqual([3, 1, 0]);
    expect(score.macro.f).toBeCloseTo(6 / 7, 9);
    expect(score.macro.aucIPR).toBeCloseTo(1 / 3 + (3 / 4) * (2 / 3), 9);
  });
});

describe('INT ordering by the column layout', () => {
  const gold = intGold({ d1: ['A'] });

  it('confidence descending, ties broken by accession ascending', () => {
    const run = parseIntRun(tsv('d1 | X | 0.5', 'd1 | A | 0.5', 'd1 | B | 0.9'), { columns: 'confidence' });
    // Order B, A, X: the hit comes second.
    const score = scoreRankedRun(gold, run, { task: 'INT', mode: 'confidence', cutoff: 2 });
    expect(score.macro.p).toBeCloseTo(0.5, 9);
    expect(score.macro.aucIPR).toBeCloseTo(0.5, 9);
    const cutAtOne = scoreRankedRun(gold, run, { task: 'INT', mode: 'confidence', cutoff: 1 });
    expect(cutAtOne.tp).toBe(0);
  });

  it('rank ascending with gaps; ranks win over confidences when both are given', () => {
    const run = parseIntRun(tsv('d1 | A | 10 | 0.9', 'd1 | B | 3 | 0.1'));
    const score = scoreRankedRun(gold, run, { task: 'INT', mode: 'rank', cutoff: 1 });
    expect([score.tp, score.fp]).toEqual([0, 1]);
  });

  it('line order keeps the file order', () => {
    const run = parseIntRun(tsv('d1 | B', 'd1 | A'), { columns: 'order' });
    expect(scoreRankedRun(gold, run, { task: 'INT', mode: 'line', cutoff: 1 }).tp).toBe(0);
  });
});

describe('INT evaluated documents, macro and micro', () => {
  // d1: gold {A, B}, list [A, X, B]; d2: gold {C}, list [Y, C]; d3: gold only.
  const gold = intGold({ d1: ['A', 'B'], d2: ['C'], d3: ['E'] });
  const run = intRun({ d2: ['Y', 'C'], d1: ['A', 'X', 'B'], other: ['A'] });

  it('by default evaluates only gold documents with results and ignores non-gold documents', () => {
    const score = scoreRankedRun(gold, run, { task: 'INT', mode: 'line' });
    expect(score.evaluatedDocs).toBe(2);
    expect(score.documents.map((d) => d.doc)).toEqual(['d1', 'd2']);
    expect([score.tp, score.fp, score.fn]).toEqual([3, 2, 0]);
  });

  it('macro: means and population SDs of per-document P, R, F and AUC', () => {
    const score = scoreRankedRun(gold, run, { task: 'INT', mode: 'line' });
    // d1: P 2/3, R 1, F 0.8, AUC 1/2 + 2/3·1/2; d2: P 1/2, R 1, F 2/3, AUC 1/2.
    expect(score.macro.p).toBeCloseTo(7 / 12, 9);
    expect(score.macro.sdP).toBeCloseTo(1 / 12, 9);
    expect(score.macro.r).toBeCloseTo(1, 9);
    expect(score.macro.sdR).toBeCloseTo(0, 9);
    expect(score.macro.f).toBeCloseTo((0.8 + 2 / 3) / 2, 9);
    expect(score.macro.sdF).toBeCloseTo((0.8 - 2 / 3) / 2, 9);
    expect(score.macro.aucIPR).toBeCloseTo((5 / 6 + 1 / 2) / 2, 9);
    expect(score.macro.sdAucIPR).toBeCloseTo((5 / 6 - 1 / 2) / 2, 9);
  });

  it('micro: one curve point per rank level across documents sorted by id', () => {
    const score = scoreRankedRun(gold, run, { task: 'INT', mode: 'line' });
    // Level 1: A(hit) Y → P 1/2, R 1/3. Level 2: X, C(hit) → 1/2, 2/3. Level 3: B(hit) → 3/5, 1.
    // Only the full-recall point survives interpolation: AUC 0.6 (a flat walk would give 0.7556).
    expect(score.micro.aucIPR).toBeCloseTo(0.6, 9);
    expect(score.micro.p).toBeCloseTo(0.6, 9);
    expect(score.micro.r).toBeCloseTo(1, 9);
    expect(score.micro.f).toBeCloseTo(0.75, 9);
  });

  it('option all: gold documents without results count as empty lists', () => {
    const score = scoreRankedRun(gold, run, { task: 'INT', mode: 'line', all: true });
    expect(score.evaluatedDocs).toBe(3);
    expect(score.fn).toBe(1);
    expect(score.macro.p).toBeCloseTo((2 / 3 + 1 / 2 + 0) / 3, 9);
    expect(score.macro.r).toBeCloseTo(2 / 3, 9);
    expect(score.macro.sdR).toBeCloseTo(Math.sqrt(2 / 9), 9);
    expect(score.micro.r).toBeCloseTo(3 / 4, 9);
  });

  it('cutoff applies to micro and macro alike', () => {
    const score = scoreRankedRun(gold, run, { task: 'INT', mode: 'line', cutoff: 1 });
    expect([score.tp, score.fp, score.fn]).toEqual([1, 1, 2]);
    expect(score.micro.p).toBeCloseTo(0.5, 9);
    expect(score.micro.r).toBeCloseTo(1 / 3, 9);
    expect(score.macro.r).toBeCloseTo(0.25, 9);
  });

  it('reports the macro-averaged F-beta at the cutoff when beta is given', () => {
    const score = scoreRankedRun(gold, run, { task: 'INT', mode: 'line', beta: 10, cutoff: 2 });
    // d1 at k=2: P 1/2, R 1/2 → F_10 = 1/2; d2: P 1/2, R 1 → 101·0.5 / (100·0.5 + 1) = 50.5/51.
    expect(score.fBeta).toBeCloseTo((0.5 + 50.5 / 51) / 2, 9);
    expect(scoreRankedRun(gold, run, { task: 'INT', mode: 'line' }).fBeta).toBeUndefined();
  });
});

describe('homonym-ortholog mapping and organism filtering', () => {
  const gold = intGold({ d1: ['A', 'C'] });

  it('replaces an ortholog by its gold accession, or by several at one position, then removes later duplicates', () => {
    // A1 → A; A2 is an ortholog of both A and C → A, C at its position.
    const map = new Map([
      ['A', ['A1', 'A2']],
      ['C', ['A2']],
    ]);
    const run = intRun({ d1: ['A1', 'X', 'A2', 'A'] });
    const score = scoreRankedRun(gold, run, { task: 'INT', mode: 'line', orthologMap: map });
    // Mapped list [A, X, C]: P 2/3, R 1; AUC 1·1/2 + 2/3·1/2.
    expect([score.tp, score.fp, score.fn]).toEqual([2, 1, 0]);
    expect(score.macro.aucIPR).toBeCloseTo(5 / 6, 9);
    const unmapped = scoreRankedRun(gold, run, { task: 'INT', mode: 'line' });
    expect([unmapped.tp, unmapped.fp]).toEqual([1, 3]);
  });

  it('does not map an ortholog that is itself a gold accession', () => {
    const map = new Map([['A', ['C']]]);
    const score = scoreRankedRun(gold, intRun({ d1: ['C'] }), { task: 'INT', mode: 'line', orthologMap: map });
    expect([score.tp, score.fn]).toEqual([1, 1]);
  });

  it('filters results whose taxon is not a taxon of the gold accessions; unmapped accessions go too', () => {
    const organisms = new Map([
      ['A', '9606'],
      ['C', '10090'],
      ['X', '9606'],
      ['Y', '7227'],
    ]);
    const run = intRun({ d1: ['Y', 'A', 'Z', 'X', 'C'] });
    const score = scoreRankedRun(gold, run, { task: 'INT', mode: 'line', organismMap: organisms });
    // Kept [A, X, C].
    expect([score.tp, score.fp, score.fn]).toEqual([2, 1, 0]);
    expect(score.macro.p).toBeCloseTo(2 / 3, 9);
  });

  it('maps before filtering: a wrong-species ortholog becomes the gold accession instead of being dropped', () => {
    const organisms = new Map([
      ['A', '9606'],
      ['C', '9606'],
      ['A9', '7227'],
    ]);
    const map = new Map([['A', ['A9']]]);
    const run = intRun({ d1: ['A9'] });
    expect(scoreRankedRun(gold, run, { task: 'INT', mode: 'line', organismMap: organisms }).evaluatedDocs).toBe(0);
    expect(scoreRankedRun(gold, run, { task: 'INT', mode: 'line', organismMap: organisms, orthologMap: map }).tp).toBe(1);
  });

  it('rejects a gold accession missing from the organism map, naming it', () => {
    const organisms = new Map([['A', '9606']]);
    try {
      scoreRankedRun(gold, intRun({ d1: ['A'] }), { task: 'INT', mode: 'line', organismMap: organisms, organismMapFile: 'taxa.tsv' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ScoringInputError);
      expect((error as ScoringInputError).message).toMatch(/taxa\.tsv: gold accession C of document d1 is missing from the organism map/);
    }
  });
});

describe('IPT', () => {
  const iptRun = (...pairs: string[]) => parseIptRun(tsv(...pairs.map((p) => `d1 | ${p.replace('-', ' | ')}`)), { columns: 'order' });

  it('compares pairs unordered', () => {
    const gold = parseIptGold(tsv('d1 | A | B', 'd1 | C | D'));
    const score = scoreRankedRun(gold, iptRun('B-A', 'X-Y', 'D-C'), { task: 'IPT', mode: 'line' });
    expect([score.tp, score.fp, score.fn]).toEqual([2, 1, 0]);
    expect(score.macro.aucIPR).toBeCloseTo(0.5 + (2 / 3) * 0.5, 9);
  });

  it('maps every combination of partner candidates (orthologs present plus the partner when present)', () => {
    const gold = parseIptGold(tsv('d1 | A | B'));
    const map = new Map([
      ['A', ['A1']],
      ['B', ['B1']],
    ]);
    // A and A1 are present for A; only B1 for B (B itself never occurs): (A1,B1) and (A,B1) map to (A,B).
    const score = scoreRankedRun(gold, iptRun('X-A1', 'B1-A1', 'A-B1', 'C-A'), { task: 'IPT', mode: 'line', orthologMap: map });
    // Mapped list [(A1,X), (A,B), (A,C)]: the second (A,B) is a later duplicate and goes;
    // (A,C) is no combination of candidates and stays a false positive.
    expect([score.tp, score.fp, score.fn]).toEqual([1, 2, 0]);
    expect(score.macro.aucIPR).toBeCloseTo(0.5, 9);
  });

  it('filters pairs unless both accessions are of the document taxa', () => {
    const gold = parseIptGold(tsv('d1 | A | B'));
    const organisms = new Map([
      ['A', '9606'],
      ['B', '10090'],
      ['X', '9606'],
      ['Y', '7227'],
    ]);
    const score = scoreRankedRun(gold, iptRun('A-Y', 'A-X', 'B-A'), { task: 'IPT', mode: 'line', organismMap: organisms });
    expect([score.tp, score.fp]).toEqual([1, 1]);
  });
});
