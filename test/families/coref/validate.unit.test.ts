import { describe, expect, it } from 'vitest';
import { validateAnswer } from '../../../src/families/validate.ts';
import { context, issues } from '../../tasks/helpers.ts';

// The leading 𝛼 (outside the BMP) shifts UTF-16 indexes by one against code points.
const TEXT = '𝛼: the NF-kappa B transcription factor complex, which contains p65 and p50, binds DNA.';
const GIVEN = 'T1\tProtein 63 66\tp65\nT2\tProtein 71 74\tp50\n';

/** Code-point span of the first occurrence of `part`, computed independently of the code under test. */
function span(part: string): string {
  const unit = TEXT.indexOf(part);
  const start = Array.from(TEXT.slice(0, unit)).length;
  return `${start} ${start + Array.from(part).length}`;
}

const coref = (lines: string | unknown) =>
  validateAnswer({ coref: Array.isArray(lines) ? lines.join('\n') : lines }, context({ tasks: ['COREF'], text: TEXT, given: GIVEN }));

const T3 = `T3\tExp 3 46\tthe NF-kappa B transcription factor complex\t39 46\tcomplex`;
const T4 = `T4\tExp 48 53\twhich`;

describe('COREF: standoff lines', () => {
  it('uses code-point offsets (checked against an independent computation)', () => {
    expect(span('the NF-kappa B transcription factor complex')).toBe('3 46');
    expect(span('complex')).toBe('39 46');
    expect(span('which')).toBe('48 53');
    expect(span('p65')).toBe('63 66');
    expect(span('p50')).toBe('71 74');
  });

  it('parses expressions with minimal boundaries and links with bracketed proteins', () => {
    const answer = coref([T3, T4, 'R1\tCoref Anaphora:T4 Antecedent:T3 [T1, T2]']);
    expect(answer.errors).toEqual([]);
    expect(answer.warnings).toEqual([]);
    expect(answer.result.COREF).toEqual({
      expressions: [
        { id: 'T3', start: 3, end: 46, text: 'the NF-kappa B transcription factor complex', min: { start: 39, end: 46, text: 'complex' } },
        { id: 'T4', start: 48, end: 53, text: 'which' },
      ],
      links: [{ id: 'R1', anaphor: 'T4', antecedent: 'T3', proteins: ['T1', 'T2'] }],
    });
  });

  it('accepts the abbreviated roles, a tab before the brackets, CRLF and blank lines, links before expressions', () => {
    const answer = coref(['R1\tCoref Ana:T4 Ant:T3\t[T1]\r', '', T3 + '\r', T4, '']);
    expect(answer.errors).toEqual([]);
    expect(answer.result.COREF?.links).toEqual([{ id: 'R1', anaphor: 'T4', antecedent: 'T3', proteins: ['T1'] }]);
  });

  it('counts the given proteins as defined expressions', () => {
    const answer = coref([T4, 'R1\tCoref Anaphora:T4 Antecedent:T1']);
    expect(answer.errors).toEqual([]);
    expect(answer.result.COREF?.links).toEqual([{ id: 'R1', anaphor: 'T4', antecedent: 'T1' }]);
  });

  it('accepts an empty string as no expressions and no links', () => {
    expect(coref('').result.COREF).toEqual({ expressions: [], links: [] });
  });

  it.each([
    [['T5 Exp 48 53 which'], /^coref\[line 1\]: "T5 Exp 48 53 which" does not parse: expected/],
    [['R1\tCoref T4 T3'], /^coref\[line 1\]: .* does not parse/],
    [['T5\tExp 48 abc\twhich'], /^coref\[line 1\]: .* does not parse/],
    [
      ['T5\tExp 80 95\tDNA.'],
      /^coref\[line 1\]: T5 \[80, 95\) runs past the end of the text \(86 code points\); the nearest occurrence is at offset 82 \(offsets count Unicode code points\)$/,
    ],
    [['T5\tExp 53 48\twhich'], /^coref\[line 1\]: T5 \[53, 48\) is empty or reversed$/],
    [['T5\tExp 49 54\twhich'], /^coref\[line 1\]: T5 text "which" differs from the text at \[49, 54\), which is "hich "/],
    [
      ['T5\tExp 3 46\tthe NF-kappa B transcription factor complex\t30 50\tcomplex'],
      /minimal boundary \[30, 50\) of T5 lies outside its span \[3, 46\)/,
    ],
    [
      ['T5\tExp 3 46\tthe NF-kappa B transcription factor complex\t39 46\tcomplez'],
      /the minimal boundary of T5 text "complez" differs from the text at \[39, 46\), which is "complex"/,
    ],
    [['T5\tEntity 48 53\twhich'], /T5 has type "Entity"; COREF expressions are "Exp"/],
    [[T4, 'R1\tEquiv Anaphora:T4 Antecedent:T1'], /^coref\[line 2\]: R1 has type "Equiv"; COREF links are "Coref"/],
    [[T4, 'R1\tCoref Anaphora:T4'], /^coref\[line 2\]: R1: a link needs both Anaphora:Tn and Antecedent:Tm/],
    [[T4, 'R1\tCoref Anaphora:T4 Cause:T1'], /^coref\[line 2\]: R1: unexpected argument "Cause:T1"/],
    [
      [T4, 'R1\tCoref Anaphora:T4 Antecedent:T9'],
      /^coref\[line 2\]: R1 names T9, defined neither by a T line of the answer nor among the given proteins$/,
    ],
    [[T3, T4, 'R1\tCoref Anaphora:T4 Antecedent:T3 [T1, T77]'], /^coref\[line 3\]: R1 names T77, defined neither/],
    [[T4, T4], /^coref\[line 2\]: T4 is defined twice \(coref\[line 1\]\)/],
    [['T1\tExp 48 53\twhich'], /^coref\[line 1\]: T1 is defined twice \(among the given proteins\)/],
  ])('refuses %j', (lines, message) => {
    const answer = coref(lines);
    expect(issues(answer.errors)).toEqual([expect.stringMatching(message)]);
    expect(answer.result.COREF).toBeUndefined();
  });

  it('refuses a coref value that is not a string', () => {
    expect(issues(coref({ T1: 'x' }).errors)).toEqual(['coref: expected a string of standoff lines, got struct']);
    expect(issues(coref(42).errors)).toEqual(['coref: expected a string of standoff lines, got number 42']);
  });

  it('reports every bad line', () => {
    const answer = coref(['T5 Exp', T4, 'T6\tExp 0 1\tx', 'R1\tCoref Anaphora:T4 Antecedent:T8']);
    expect(answer.errors.map((e) => e.path)).toEqual(['coref[line 1]', 'coref[line 3]', 'coref[line 4]']);
  });

  it('does not pile a link error onto an expression that already failed its own check', () => {
    const answer = coref(['T5\tExp 49 54\twhich', 'R1\tCoref Anaphora:T5 Antecedent:T1']);
    expect(answer.errors.map((e) => e.path)).toEqual(['coref[line 1]']);
  });

  it('accepts a repeated given protein line, ignores annotator notes and self-links with warnings', () => {
    const answer = coref(['T1\tProtein 63 66\tp65', T4, '#1\tAnnotatorNotes T4\tunsure', 'R1\tCoref Anaphora:T4 Antecedent:T4']);
    expect(answer.errors).toEqual([]);
    expect(answer.warnings.map((w) => w.path)).toEqual(['coref[line 3]', 'coref[line 4]']);
    expect(answer.result.COREF).toEqual({ expressions: [{ id: 'T4', start: 48, end: 53, text: 'which' }], links: [] });
  });
});
