import { describe, expect, it } from 'vitest';
import { parseA1, parseA2, type Protein } from '../../src/scoring/coref-input.ts';
import { anaphorType, expressionMatches, proteinLinks, scoreCoref } from '../../src/scoring/coref.ts';
import { ScoringInputError } from '../../src/scoring/errors.ts';

// Our own small text shaped like the task paper's figure: a two-protein antecedent
// (T28 holds T4, T5), an antecedent without a given protein (T27), and a chain
// T33 → T32 → T31 whose end holds T10.
const TEXT =
  'We studied the NFkB heterodimer complex. The dimer of RelA and NFKB1, which enters the nucleus, binds DNA. ' +
  'This complex is active. The factor RelA leaves the nucleus; export of this transcription factor needs it.';

/** `start end` of `phrase` in TEXT, looked up inside `context` when the phrase alone is ambiguous. */
function span(phrase: string, context = phrase, occurrence = 0): string {
  let at = -1;
  for (let i = 0; i <= occurrence; i++) at = TEXT.indexOf(context, at + 1);
  if (at < 0) throw new Error(`no "${context}"`);
  const start = at + context.indexOf(phrase);
  return `${start} ${start + phrase.length}`;
}

/** An expression line, with its minimal boundary `head` (the last occurrence inside it) when given. */
function exp(id: string, phrase: string, head?: string, context = phrase): string {
  const location = span(phrase, context);
  if (!head) return `${id}\tExp ${location}\t${phrase}`;
  const headStart = Number(location.split(' ')[0]) + phrase.lastIndexOf(head);
  return `${id}\tExp ${location}\t${phrase}\t${headStart} ${headStart + head.length}\t${head}`;
}

const A1 = [`T4\tProtein ${span('RelA')}\tRelA`, `T5\tProtein ${span('NFKB1')}\tNFKB1`, `T10\tProtein ${span('RelA', 'The factor RelA')}\tRelA`].join('\n') + '\n';

const GOLD_A2 =
  [
    exp('T27', 'the NFkB heterodimer complex', 'complex'),
    exp('T28', 'The dimer of RelA and NFKB1'),
    exp('T29', 'which'),
    exp('T30', 'This complex', 'complex'),
    exp('T31', 'The factor RelA'),
    exp('T32', 'this transcription factor', 'factor'),
    exp('T33', 'it', undefined, 'needs it'),
    'R1\tCoref Anaphora:T29 Antecedent:T28 [T5, T4]',
    'R2\tCoref Anaphora:T30 Antecedent:T27',
    'R3\tCoref Anaphora:T32 Antecedent:T31 [T10]',
    'R4\tCoref Anaphora:T33 Antecedent:T32',
  ].join('\n') + '\n';

const proteins: Map<string, Protein> = parseA1(A1);
const gold = parseA2(GOLD_A2);

describe('COREF parsing', () => {
  it('reads proteins, expressions with minimal boundaries, and links', () => {
    expect([...proteins.keys()]).toEqual(['T4', 'T5', 'T10']);
    expect(TEXT.slice(proteins.get('T10')!.start, proteins.get('T10')!.end)).toBe('RelA');
    const t32 = gold.expressions.get('T32')!;
    expect(TEXT.slice(t32.min!.start, t32.min!.end)).toBe('factor');
    expect(TEXT.slice(gold.expressions.get('T33')!.start, gold.expressions.get('T33')!.end)).toBe('it');
    expect(gold.links.map((l) => [l.anaphor, l.antecedent])).toEqual([['T29', 'T28'], ['T30', 'T27'], ['T32', 'T31'], ['T33', 'T32']]);
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
    const links = proteinLinks(gold, proteins).map((l) => `${l.anaphor.id},${l.target as string}`).sort();
    expect(links).toEqual(['T29,T4', 'T29,T5', 'T32,T10', 'T33,T10']);
  });

  it('survives a cycle of links without proteins', () => {
    const cyclic = parseA2('T1\tExp 0 2\tWe\nT2\tExp 3 10\tstudied\nR1\tCoref Anaphora:T1 Antecedent:T2\nR2\tCoref Anaphora:T2 Antecedent:T1\n');
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
    const response = parseA2(
      [
        exp('T101', 'which'),
        exp('T102', 'The dimer of RelA and NFKB1'),
        exp('T103', 'transcription factor'),
        exp('T104', 'The factor RelA'),
        exp('T105', 'it', undefined, 'needs it'),
        exp('T106', 'NFkB heterodimer complex'),
        exp('T107', 'This'),
        'R1\tCoref Anaphora:T101 Antecedent:T102',
        'R2\tCoref Anaphora:T103 Antecedent:T104',
        'R3\tCoref Anaphora:T105 Antecedent:T104',
        'R4\tCoref Anaphora:T107 Antecedent:T106',
      ].join('\n'),
    );
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

  it('matches each gold link at most once', () => {
    const doubled = parseA2(GOLD_A2 + 'R9\tCoref Anaphora:T29 Antecedent:T28\n');
    const score = scoreCoref([{ doc: 'd', proteins, gold, response: doubled }]);
    expect(score.surface).toMatchObject({ tp: 4, fp: 1, fn: 0 });
    expect(score.surface.p).toBeCloseTo(0.8, 9);
  });

  it('rejects a link to an unknown expression, naming the line', () => {
    const broken = parseA2('T1\tExp 0 2\tWe\nR1\tCoref Anaphora:T1 Antecedent:T99\n');
    expect(() => scoreCoref([{ doc: 'd', proteins, gold, response: broken, responseFile: 'run/d.a2' }])).toThrow(/run\/d\.a2, line 2: link refers to T99/);
  });
});
