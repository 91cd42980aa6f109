import { describe, expect, it } from 'vitest';
import {
  parseActGold,
  parseActLabel,
  parseActRun,
  parseHomonymOrthologMap,
  parseIntGold,
  parseIntRun,
  parseIptGold,
  parseIptRun,
  parseOrganismMap,
} from '../../src/scoring/bc2-input.ts';
import { errorOf } from '../support/scoring-errors.ts';

const tsv = (...lines: string[]) => lines.map((line) => line.replace(/ \| /g, '\t')).join('\n') + '\n';

describe('BC II.5 run files', () => {
  it('reads rank and confidence by default, ignores extra columns and strips lines', () => {
    const run = parseIntRun(tsv('d1 | P1 | 1 | 0.9 | extra', '  d1 | P2 | 2 | 1  ', 'd2 | P1 | 7 | 0.25'));
    expect([...run.keys()]).toEqual(['d1', 'd2']);
    expect(run.get('d1')).toEqual([
      { key: 'P1', rank: 1, confidence: 0.9, line: 1 },
      { key: 'P2', rank: 2, confidence: 1, line: 2 },
    ]);
    expect(run.get('d2')![0]).toMatchObject({ rank: 7, confidence: 0.25, line: 3 });
  });

  it('reads the confidence-only, rank-only and line-order layouts', () => {
    expect(parseIntRun(tsv('d1 | P1 | 0.5'), { columns: 'confidence' }).get('d1')![0]).toEqual({
      key: 'P1',
      rank: undefined,
      confidence: 0.5,
      line: 1,
    });
    expect(parseIntRun(tsv('d1 | P1 | 4'), { columns: 'rank' }).get('d1')![0]).toEqual({
      key: 'P1',
      rank: 4,
      confidence: undefined,
      line: 1,
    });
    expect(parseIntRun(tsv('d1 | P1'), { columns: 'order' }).get('d1')![0]).toEqual({
      key: 'P1',
      rank: undefined,
      confidence: undefined,
      line: 1,
    });
  });

  it('spells an IPT pair one way whatever the column order', () => {
    const run = parseIptRun(tsv('d1 | Q2 | Q1 | 1 | 0.5'));
    expect(run.get('d1')![0].key).toBe('Q1\tQ2');
  });

  it('rejects missing columns, naming the line', () => {
    const error = errorOf(() => parseIntRun(tsv('d1 | P1 | 1 | 0.5', 'd1 | P2 | 2'), { file: 'run.tsv' }));
    expect(error.line).toBe(2);
    expect(error.file).toBe('run.tsv');
    expect(error.message).toContain('run.tsv, line 2');
    expect(error.message).toMatch(/expected 4 tab-separated columns/);
  });

  it('rejects an empty line but accepts the final newline', () => {
    expect(errorOf(() => parseIntRun('d1\tP1\t1\t0.5\n\nd1\tP2\t2\t0.5\n')).line).toBe(2);
    expect(errorOf(() => parseIntRun('d1\tP1\t1\t0.5\n   \t \n')).line).toBe(2);
    expect(parseIntRun('d1\tP1\t1\t0.5\n').get('d1')).toHaveLength(1);
    expect(parseIntRun('').size).toBe(0);
  });

  it('rejects a duplicate rank within a document, with its line', () => {
    const error = errorOf(() => parseIntRun(tsv('d1 | P1 | 1 | 0.5', 'd2 | P1 | 1 | 0.5', 'd1 | P2 | 1 | 0.4')));
    expect(error.line).toBe(3);
    expect(error.reason).toMatch(/duplicate rank 1 in document d1 \(first on line 1\)/);
  });

  it('rejects a duplicate accession within a document, with its line', () => {
    const error = errorOf(() => parseIntRun(tsv('d1 | P1 | 1 | 0.5', 'd1 | P2 | 2 | 0.5', 'd1 | P1 | 3 | 0.4')));
    expect(error.line).toBe(3);
    expect(error.reason).toMatch(/duplicate accession P1/);
  });

  it('treats IPT A–B and B–A as the same pair', () => {
    const error = errorOf(() => parseIptRun(tsv('d1 | A | B | 1 | 0.5', 'd1 | B | A | 2 | 0.5')));
    expect(error.line).toBe(2);
    expect(error.reason).toMatch(/duplicate pair A B/);
  });

  it('rejects confidences outside (0,1] and ranks below 1', () => {
    expect(errorOf(() => parseIntRun(tsv('d1 | P1 | 1 | 0.5', 'd1 | P2 | 2 | 0'))).line).toBe(2);
    expect(errorOf(() => parseIntRun(tsv('d1 | P1 | 1 | 1.5'))).reason).toMatch(/outside \(0,1\]/);
    expect(errorOf(() => parseIntRun(tsv('d1 | P1 | 1 | high'))).reason).toMatch(/not a number/);
    expect(errorOf(() => parseIntRun(tsv('d1 | P1 | 1 | 0.5', 'x | y | 1 | 0.5', 'd1 | P2 | 0 | 0.5'))).line).toBe(3);
    expect(errorOf(() => parseIntRun(tsv('d1 | P1 | -2 | 0.5'))).reason).toMatch(/rank -2 is not ≥ 1/);
    expect(errorOf(() => parseIntRun(tsv('d1 | P1 | 1.5 | 0.5'))).reason).toMatch(/not an integer/);
  });
});

describe('ACT files', () => {
  it('reads labels: integers (non-zero true, even -1), then t/true/y and f/false/n in any case', () => {
    expect(parseActLabel('-1')).toEqual({ relevant: true });
    expect(parseActLabel('2')).toEqual({ relevant: true });
    expect(parseActLabel('0')).toEqual({ relevant: false });
    expect(parseActLabel('TRUE')).toEqual({ relevant: true });
    expect(parseActLabel('Y')).toEqual({ relevant: true });
    expect(parseActLabel('f')).toEqual({ relevant: false });
    expect(parseActLabel('No')).toBeUndefined();
    expect(parseActLabel('n')).toEqual({ relevant: false });
  });

  it('reads + and - as documented (true, false) and warns', () => {
    const { value, warnings } = parseActRun(tsv('d1 | + | 1 | 0.5', 'd2 | - | 1 | 0.5'));
    expect(value.map((e) => e.relevant)).toEqual([true, false]);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/line 1: label "\+" read as true/);
  });

  it('rejects an unknown label with its line', () => {
    const error = errorOf(() => parseActRun(tsv('d1 | 1 | 1 | 0.5', 'd2 | maybe | 2 | 0.5'), { file: 'a.tsv' }));
    expect(error.line).toBe(2);
    expect(error.reason).toMatch(/unknown classification label "maybe"/);
  });

  it('rejects a duplicate document', () => {
    const error = errorOf(() => parseActRun(tsv('d1 | 1 | 1 | 0.5', 'd2 | 0 | 1 | 0.5', 'd1 | 0 | 2 | 0.5')));
    expect(error.line).toBe(3);
    expect(error.reason).toMatch(/duplicate document "d1"/);
  });

  it('allows the same rank once among trues and once among falses, not twice in one class', () => {
    expect(parseActRun(tsv('d1 | 1 | 1 | 0.5', 'd2 | 0 | 1 | 0.5')).value).toHaveLength(2);
    const error = errorOf(() => parseActRun(tsv('d1 | 1 | 1 | 0.5', 'd2 | 0 | 1 | 0.5', 'd3 | 0 | 1 | 0.5')));
    expect(error.line).toBe(3);
    expect(error.reason).toMatch(/duplicate rank 1 among false/);
  });

  it('reads an ACT gold standard', () => {
    const gold = parseActGold(tsv('d1 | 1', 'd2 | false')).value;
    expect([...gold]).toEqual([
      ['d1', true],
      ['d2', false],
    ]);
  });
});

describe('gold standards and maps', () => {
  it('reads INT and IPT gold as sets per document', () => {
    expect([...parseIntGold(tsv('d1 | A', 'd1 | B', 'd1 | A', 'd2 | C'))]).toEqual([
      ['d1', ['A', 'B']],
      ['d2', ['C']],
    ]);
    expect(parseIptGold(tsv('d1 | B | A', 'd1 | A | B')).get('d1')).toEqual(['A\tB']);
  });

  it('reads the homonym-ortholog map; a key without a TAB has no orthologs', () => {
    const map = parseHomonymOrthologMap(tsv('A | A1,A2', 'B', 'A | A3,A1'));
    expect(map.get('A')).toEqual(['A1', 'A2', 'A3']);
    expect(map.get('B')).toEqual([]);
    expect(map.has('A1')).toBe(false);
  });

  it('reads the organism map and rejects two taxa for one accession', () => {
    expect(parseOrganismMap(tsv('A | 9606', 'B | 10090')).get('B')).toBe('10090');
    expect(errorOf(() => parseOrganismMap(tsv('A | 9606', 'A | 10090'))).line).toBe(2);
  });
});
