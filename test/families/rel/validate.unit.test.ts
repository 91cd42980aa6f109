// REL answers (`relations`), validated as dispatch does: types of the challenge (DrugProt's
// 13 by default), arguments among the article's given entities, argument entity types when
// the challenge names them, no relation twice; each error at its item's path.
import { describe, expect, it } from 'vitest';
import { validateAnswer } from '../../../src/families/validate.ts';
import type { ValidationContext } from '../../../src/families/family.ts';
import { context, issues } from '../../tasks/helpers.ts';

export const TEXT = 'Aspirin inhibits COX-2 but not COX-1.';
// Both given forms: DrugProt entity lines and standoff lines.
export const GIVEN_DRUGPROT = '1\tT1\tCHEMICAL\t0\t7\tAspirin\n1\tT2\tGENE\t17\t22\tCOX-2\n1\tT3\tGENE\t31\t36\tCOX-1\n';
const GIVEN_STANDOFF = 'T1\tCHEMICAL 0 7\tAspirin\nT2\tGENE 17 22\tCOX-2\nT3\tGENE 31 36\tCOX-1\n';

const rel = (relations: unknown, o: Partial<ValidationContext> = {}) =>
  validateAnswer({ relations }, context({ tasks: ['REL'], text: TEXT, given: GIVEN_DRUGPROT, ...o }));

describe('REL answers', () => {
  it('keeps relations on given entities, with the entities they name', () => {
    for (const given of [GIVEN_DRUGPROT, GIVEN_STANDOFF]) {
      const answer = rel([{ type: 'INHIBITOR', arg1: 'T1', arg2: 'T2', confidence: 0.9, rank: 1 }], { given });
      expect(answer.errors).toEqual([]);
      expect(answer.result.REL).toEqual({
        relations: [{ type: 'INHIBITOR', arg1: 'T1', arg2: 'T2', confidence: 0.9, rank: 1 }],
        entities: [
          { id: 'T1', type: 'CHEMICAL', start: 0, end: 7, text: 'Aspirin' },
          { id: 'T2', type: 'GENE', start: 17, end: 22, text: 'COX-2' },
        ],
      });
    }
    expect(rel([]).result.REL).toEqual({ relations: [], entities: [] });
  });

  it('refuses an unknown type, an unknown entity and a relation given twice, each at its path', () => {
    const answer = rel([
      { type: 'CAUSES', arg1: 'T1', arg2: 'T2' },
      { type: 'INHIBITOR', arg1: 'T1', arg2: 'T9' },
      { type: 'INHIBITOR', arg1: 'T1', arg2: 'T3' },
      { type: 'INHIBITOR', arg1: 'T1', arg2: 'T3' },
    ]);
    expect(answer.result.REL).toBeUndefined();
    expect(issues(answer.errors)).toEqual([
      expect.stringMatching(
        /^relations\[0\]\.type: "CAUSES" is not a relation type of this challenge \(INDIRECT-DOWNREGULATOR, .*PART-OF\)$/,
      ),
      'relations[1].arg2: "T9" is not a given entity of this article (given: T1, T2, T3); name an entity by the id it was sent with',
      'relations[3]: repeats relations[2] (INHIBITOR T1 → T3); give each relation once',
    ]);
  });

  it("takes the challenge's own types, and refuses an argument of a type the challenge does not allow there", () => {
    const o = { relationTypes: ['binds'], relationArguments: { arg1: ['CHEMICAL'], arg2: ['GENE'] } };
    expect(rel([{ type: 'binds', arg1: 'T1', arg2: 'T2' }], o).errors).toEqual([]);
    expect(issues(rel([{ type: 'INHIBITOR', arg1: 'T2', arg2: 'T1' }], o).errors)).toEqual([
      'relations[0].type: "INHIBITOR" is not a relation type of this challenge (binds)',
      'relations[0].arg1: T2 is a GENE entity; this challenge takes CHEMICAL as arg1',
      'relations[0].arg2: T1 is a CHEMICAL entity; this challenge takes GENE as arg2',
    ]);
  });

  it('checks the struct, confidence and rank as every ranked answer', () => {
    expect(
      issues(rel([{ type: 'INHIBITOR', arg1: 'T1' }, 'x', { type: 'INHIBITOR', arg1: 'T1', arg2: 'T3', confidence: 2 }]).errors),
    ).toEqual([
      'relations[0].arg2: required field is missing',
      'relations[1]: expected a struct, got string "x"',
      'relations[2].confidence: 2 is not in (0,1]',
    ]);
    expect(issues(rel('INHIBITOR').errors)).toEqual([
      expect.stringMatching(/^relations: expected an array of structs \{type, arg1, arg2, confidence\?, rank\?\}/),
    ]);
  });

  it('says the article has no given entities when it has none', () => {
    expect(issues(rel([{ type: 'INHIBITOR', arg1: 'T1', arg2: 'T2' }], { given: '' }).errors)[0]).toMatch(
      /"T1" is not a given entity of this article \(it has none\)/,
    );
  });
});
