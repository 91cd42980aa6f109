// Relations between concepts scored as BC5CDR's eval_relation.sh does, and with BioRED's
// four settings: a worked example per rule (src/scoring/README.md, "Relations between concepts").
import { describe, expect, it } from 'vitest';
import {
  ScoringInputError,
  cidConceptId,
  readCidBioc,
  readCidPubTator,
  scoreBiored,
  scoreCid,
  type CidBiocRecord,
  type ConceptRelation,
} from '../../src/scoring/index.ts';

const CID = new Set(['CID']);

describe("BC5CDR's eval_relation.sh", () => {
  it('prefixes bare ids with MESH:, keeps an id with a colon, and reads -1 or empty as null (finalizeConceptId)', () => {
    expect(cidConceptId('D008750')).toBe('MESH:D008750');
    expect(cidConceptId('OMIM:114480')).toBe('OMIM:114480');
    expect(cidConceptId('-1')).toBe('null');
    expect(cidConceptId('')).toBe('null');
    expect(cidConceptId(undefined)).toBe('null');
    // So a bare id matches its MESH: form, and two relations of unnormalised concepts match each other.
    const gold = [{ doc: '1', type: 'CID', id1: 'D1', id2: '-1' }];
    expect(scoreCid(gold, [{ doc: '1', type: 'CID', id1: 'MESH:D1', id2: '' }]).tp).toBe(1);
  });

  it('compares the ids in the order written: chemical then disease', () => {
    const gold = [{ doc: '1', type: 'CID', id1: 'D1', id2: 'D2' }];
    expect(scoreCid(gold, [{ doc: '1', type: 'CID', id1: 'D2', id2: 'D1' }])).toMatchObject({ tp: 0, fp: 1, fn: 1 });
  });

  it('counts a relation written twice once, on either side', () => {
    const r = { doc: '1', type: 'CID', id1: 'D1', id2: 'D2' };
    expect(scoreCid([r, r], [r, { ...r, id1: 'MESH:D1' }])).toMatchObject({ tp: 1, fp: 0, fn: 0, p: 1, r: 1, f: 1 });
  });

  it('drops predictions of documents without a gold relation, and gives 0 where the tool prints NaN', () => {
    const gold = [{ doc: '1', type: 'CID', id1: 'D1', id2: 'D2' }];
    const predicted = [
      { doc: '1', type: 'CID', id1: 'D1', id2: 'D3' },
      { doc: '2', type: 'CID', id1: 'D1', id2: 'D2' },
    ];
    expect(scoreCid(gold, predicted)).toEqual({ tp: 0, fp: 1, fn: 1, p: 0, r: 0, f: 0 });
    expect(scoreCid(gold, [])).toEqual({ tp: 0, fp: 0, fn: 1, p: 0, r: 0, f: 0 });
  });

  it('reads PubTator as the tool: trimmed lines, titles skipped, mention lines passed, other types ignored', () => {
    const text = [
      '1|t|Title',
      '1|a|Abstract',
      '1\t0\t5\tTitle\tChemical\tD1',
      '  1\tCID\tD1\tD2\t0.9  ',
      '1\tcid\tD1\tD3',
      '1\tCID\tD4\t-1\t\t',
      '',
      '2\tCID\tMESH:D5\tD6\r',
    ].join('\n');
    expect(readCidPubTator(text, CID)).toEqual([
      { doc: '1', type: 'CID', id1: 'D1', id2: 'D2' },
      { doc: '1', type: 'CID', id1: 'D4', id2: '-1' },
      { doc: '2', type: 'CID', id1: 'MESH:D5', id2: 'D6' },
    ]);
  });

  it('refuses, with the line, the lines the tool stops on', () => {
    for (const [line, why] of [
      ['lonely', /one field/],
      ['1\t0\t5\tTitle', /fifth/],
      ['1\tCID\tD1', /3 fields/],
      ['1\tCID\tD1\t', /3 fields/],
      ['1\t0\t99999999999\tx\tChemical', /2147483647/],
    ] as const) {
      const error = (() => {
        try {
          readCidPubTator(`1|t|T\n${line}\n`, CID, 'run.txt');
        } catch (e) {
          return e as ScoringInputError;
        }
      })();
      expect(error, line).toBeInstanceOf(ScoringInputError);
      expect(error!.line).toBe(2);
      expect(error!.message).toMatch(why);
    }
  });

  it('reads BioC relations from the relation, Chemical and Disease infons', () => {
    const records: CidBiocRecord[] = [
      { doc: '1', infons: { relation: 'CID', Chemical: 'D1', Disease: 'D2' } },
      { doc: '1', infons: { type: 'CID', Chemical: 'D1', Disease: 'D3' } },
      { doc: '2', infons: { relation: 'CID', Disease: 'D3' } },
    ];
    expect(readCidBioc(records, CID)).toEqual([
      { doc: '1', type: 'CID', id1: 'D1', id2: 'D2' },
      { doc: '2', type: 'CID', id1: undefined, id2: 'D3' },
    ]);
  });
});

describe("BioRED's four settings", () => {
  const gold: ConceptRelation[] = [
    { doc: '1', type: 'Association', concept1: 'MESH:D1', concept2: 'NCBIGene:6331', novelty: 'Novel' },
    { doc: '1', type: 'Negative_Correlation', concept1: 'MESH:D1', concept2: 'MESH:D8', novelty: 'No' },
  ];

  it('pair: the unordered pair of concepts of a document, whatever its type and novelty', () => {
    const score = scoreBiored(gold, [{ doc: '1', type: 'Bind', concept1: 'NCBIGene:6331', concept2: 'MESH:D1', novelty: 'No' }]);
    expect(score.pair).toMatchObject({ tp: 1, fp: 0, fn: 1 });
    expect(score.pairType).toMatchObject({ tp: 0, fp: 1, fn: 2 });
    expect(score.pairNovelty).toMatchObject({ tp: 0, fp: 1, fn: 2 });
    expect(score.all).toMatchObject({ tp: 0, fp: 1, fn: 2 });
  });

  it('pair and type: the type must match too; novelty not', () => {
    const score = scoreBiored(gold, [{ doc: '1', type: 'Association', concept1: 'MESH:D1', concept2: 'NCBIGene:6331', novelty: 'No' }]);
    expect(score.pairType).toMatchObject({ tp: 1, fp: 0, fn: 1 });
    expect(score.pairNovelty.tp).toBe(0);
    expect(score.all.tp).toBe(0);
  });

  it('pair and novelty: the novelty must match too; type not', () => {
    const score = scoreBiored(gold, [{ doc: '1', type: 'Bind', concept1: 'MESH:D1', concept2: 'MESH:D8', novelty: 'No' }]);
    expect(score.pairNovelty).toMatchObject({ tp: 1, fp: 0, fn: 1 });
    expect(score.pairType.tp).toBe(0);
  });

  it('all: pair, type and novelty; a relation without novelty matches none given (our choice)', () => {
    const score = scoreBiored(gold, [
      { doc: '1', type: 'Negative_Correlation', concept1: 'MESH:D8', concept2: 'MESH:D1', novelty: 'No' },
      { doc: '1', type: 'Association', concept1: 'MESH:D1', concept2: 'NCBIGene:6331' },
    ]);
    expect(score.all).toEqual({ tp: 1, fp: 1, fn: 1, p: 0.5, r: 0.5, f: 0.5 });
    expect(score.pair).toMatchObject({ tp: 2, fp: 0, fn: 0 });
  });

  it('micro-averages over documents; the same pair in another document is another relation', () => {
    const score = scoreBiored(gold, [{ doc: '2', type: 'Association', concept1: 'MESH:D1', concept2: 'NCBIGene:6331', novelty: 'Novel' }]);
    expect(score.all).toEqual({ tp: 0, fp: 1, fn: 2, p: 0, r: 0, f: 0 });
  });

  it('counts a key given twice once (a set per side)', () => {
    const twice = [gold[0], { ...gold[0], concept1: gold[0].concept2, concept2: gold[0].concept1 }];
    expect(scoreBiored(gold, twice).all).toMatchObject({ tp: 1, fp: 0, fn: 1 });
  });
});
