// The sample annotator's CREL rule (src/sample/annotator.ts; examples/* hold the same):
// the first two distinct ids its mentions carry, CID for a chemical and a disease.
import { describe, expect, it } from 'vitest';
import { findConceptRelations } from '../../../src/sample/annotator.ts';

const mention = (type: string, ids: string[]) => ({ offset: 0, mention: 'x', type, ids });

describe("the sample annotator's concept relations", () => {
  it('relates a chemical and a disease by CID, the chemical first', () => {
    expect(findConceptRelations([mention('Disease', ['MESH:D006323']), mention('Chemical', ['MESH:D008012'])])).toEqual([
      { type: 'CID', concept1: 'MESH:D008012', concept2: 'MESH:D006323', rank: 1, confidence: 0.5 },
    ]);
  });

  it('relates any other first two ids by a novel Association, an id carried twice counting once', () => {
    const mentions = [
      mention('protein', ['NCBIGene:6331']),
      mention('protein', ['NCBIGene:6331']),
      mention('Disease', ['MESH:D1', 'MESH:D2']),
    ];
    expect(findConceptRelations(mentions)).toEqual([
      { type: 'Association', concept1: 'NCBIGene:6331', concept2: 'MESH:D1', novelty: 'Novel', rank: 1, confidence: 0.5 },
    ]);
  });

  it('relates nothing when the mentions carry fewer than two ids', () => {
    expect(findConceptRelations([mention('protein', ['NCBIGene:1'])])).toEqual([]);
    expect(findConceptRelations([{ offset: 0, mention: 'BRCA1', type: 'protein' }])).toEqual([]);
  });
});
