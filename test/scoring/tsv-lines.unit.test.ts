import { describe, expect, it } from 'vitest';
import { parseIntRun, parseIptRun } from '../../src/scoring/bc2-input.ts';
import { errorOf } from '../support/scoring-errors.ts';
import { forEachLine, parseConfidence, parseRank, TsvScanner } from '../../src/scoring/tsv-lines.ts';
import { unorderedPairKey as pairKey } from '../../src/scoring/types.ts';

/** Every line of `text` as the scanner reads it: [line number, first `max` fields]. */
function scan(text: string, max = 8): [number, string[]][] {
  const scanner = new TsvScanner(text, 'f.tsv');
  const out: [number, string[]][] = [];
  while (scanner.next()) {
    const count = scanner.split(max);
    out.push([scanner.line, Array.from({ length: count }, (_, i) => scanner.field(i))]);
  }
  return out;
}

describe('TsvScanner', () => {
  it('reads LF and CRLF lines alike, and a last line without a newline', () => {
    expect(scan('a\tb\nc\td\n')).toEqual([
      [1, ['a', 'b']],
      [2, ['c', 'd']],
    ]);
    expect(scan('a\tb\r\nc\td\r\n')).toEqual([
      [1, ['a', 'b']],
      [2, ['c', 'd']],
    ]);
    expect(scan('a\tb\nc\td')).toEqual([
      [1, ['a', 'b']],
      [2, ['c', 'd']],
    ]);
    expect(scan('')).toEqual([]);
  });

  it('strips each line (spaces, tabs, CR, no-break space) before splitting, but not the fields', () => {
    expect(scan('  a\tb  \n\ta\t b \tc\t\n\u00a0a\tb\u00a0\r\n')).toEqual([
      [1, ['a', 'b']],
      [2, ['a', ' b ', 'c']],
      [3, ['a', 'b']],
    ]);
  });

  it('rejects an empty or blank line with its number; only a final newline ends the text', () => {
    expect(errorOf(() => scan('a\tb\n\nc\td\n')).line).toBe(2);
    expect(errorOf(() => scan('a\tb\n \t\r\n')).line).toBe(2);
    expect(errorOf(() => scan('a\tb\n\n')).line).toBe(2);
    expect(errorOf(() => scan('a\tb\r\n\r\n')).message).toBe(
      'f.tsv, line 2: empty line (remove blank lines; every line must hold one tab-separated record)',
    );
  });

  it('does not skip comment lines: the format has none', () => {
    expect(scan('# comment\na\tb\n')).toEqual([
      [1, ['# comment']],
      [2, ['a', 'b']],
    ]);
    const error = errorOf(() => parseIntRun('# comment\nd1\tP1\t1\t0.5\n'));
    expect(error.line).toBe(1);
    expect(error.reason).toBe('expected 2 tab-separated columns (document, accession), found 1');
  });

  it('finds at most `max` fields, the last ending at the next TAB, and counts them all when fewer', () => {
    expect(scan('a\tb\tc\td\te\n', 3)).toEqual([[1, ['a', 'b', 'c']]]);
    expect(scan('a\tb\n', 4)).toEqual([[1, ['a', 'b']]]);
    expect(scan('a\t\tc\n', 4)).toEqual([[1, ['a', '', 'c']]]);
    // The search for the last field's end may run into the next line; the field stops at its own line.
    expect(scan('a\tb\nc\td\te\n', 2)).toEqual([
      [1, ['a', 'b']],
      [2, ['c', 'd']],
    ]);
  });

  it('reads lines without TABs between lines with them', () => {
    expect(scan('a\nb\tc\nd\ne\n\tf\n', 4)).toEqual([
      [1, ['a']],
      [2, ['b', 'c']],
      [3, ['d']],
      [4, ['e']],
      [5, ['f']],
    ]);
    const lines: string[][] = [];
    forEachLine('a\nb\tc\td\ne', undefined, (fields) => lines.push(fields));
    expect(lines).toEqual([['a'], ['b', 'c', 'd'], ['e']]);
    // Many lines without a TAB: each search for one is not repeated from line to line.
    const map = `${Array.from({ length: 200_000 }, (_, i) => `P${i}`).join('\n')}\nQ1\tQ2\n`;
    const started = performance.now();
    expect(scan(map, 2)).toHaveLength(200_001);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('compares a field in place', () => {
    const scanner = new TsvScanner('PMC1\tx\n', undefined);
    scanner.next();
    scanner.split(2);
    expect(scanner.fieldIs(0, 'PMC1')).toBe(true);
    expect(scanner.fieldIs(0, 'PMC2')).toBe(false);
    expect(scanner.fieldIs(0, 'PMC')).toBe(false);
    expect(scanner.fieldIs(0, 'PMC1\t')).toBe(false);
  });

  it('hashes a field or two joined by TAB, the same for the same text', () => {
    const scanner = new TsvScanner('d\tP1\tP2\tP1\n', undefined);
    scanner.next();
    scanner.split(4);
    expect(scanner.hashFields(1)).toBe(scanner.hashFields(3));
    expect(scanner.hashFields(1)).not.toBe(scanner.hashFields(2));
    expect(scanner.hashFields(1, 2)).not.toBe(scanner.hashFields(2, 1));
    expect(scanner.sameText(scanner.start(1), scanner.end(1), scanner.start(3), scanner.end(3))).toBe(true);
    expect(scanner.sameText(scanner.start(1), scanner.end(1), scanner.start(2), scanner.end(2))).toBe(false);
  });

  it('spells an IPT pair key as pairKey does, in either order, and finds it again reversed', () => {
    for (const [a, b] of [
      ['P1', 'P2'],
      ['AB', 'A'],
      ['b', 'B'],
      ['Q9', 'P10'],
    ]) {
      for (const line of [`d\t${a}\t${b}`, `d\t${b}\t${a}`]) {
        expect(parseIptRun(line, { columns: 'order' }).get('d')![0].key).toBe(pairKey(a, b));
      }
      const error = errorOf(() => parseIptRun(`d\t${a}\t${b}\nd\t${b}\t${a}\n`, { columns: 'order' }));
      expect(error.line).toBe(2);
      expect(error.reason).toContain('(first on line 1)');
    }
  });

  it('forEachLine hands over all fields of every line', () => {
    const lines: [string[], number][] = [];
    forEachLine(' a\tb\tc \r\nd\n', undefined, (fields, line) => lines.push([fields, line]));
    expect(lines).toEqual([
      [['a', 'b', 'c'], 1],
      [['d'], 2],
    ]);
  });
});

describe('rank and confidence numbers', () => {
  it('reads ranks on the fast path and the careful one alike', () => {
    for (const raw of ['1', '30', '007', '+2', ' 3 ', '123456789', '1234567890']) expect(parseRank(raw)).toBe(Number(raw));
    expect(() => parseRank('0')).toThrow(/rank 0 is not ≥ 1/);
    expect(() => parseRank('1e3')).toThrow(/not an integer/);
  });

  it('reads confidences exactly as Number() does', () => {
    for (const raw of ['1', '1.0', '1.', '0.5', '.5', '0.9667', '5e-1', ' 0.25', '0.1234567890123456', '0.000000000000001']) {
      expect(parseConfidence(raw)).toBe(Number(raw));
    }
    expect(() => parseConfidence('1.0001')).toThrow(/outside \(0,1\]/);
    expect(() => parseConfidence('0.0')).toThrow(/outside \(0,1\]/);
    expect(() => parseConfidence('0x1')).toThrow(/not a number/);
  });
});

describe('INT/IPT run passes', () => {
  const run = (...lines: string[]) => lines.map((line) => line.replace(/ \| /g, '\t')).join('\n') + '\n';

  it('gives the same entries whether documents come together (fast pass) or not (careful pass)', () => {
    const grouped = parseIntRun(run('d1 | A | 1 | 0.5', 'd1 | B | 2 | 0.4', 'd2 | A | 1 | 0.9'));
    const mixed = parseIntRun(run('d1 | A | 1 | 0.5', 'd2 | A | 1 | 0.9', 'd1 | B | 2 | 0.4'));
    expect(grouped.get('d1')).toEqual([
      { key: 'A', rank: 1, confidence: 0.5, line: 1 },
      { key: 'B', rank: 2, confidence: 0.4, line: 2 },
    ]);
    expect(mixed.get('d1')).toEqual([
      { key: 'A', rank: 1, confidence: 0.5, line: 1 },
      { key: 'B', rank: 2, confidence: 0.4, line: 3 },
    ]);
    expect([...mixed.keys()]).toEqual(['d1', 'd2']);
  });

  it('names the first line of a duplicate in either pass', () => {
    const grouped = errorOf(() => parseIntRun(run('d1 | A | 1 | 0.5', 'd1 | B | 2 | 0.5', 'd1 | A | 3 | 0.5'), { file: 'r.tsv' }));
    expect(grouped.message).toBe(
      'r.tsv, line 3: duplicate accession A in document d1 (first on line 1) (report each item once per document)',
    );
    const mixed = errorOf(() => parseIntRun(run('d1 | A | 1 | 0.5', 'd2 | A | 1 | 0.5', 'd1 | B | 1 | 0.5')));
    expect(mixed.line).toBe(3);
    expect(mixed.reason).toBe('duplicate rank 1 in document d1 (first on line 1)');
    // A duplicate key is reported before a duplicate rank on the same line.
    expect(errorOf(() => parseIntRun(run('d1 | A | 1 | 0.5', 'd1 | A | 1 | 0.5'))).reason).toMatch(/duplicate accession A/);
    expect(errorOf(() => parseIptRun(run('d1 | A | B | 1 | 0.5', 'd1 | B | A | 2 | 0.5'))).reason).toBe(
      'duplicate pair A B (pairs are undirected) in document d1 (first on line 1)',
    );
  });

  it('checks ranks of any size, and documents longer than the fast pass keeps', () => {
    expect(errorOf(() => parseIntRun(run('d1 | A | 5000 | 0.5', 'd1 | B | 5000 | 0.5'))).reason).toBe(
      'duplicate rank 5000 in document d1 (first on line 1)',
    );
    expect(errorOf(() => parseIntRun(run('d1 | A | 2000000 | 0.5', 'd1 | B | 2000000 | 0.5'))).reason).toBe(
      'duplicate rank 2000000 in document d1',
    );
    const long = Array.from({ length: 1000 }, (_, i) => `d1 | P${i} | ${i + 1} | 0.5`);
    expect(parseIntRun(run(...long)).get('d1')).toHaveLength(1000);
    const error = errorOf(() => parseIntRun(run(...long, 'd1 | P10 | 1001 | 0.5')));
    expect(error.line).toBe(1001);
    expect(error.reason).toBe('duplicate accession P10 in document d1 (first on line 11)');
  });

  it('returns only the documents asked for, and still checks the others', () => {
    const text = run('d1 | A | 1 | 0.5', 'd2 | A | 1 | 0.5', 'd2 | B | 2 | 0.5');
    expect([...parseIntRun(text, { documents: new Set(['d2']) }).keys()]).toEqual(['d2']);
    expect(parseIntRun(text, { documents: new Set<string>() }).size).toBe(0);
    expect(errorOf(() => parseIntRun(run('d1 | A | 1 | 0.5', 'd2 | A | 1 | 2'), { documents: new Set(['d1']) })).line).toBe(2);
    expect(errorOf(() => parseIntRun(run('d2 | A | 1 | 0.5', 'd2 | A | 2 | 0.5'), { documents: new Set(['d1']) })).line).toBe(2);
  });

  it('reports missing columns, the fixed ones first, with the field count of the whole line', () => {
    expect(errorOf(() => parseIptRun(run('d1 | A'))).reason).toBe(
      'expected 3 tab-separated columns (document, accession A, accession B), found 2',
    );
    expect(errorOf(() => parseIptRun(run('d1 | A | B | 1'))).reason).toBe(
      'expected 5 tab-separated columns (document, accession A, accession B, rank, confidence), found 4',
    );
    expect(errorOf(() => parseIntRun(run('d1 | A'), { columns: 'rank' })).reason).toBe(
      'expected 3 tab-separated columns (document, accession, rank), found 2',
    );
  });
});
