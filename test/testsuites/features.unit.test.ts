import { describe, expect, it } from 'vitest';
import { caseValues, entityFeatures, greekSpans, guessKind } from '../../src/testsuites/features.ts';
import { hasGenitive, hasPlural } from '../../src/testsuites/morphology.ts';

describe("entity features on the paper's examples", () => {
  it('death-associated protein 6 (Figure 1)', () => {
    expect(entityFeatures('death-associated protein 6', { source: 'HGNC ID: 2681 "Approved Gene Name" field' })).toMatchObject({
      kind: 'name',
      length: 3,
      case: ['all-lower', 'lower-initial'],
      numeral: true,
      'numeral.type': ['arabic'],
      'numeral.position': ['final'],
      punctuation: true,
      'punctuation.count': 1,
      'punctuation.which': ['hyphen'],
      greek: false,
      function_word: false,
      'function_word.count': 0,
      participle: true,
      'participle.type': ['past'],
      'participle.position': ['initial'],
      genitive: false,
      plural: false,
      'source.db': 'hgnc',
    });
  });

  it('scott of the antarctic: two medial function words', () => {
    expect(entityFeatures('scott of the antarctic', { source: 'FlyBase ID FBgn0015538' })).toMatchObject({
      kind: 'name',
      length: 4,
      case: ['all-lower', 'lower-initial'],
      numeral: false,
      punctuation: false,
      function_word: true,
      'function_word.count': 2,
      'function_word.which': ['of', 'the'],
      'function_word.position': ['medial'],
      common_word: true,
      'source.db': 'flybase',
    });
  });

  it('[beta]1 integrin: a PMC bracketed Greek letter in initial position', () => {
    expect(entityFeatures('[beta]1 integrin')).toMatchObject({
      kind: 'name',
      length: 2,
      case: ['all-lower'],
      greek: true,
      'greek.format': ['bracketed'],
      'greek.position': ['initial'],
      numeral: true,
      'numeral.position': ['medial'],
      'punctuation.which': ['bracket'],
      'punctuation.count': 2,
    });
  });

  it('12-LOX: numeral initial, followed by a dash (prediction 1 of §3)', () => {
    expect(entityFeatures('12-LOX')).toMatchObject({
      kind: 'symbol',
      length: 6,
      case: ['all-upper'],
      'numeral.type': ['arabic'],
      'numeral.position': ['initial'],
      'punctuation.which': ['hyphen'],
    });
  });

  it('p100 and bif: lower-case-initial symbols', () => {
    expect(entityFeatures('p100')).toMatchObject({
      kind: 'symbol',
      length: 4,
      case: ['all-lower', 'lower-initial'],
      'numeral.position': ['final'],
    });
    expect(entityFeatures('bif')).toMatchObject({ kind: 'symbol', length: 3, case: ['all-lower', 'lower-initial'], numeral: false });
  });

  it('numeral positions: glucose 6 phosphate dehydrogenase vs alcohol dehydrogenase 6', () => {
    expect(entityFeatures('glucose 6 phosphate dehydrogenase')['numeral.position']).toEqual(['medial']);
    expect(entityFeatures('alcohol dehydrogenase 6')['numeral.position']).toEqual(['final']);
    expect(entityFeatures('heat shock protein 60')).toMatchObject({ length: 4, 'numeral.position': ['final'] });
  });

  it('apoptosis antagonizing transcription factor: a medial present participle', () => {
    expect(entityFeatures('apoptosis antagonizing transcription factor')).toMatchObject({
      participle: true,
      'participle.type': ['present'],
      'participle.position': ['medial'],
      plural: false,
    });
  });

  it('Pray For Elves, ken and barbie, bag of marbles: case, stopwords, plurals', () => {
    expect(entityFeatures('Pray For Elves')).toMatchObject({
      case: ['each-word-upper-initial'],
      'function_word.which': ['for'],
      plural: true,
    });
    expect(entityFeatures('ken and barbie')).toMatchObject({
      'function_word.which': ['and'],
      'function_word.position': ['medial'],
      common_word: true,
    });
    expect(entityFeatures('bag of marbles')).toMatchObject({ plural: true, 'function_word.count': 1 });
  });

  it('INNER NO OUTER: an all-upper multi-word name', () => {
    expect(entityFeatures('INNER NO OUTER')).toMatchObject({ kind: 'name', case: ['all-upper'], 'function_word.which': ['no'] });
  });

  it("A' and Parkinson's disease: apostrophes with and without a genitive", () => {
    expect(entityFeatures("A'")).toMatchObject({ 'punctuation.which': ['apostrophe'], genitive: false });
    expect(entityFeatures("Parkinson's disease")).toMatchObject({ 'punctuation.which': ['apostrophe'], genitive: true, plural: false });
  });
});

describe('feature details', () => {
  it('Greek letters in three formats and positions', () => {
    expect(greekSpans('TNF-\u03b1').map((g) => g.format)).toEqual(['symbol']);
    expect(greekSpans('TGF-beta').map((g) => g.format)).toEqual(['spelled']);
    expect(greekSpans('I[kappa]B[alpha]').map((g) => g.format)).toEqual(['bracketed', 'bracketed']);
    expect(entityFeatures('IkappaBalpha')).toMatchObject({ greek: true, 'greek.position': ['medial', 'final'], case: ['all-upper'] });
    // Not Greek: inside longer lower-case words, or short names in capitals.
    expect(greekSpans('alphabet')).toEqual([]);
    expect(greekSpans('rhomboid')).toEqual([]);
    expect(greekSpans('PI3K')).toEqual([]);
  });

  it('Roman numerals', () => {
    expect(entityFeatures('coagulation factor VIII')).toMatchObject({
      'numeral.type': ['roman'],
      'numeral.position': ['final'],
      case: ['all-lower', 'lower-initial'],
    });
    expect(entityFeatures('major histocompatibility complex, class II, DR beta 1')['numeral.type']).toEqual(['arabic', 'roman']);
    expect(entityFeatures('X-linked inhibitor of apoptosis')['numeral']).toBe(false);
  });

  it('case classes', () => {
    expect(caseValues('Notch')).toEqual(['upper-initial']);
    expect(caseValues('Cyclin B')).toEqual(['each-word-upper-initial']);
    expect(caseValues('hTERT')).toEqual(['mixed', 'lower-initial']);
    expect(caseValues('14-3-3zeta')).toEqual(['none']);
  });

  it('name vs symbol heuristic, and the override', () => {
    expect(guessKind('hedgehog')).toBe('name');
    expect(guessKind('hh')).toBe('symbol');
    expect(guessKind('Su(H)')).toBe('symbol');
    expect(entityFeatures('Abdominal-B').kind).toBe('symbol');
    expect(entityFeatures('Abdominal-B', { kind: 'name' })).toMatchObject({ kind: 'name', length: 1 });
  });

  it('single capital letters are not the article a', () => {
    expect(entityFeatures('HLA-A').function_word).toBe(false);
    expect(entityFeatures('a', { kind: 'symbol' })['function_word.which']).toEqual(['a']);
  });

  it('genitives and plurals', () => {
    expect(hasGenitive("Bloom's syndrome protein")).toBe(true);
    expect(hasGenitive('Bloom syndrome protein')).toBe(false);
    expect(hasPlural('discs large 1', 'name')).toBe(true);
    expect(hasPlural('Son of sevenless', 'name')).toBe(false);
    expect(hasPlural('Ras', 'symbol')).toBe(false);
  });
});
