import { describe, expect, it } from 'vitest';
import { exportA2, importA1, importA2 } from '../../src/formats/a1a2.ts';
import { exportBio, importBio, tokenize } from '../../src/formats/bio.ts';
import { exportBrat, exportBratAnswer, importBrat } from '../../src/formats/brat.ts';
import { FormatError } from '../../src/formats/common.ts';
import { exportPubAnnotation, importPubAnnotation } from '../../src/formats/pubannotation.ts';
import { parseBratMentions } from '../../src/scoring/index.ts';
import { articles, corefA, mentionsA, spanOf, TEXT_A, TEXT_B } from './sample-articles.ts';

describe('brat standoff', () => {
  it('writes T lines with code-point offsets and notes for the extra fields', () => {
    const { txt, ann } = exportBrat(TEXT_A, mentionsA);
    // brat 1.3 reads CR LF as one character: the .txt has LF only and the offsets count it.
    expect(txt).toBe(TEXT_A.replace(/\r\n/g, '\n'));
    expect(ann.split('\n').slice(0, 6)).toEqual([
      'T1\tProtein 13 16\tp53',
      '#1\tAnnotatorNotes T1\tconfidence=0.9',
      'T2\tProtein 30 39\t𝛼-actinin',
      '#2\tAnnotatorNotes T2\trank=2 section=abstract',
      'T3\tProtein 113 117\tMDM2',
      'T4\tComplex 79 86\tcomplex',
    ]);
    expect([spanOf(TEXT_A, 'MDM2', 2).start, spanOf(TEXT_A, 'complex').start]).toEqual([114, 80]);
  });

  it('round-trips mentions exactly onto the article text, and onto the .txt as brat reads it', () => {
    const { txt, ann } = exportBrat(TEXT_A, mentionsA);
    expect(importBrat(TEXT_A, ann)).toEqual(mentionsA);
    expect(importBrat(txt, ann).map((m) => [m.start, m.text])).toEqual([
      [13, 'p53'],
      [30, '𝛼-actinin'],
      [113, 'MDM2'],
      [79, 'complex'],
    ]);
    const b = exportBratAnswer(articles[1], 'server-1');
    expect(importBrat(b.txt, b.ann)).toEqual(articles[1].answers[0].result.MENTION);
  });

  it('writes untyped mentions as "Mention" and refuses spans past the text', () => {
    const untyped = exportBrat(TEXT_B, [spanOf(TEXT_B, 'IL-2')]);
    expect(parseBratMentions(untyped.ann)[0].type).toBe('Mention');
    expect(() => importBrat('short', 'T1\tProtein 0 99\tshort')).toThrow(/past the end/);
    expect(() => importBrat('x', 'T1\tbroken')).toThrow(FormatError);
  });
});

describe('PubAnnotation JSON', () => {
  it('writes denotations and attributes', () => {
    const doc = exportPubAnnotation(TEXT_B, [{ ...spanOf(TEXT_B, 'IL-2'), type: 'Protein', confidence: 0.5 }], {
      sourcedb: 'bc2',
      sourceid: 'PMC002',
    });
    expect(doc).toEqual({
      text: TEXT_B,
      sourcedb: 'bc2',
      sourceid: 'PMC002',
      denotations: [{ id: 'T1', span: { begin: 18, end: 22 }, obj: 'Protein' }],
      relations: [],
      attributes: [{ id: 'A1', subj: 'T1', pred: 'confidence', obj: 0.5 }],
    });
    expect(Object.keys(doc)).toEqual(['text', 'sourcedb', 'sourceid', 'denotations', 'relations', 'attributes']);
  });

  it('round-trips mentions exactly, through JSON text', () => {
    expect(importPubAnnotation(JSON.stringify(exportPubAnnotation(TEXT_A, mentionsA)))).toEqual(mentionsA);
  });

  it('refuses spans outside the text', () => {
    expect(() => importPubAnnotation({ text: 'ab', denotations: [{ id: 'T1', span: { begin: 1, end: 3 }, obj: 'X' }] })).toThrow(
      /not within the text/,
    );
    expect(() => importPubAnnotation('[')).toThrow(/not JSON/);
  });
});

describe('CoNLL BIO', () => {
  it('tokenises words, single punctuation and non-BMP letters', () => {
    expect(tokenize('IL-2, 𝛼-actinin.').map((t) => t.text)).toEqual(['IL', '-', '2', ',', '𝛼', '-', 'actinin', '.']);
    expect(tokenize('MDM2ab', new Set([4])).map((t) => [t.text, t.start, t.end])).toEqual([
      ['MDM2', 0, 4],
      ['ab', 4, 6],
    ]);
  });

  it('writes IOB2 tags with a blank line after each sentence', () => {
    const { bio } = exportBio('The p53 gene. It binds\nMDM2.', [{ start: 4, end: 12, text: 'p53 gene', type: 'Gene' }]);
    expect(bio).toBe('The\tO\np53\tB-Gene\ngene\tI-Gene\n.\tO\n\nIt\tO\nbinds\tO\n\nMDM2\tO\n.\tO\n\n');
    expect(exportBio('', []).bio).toBe('');
  });

  it('round-trips flat mentions exactly through the scoring BIO parser and reports overlaps', () => {
    const mentions = [...mentionsA, { ...spanOf(TEXT_A, 'MDM2', 1), type: 'Protein' }].map(({ start, end, text, type }) => ({
      start,
      end,
      text,
      type,
    }));
    const overlapping = { ...spanOf(TEXT_A, 'actinin'), type: 'Protein' };
    const { bio, leftOut } = exportBio(TEXT_A, [...mentions, overlapping]);
    expect(leftOut).toEqual([overlapping]);
    expect(importBio(TEXT_A, bio)).toEqual([...mentions].sort((a, b) => a.start - b.start));
  });

  it('cuts tokens at mention boundaries inside words', () => {
    const text = 'anti-𝛽2microglobulin';
    const mention = { ...spanOf(text, '𝛽2'), type: 'Protein' };
    const { bio } = exportBio(text, [mention]);
    expect(importBio(text, bio)).toEqual([mention]);
  });

  it('refuses BIO tokens that do not match the text', () => {
    expect(() => importBio('The cat', 'The\tO\ndog\tO\n')).toThrow(/token "dog" does not match/);
    expect(() => importBio('The cat sat', 'The\tO\ncat\tO\n')).toThrow(/before the end of the text/);
    expect(() => importBio('a b', 'a\tO\nb\tI-X\n')).toThrow(FormatError);
  });
});

describe('BioNLP .a1/.a2', () => {
  it('writes expressions with minimal boundaries and links with proteins', () => {
    expect(exportA2(corefA)).toBe(
      [
        'T10\tExp 26 47\tThe 𝛼-actinin protein\t40 47\tprotein',
        'T11\tExp 69 71\tIt',
        'T12\tExp 105 107\tIt',
        'R1\tCoref Anaphora:T11 Antecedent:T10\t[T1]',
        'R2\tCoref Anaphora:T12 Antecedent:T11',
        '',
      ].join('\n'),
    );
  });

  it('round-trips COREF answers exactly through the scoring a2 parser', () => {
    expect(importA2(TEXT_A, exportA2(corefA))).toEqual(corefA);
    const twoProteins = {
      expressions: corefA.expressions,
      links: [{ id: 'R1', anaphor: 'T11', antecedent: 'T10', proteins: ['T5', 'T4'] }],
    };
    expect(importA2(TEXT_A, exportA2(twoProteins))).toEqual(twoProteins);
  });

  it('reads given proteins and refuses spans past the text', () => {
    expect(importA1('T1\tProtein 4 7\tp53\n')).toEqual([{ id: 'T1', start: 4, end: 7, text: 'p53' }]);
    expect(() => importA2('short', 'T1\tExp 0 50\tx\n')).toThrow(/past the end/);
  });
});
