import { describe, expect, it } from 'vitest';
import { parseA1, parseA2, type Protein } from '../../src/scoring/coref-input.ts';
import { anaphorType, expressionMatches, proteinLinks, scoreCoref } from '../../src/scoring/coref.ts';
import { ScoringInputError } from '../../src/scoring/errors.ts';
import { A1, GOLD_A2, PARTIAL_RESPONSE_A2, TEXT } from './coref-fixtures.ts';

const proteins: Map<string, Protein> = parseA1(A1);
const gold = parseA2(GOLD_A2);

describe('COREF parsing', () => {
  it('reads proteins, expressions with minimal boundaries, and links', () => {
    expect([...proteins.keys()]).toEqual(['T4', 'T5', 'T10']);
    expect(TEXT.slice(proteins.get('T10')!.start, proteins.get('T10')!.end)).toBe('RelA');
    const t32 = gold.expressions.get('T32')!;
    expect(TEXT.slice(t32.min!.start, t32.min!.end)).toBe('factor');
    expect(TEXT.slice(gold.expressions.get('T33')!.start, gold.expressions.get('T33')!.end)).toBe('it');
    expect(gold.links.map((l) => [l.anaphor, l.antecedent])).toEqual([
      ['T29', 'T28'],
      ['T30', 'T27'],
      ['T32', 'T31'],
      ['T33', 'T32'],
    ]);
  });

  it('rejects malformed lines with their number', () => {
    const error = (() => {
      try {
        parseA2('T1\tExp 0 5\tabcde\nR1\tCoref Anaphora:T1\n', { file: 'x.a2' });
      } catch (e) {
        return e as ScoringInputError;
      }
    })();
    expect(error).toBeInstanceOf(ScoringInputError);
    expect(error!.line).toBe(2);
    expect(() => parseA2('T1\tExp 0 5\tabcde\t1 9\tx\n')).toThrow(/not inside/);
  });
});

describe('COREF link lines', () => {
  const link = (line: string) => parseA2(`${line}\n`).links[0];

  it('reads the protein list after a space or after a TAB, as brat and the official scorer write it', () => {
    expect(link('R1\tCoref Anaphora:T11 Antecedent:T10 [T1, T2]')).toEqual({
      id: 'R1',
      anaphor: 'T11',
      antecedent: 'T10',
      antecedents: ['T10'],
      proteins: ['T1', 'T2'],
      line: 1,
    });
    expect(link('R1\tCoref Anaphora:T11 Antecedent:T10\t[T1, T2]')).toEqual({
      id: 'R1',
      anaphor: 'T11',
      antecedent: 'T10',
      antecedents: ['T10'],
      proteins: ['T1', 'T2'],
      line: 1,
    });
    expect(link('R2\tCoref Ana:T29 Ant:T28')).toEqual({ id: 'R2', anaphor: 'T29', antecedent: 'T28', antecedents: ['T28'], line: 1 });
  });

  it('reads numbered antecedents in the order of their numbers', () => {
    expect(link('R1\tCoref Anaphora:T5 Antecedent2:T4 Antecedent:T3\t[T1, T2]')).toMatchObject({
      anaphor: 'T5',
      antecedent: 'T3',
      antecedents: ['T3', 'T4'],
    });
    expect(link('R1\tCoref Anaphora:T9 Antecedent:T3 Antecedent3:T8 Antecedent2:T4')).toMatchObject({ antecedents: ['T3', 'T4', 'T8'] });
  });

  it('refuses arguments a Coref link cannot have', () => {
    expect(() => parseA2('R1\tCoref Anaphora:T5 Theme:T3\n')).toThrow(/line 1: Coref link has an unexpected argument "Theme:T3"/);
    expect(() => parseA2('R1\tCoref Anaphora:T5 Anaphora2:T6 Antecedent:T3\n')).toThrow(/more than one anaphor/);
    expect(() => parseA2('R1\tCoref Anaphora:T5 Antecedent:T3 Antecedent1:T4\n')).toThrow(/two antecedents numbered 1/);
  });

  it('keeps the type of each T line; other relations are not links', () => {
    const parsed = parseA2('T1\tProtein 0 3\tp65\nT2\tExp 5 7\tit\nR1\tSubunit-Complex Arg1:T1 Arg2:T2\n');
    expect([...parsed.expressions.values()].map((e) => e.type)).toEqual(['Protein', 'Exp']);
    expect(parsed.links).toEqual([]);
  });
});

describe('COREF matching', () => {
  const g = { id: 'g', start: 10, end: 30, text: '', min: { start: 20, end: 25 } };

  it('accepts a response that covers the minimal boundary inside the maximal one', () => {
    expect(expressionMatches({ start: 10, end: 30 }, g)).toBe(true);
    expect(expressionMatches({ start: 20, end: 25 }, g)).toBe(true);
    expect(expressionMatches({ start: 15, end: 27 }, g)).toBe(true);
    expect(expressionMatches({ start: 21, end: 25 }, g)).toBe(false);
    expect(expressionMatches({ start: 9, end: 25 }, g)).toBe(false);
    expect(expressionMatches({ start: 20, end: 31 }, g)).toBe(false);
  });

  it('needs an exact match without a minimal boundary', () => {
    const exact = { id: 'e', start: 10, end: 30, text: '' };
    expect(expressionMatches({ start: 10, end: 30 }, exact)).toBe(true);
    expect(expressionMatches({ start: 11, end: 30 }, exact)).toBe(false);
  });

  it('induces anaphor types from the first word and the word count', () => {
    expect(anaphorType('which')).toBe('RELAT');
    expect(anaphorType('It')).toBe('PRON');
    expect(anaphorType('this transcription factor')).toBe('DNP');
    expect(anaphorType('this')).toBe('PRON');
    expect(anaphorType('its receptor')).toBe('other');
    expect(anaphorType('')).toBe('other');
  });
});

describe('protein coreference links', () => {
  it('follows antecedent chains to the given proteins, as in the task paper', () => {
    const links = proteinLinks(gold, proteins)
      .map((l) => `${l.anaphor.id},${l.target}`)
      .sort();
    expect(links).toEqual(['T29,T4', 'T29,T5', 'T32,T10', 'T33,T10']);
  });

  it('survives a cycle of links without proteins', () => {
    const cyclic = parseA2(
      'T1\tExp 0 2\tWe\nT2\tExp 3 10\tstudied\nR1\tCoref Anaphora:T1 Antecedent:T2\nR2\tCoref Anaphora:T2 Antecedent:T1\n',
    );
    expect(proteinLinks(cyclic, proteins)).toEqual([]);
  });
});

describe('COREF scoring', () => {
  it('scores the gold against itself perfectly', () => {
    const score = scoreCoref([{ doc: 'd', proteins, gold, response: gold }]);
    expect(score.surface).toMatchObject({ tp: 4, fp: 0, fn: 0, p: 1, r: 1, f: 1 });
    expect(score.protein).toMatchObject({ tp: 4, fp: 0, fn: 0, p: 1, r: 1, f: 1 });
    expect(score.perType.DNP.surface).toMatchObject({ tp: 2, fn: 0 });
    expect(score.perType.RELAT.protein).toMatchObject({ tp: 2, fn: 0 });
  });

  it('scores partial boundaries, a skipped intermediate antecedent and a missed head', () => {
    const response = parseA2(PARTIAL_RESPONSE_A2);
    const score = scoreCoref([{ doc: 'd', proteins, gold, response }]);
    // Surface: T101→T102 matches R1; T103→T104 matches R3 (T103 covers the head "factor"); T105→T104
    // skips T32, so it is not R4; T107 "This" misses T30's head "complex".
    expect(score.surface).toMatchObject({ tp: 2, fp: 2, fn: 2 });
    expect(score.surface.f).toBeCloseTo(0.5, 9);
    // Protein links (T101,T4) (T101,T5) (T103,T10) (T105,T10) are all right: the direct link to T31 still reaches T10.
    expect(score.protein).toMatchObject({ tp: 4, fp: 0, fn: 0, p: 1, r: 1 });
    // Types are induced on each side: "transcription factor" is "other" though its gold anaphor is DNP.
    expect(score.perType.DNP.surface).toMatchObject({ tp: 0, fp: 0, fn: 1, p: 0, r: 0.5 });
    expect(score.perType.other.surface).toMatchObject({ tp: 1, fp: 0, fn: 0, p: 1, r: 0 });
    expect(score.perType.PRON.surface).toMatchObject({ tp: 0, fp: 2, fn: 1 });
    expect(score.perType.PRON.protein).toMatchObject({ tp: 1, fp: 0, fn: 0, p: 1, r: 1 });
    expect(score.perType.APPOS.protein).toMatchObject({ tp: 0, fp: 0, fn: 0 });
  });

  it('scores only the first link of a repeated response anaphor', () => {
    // Before the official scorer's rules this test read "matches each gold link at most
    // once" and expected tp 4, fp 1, P 0.8: R9 repeats R1 (anaphor T29, antecedent T28) and
    // was counted as a fifth response that found no unused gold link. The official scorer
    // keeps only the first link of an anaphor, so R9 is not scored: 4 responses, 4 correct,
    // P = 4/4 = 1, R = 4/4 = 1. (Gold links are not used up either: see
    // coref-crscorer.test.ts, where two different anaphors find one gold link.)
    const doubled = parseA2(GOLD_A2 + 'R9\tCoref Anaphora:T29 Antecedent:T28\n');
    const score = scoreCoref([{ doc: 'd', proteins, gold, response: doubled }]);
    expect(score.surface).toMatchObject({ gold: 4, response: 4, tp: 4, fp: 0, fn: 0, p: 1, r: 1 });
    expect(score.droppedLinks).toMatchObject([{ side: 'response', link: 'R9', line: 12, reason: 'repeated-anaphor' }]);
  });

  it('rejects a link to an unknown expression, naming the line', () => {
    const broken = parseA2('T1\tExp 0 2\tWe\nR1\tCoref Anaphora:T1 Antecedent:T99\n');
    expect(() => scoreCoref([{ doc: 'd', proteins, gold, response: broken, responseFile: 'run/d.a2' }])).toThrow(
      /run\/d\.a2, line 2: link refers to T99/,
    );
  });
});
