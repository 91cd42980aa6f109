import { describe, expect, it } from 'vitest';
import { validateAnswer } from '../../src/families/validate.ts';
import { context } from '../tasks/helpers.ts';
import { annotate } from '../../src/sample/annotator.ts';

// Offsets in these tests are code points; `cp` finds one the way a Python team would.
const cp = (text: string, needle: string, from = 0): number => {
  const points = Array.from(text);
  const want = Array.from(needle);
  for (let i = from; i + want.length <= points.length; i++) {
    if (want.every((ch, j) => points[i + j] === ch)) return i;
  }
  throw new Error(`${needle} not in text`);
};

const SAMPLE_TEXT =
  '𝛼-synuclein (P37840) binds BRCA1 and forms a complex with Q9UQ84 😀. It also interacts with A0A023GPI8; they bind IL2R and p53.';

describe('annotate', () => {
  it('classifies by interaction words with confidence n/(n+1)', () => {
    expect(annotate(SAMPLE_TEXT).interaction).toEqual([true, 4 / 5]); // binds, complex, interacts, bind
    expect(annotate('Nothing of interest here.').interaction).toEqual([false, 0.5]);
    expect(annotate('BINDING').interaction).toEqual([true, 0.5]);
  });

  it('normalises well-formed accessions standing as words, once, in first-occurrence order', () => {
    const answer = annotate('P37840 and XP12345 and P123456 and A0A023GPI8, then P37840 and Q9ZFS6-2 and p12345.');
    expect(answer.normalizations).toEqual([
      { dbid: 'P37840', dbname: 'UniProt', rank: 1, confidence: 1 / 2 },
      { dbid: 'A0A023GPI8', dbname: 'UniProt', rank: 2, confidence: 1 / 3 },
      { dbid: 'Q9ZFS6', dbname: 'UniProt', rank: 3, confidence: 1 / 4 },
    ]);
    expect(answer.pairs).toEqual([
      { a: 'P37840', b: 'A0A023GPI8', rank: 1, confidence: 1 / 2 },
      { a: 'A0A023GPI8', b: 'Q9ZFS6', rank: 2, confidence: 1 / 3 },
    ]);
  });

  it('finds gene-like mentions with code-point offsets after non-BMP characters', () => {
    const mentions = annotate(SAMPLE_TEXT).mentions as Array<{ offset: number; mention: string }>;
    expect(mentions.map((m) => m.mention)).toEqual(['BRCA1', 'IL2R']);
    // BRCA1 is in the sample's dictionary of ids, IL2R is not: no ids.
    expect(mentions[0]).toEqual({
      offset: cp(SAMPLE_TEXT, 'BRCA1'),
      mention: 'BRCA1',
      type: 'protein',
      ids: ['NCBIGene:672'],
      confidence: 0.9,
    });
    expect(mentions[1]).not.toHaveProperty('ids');
    // the UTF-16 index is one larger because of the leading 𝛼: the answer must not use it
    expect(mentions[0].offset).toBe(SAMPLE_TEXT.indexOf('BRCA1') - 1);
    for (const m of mentions)
      expect(
        Array.from(SAMPLE_TEXT)
          .slice(m.offset, m.offset + m.mention.length)
          .join(''),
      ).toBe(m.mention);
    expect(annotate('Il2r1 x').mentions).toEqual([{ offset: 0, mention: 'Il2r1', type: 'protein', confidence: 0.6 }]);
  });

  it("puts its dictionary's gene ids on the mentions, valid for a challenge that accepts NCBIGene for proteins and one without namespaces", () => {
    const text = 'TP53 and MDM2 bind CD4, not IL2R.';
    const mentions = annotate(text).mentions as Array<{ mention: string; ids?: string[] }>;
    expect(mentions.map((m) => [m.mention, m.ids])).toEqual([
      ['TP53', ['NCBIGene:7157']],
      ['MDM2', ['NCBIGene:4193']],
      ['CD4', ['NCBIGene:920']],
      ['IL2R', undefined],
    ]);
    for (const mentionNamespaces of [undefined, { protein: ['NCBIGene'] }]) {
      const checked = validateAnswer({ mentions }, context({ tasks: ['MENTION'], text, mentionNamespaces }));
      expect(checked.errors).toEqual([]);
      expect(checked.result.MENTION?.map((m) => m.ids)).toEqual([['NCBIGene:7157'], ['NCBIGene:4193'], ['NCBIGene:920'], undefined]);
    }
    // A challenge that takes MeSH only for proteins refuses them, at their path.
    const strict = validateAnswer({ mentions }, context({ tasks: ['MENTION'], text, mentionNamespaces: { '*': ['MESH'] } }));
    expect(strict.errors.map((e) => e.path)).toEqual(['mentions[0].ids[0]', 'mentions[1].ids[0]', 'mentions[2].ids[0]']);
  });

  it('links pronouns to the nearest preceding given protein in standoff', () => {
    const s = cp(SAMPLE_TEXT, 'synuclein');
    const b = cp(SAMPLE_TEXT, 'BRCA1');
    const given = `T1\tProtein ${s} ${s + 9}\tsynuclein\nT2\tProtein ${b} ${b + 5}\tBRCA1\n`;
    const it1 = cp(SAMPLE_TEXT, 'It');
    const they = cp(SAMPLE_TEXT, 'they');
    expect(annotate(SAMPLE_TEXT, given).coref).toBe(
      [
        `T3\tExp ${b} ${b + 5}\tBRCA1`,
        `T4\tExp ${it1} ${it1 + 2}\tIt`,
        `T5\tExp ${they} ${they + 4}\tthey`,
        'R1\tCoref Anaphora:T4 Antecedent:T3 [T2]',
        'R2\tCoref Anaphora:T5 Antecedent:T3 [T2]',
      ].join('\n'),
    );
  });

  it('answers the LitCovid topics whose stem occurs, in the list order, confidence n/(n+1)', () => {
    expect(annotate('Forecasts of transmission; TREATMENT, treated, untreated.').topics).toEqual([
      { label: 'Treatment', confidence: 3 / 4 },
      { label: 'Transmission', confidence: 1 / 2 },
      { label: 'Epidemic Forecasting', confidence: 1 / 2 },
    ]);
    expect(annotate('Nothing here.').topics).toEqual([]);
  });

  it('answers coref with an empty string when nothing is given or nothing links', () => {
    expect(annotate(SAMPLE_TEXT).coref).toBe('');
    expect(annotate('It came first. BRCA1 later.', 'T1\tProtein 15 20\tBRCA1').coref).toBe('');
  });

  it('is deterministic and answers all nine keys', () => {
    expect(Object.keys(annotate(''))).toEqual([
      'interaction',
      'normalizations',
      'pairs',
      'mentions',
      'coref',
      'taxons',
      'topics',
      'relations',
      'concept_relations',
    ]);
    expect(annotate(SAMPLE_TEXT, 'T1\tProtein 0 1\tx')).toEqual(annotate(SAMPLE_TEXT, 'T1\tProtein 0 1\tx'));
  });
});
