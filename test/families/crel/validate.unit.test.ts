// CREL answers (`concept_relations`), validated as dispatch does: types of the challenge
// (BioRED's eight and CID by default), novelty Novel or No, concepts named by ids the
// same answer's mentions carry; each error at its item's path, nothing stored.
import { describe, expect, it } from 'vitest';
import { validateCrel } from '../../../src/families/crel/validate.ts';
import { validateAnswer } from '../../../src/families/validate.ts';
import type { TaskInput, ValidationContext } from '../../../src/families/family.ts';
import type { MentionItem } from '../../../src/families/mention/types.ts';
import { Report } from '../../../src/tasks/checks.ts';
import { CodePointText } from '../../../src/shared/code-points.ts';
import { context, issues } from '../../tasks/helpers.ts';

export const TEXT = 'Lidocaine-induced cardiac asystole.';
/** The mentions as MENTION's validation keeps them, with their ids (the stored form). */
export const MENTIONS: MentionItem[] = [
  { start: 0, end: 9, text: 'Lidocaine', type: 'Chemical', ids: ['MESH:D008012'] },
  { start: 18, end: 34, text: 'cardiac asystole', type: 'Disease', ids: ['MESH:D006323'] },
];

function crel(value: unknown, o: Partial<ValidationContext> = {}, mentions: MentionItem[] | null = MENTIONS) {
  const report = new Report();
  const input: TaskInput = {
    ...context({ tasks: ['MENTION', 'CREL'], text: TEXT, ...o }),
    codePoints: new CodePointText(TEXT),
    answered: mentions === null ? {} : { mentions },
  };
  return { result: validateCrel(value, input, report), errors: issues(report.errors), warnings: issues(report.warnings) };
}

describe('CREL answers', () => {
  it('keeps relations between concepts the mentions carry, the pair in string order, with those mentions', () => {
    const answer = crel([{ type: 'CID', concept1: 'MeSH:D008012', concept2: 'MESH:D006323', confidence: 0.8, rank: 1 }]);
    expect(answer.errors).toEqual([]);
    expect(answer.result).toEqual({
      relations: [{ type: 'CID', concept1: 'MESH:D006323', concept2: 'MESH:D008012', confidence: 0.8, rank: 1 }],
      mentions: MENTIONS,
    });
    expect(crel([])).toMatchObject({ result: { relations: [], mentions: [] }, errors: [] });
  });

  it('keeps a BioRED novelty and refuses any other', () => {
    expect(
      crel([{ type: 'Association', concept1: 'MESH:D008012', concept2: 'MESH:D006323', novelty: 'Novel' }]).result?.relations[0].novelty,
    ).toBe('Novel');
    expect(crel([{ type: 'Association', concept1: 'MESH:D008012', concept2: 'MESH:D006323', novelty: 'yes' }]).errors).toEqual([
      'concept_relations[0].novelty: "yes" is not a novelty; send "Novel" (a finding of the article) or "No" (background)',
    ]);
  });

  it('refuses ids no mention carries (naming those they carry), ids without a namespace, an unknown type, a concept with itself', () => {
    const answer = crel([
      { type: 'CID', concept1: 'MESH:D008012', concept2: 'MESH:D006323' },
      { type: 'Causes', concept1: 'MESH:D008012', concept2: 'MESH:D006323' },
      { type: 'CID', concept1: 'MESH:D000001', concept2: 'MESH:D006323' },
      { type: 'CID', concept1: 'D008012', concept2: 'MESH:D006323' },
      { type: 'CID', concept1: 'MESH:D008012', concept2: 'MESH:D008012' },
    ]);
    expect(answer.result).toBeUndefined();
    expect(answer.errors).toEqual([
      'concept_relations[1].type: "Causes" is not a relation type of this challenge (Association, Positive_Correlation, Negative_Correlation, Bind, Cotreatment, Comparison, Drug_Interaction, Conversion, CID)',
      'concept_relations[2].concept1: MESH:D000001 is carried by no mention of this answer (the mentions carry MESH:D008012, MESH:D006323); relate concepts the mentions name',
      'concept_relations[3].concept1: "D008012" has no namespace; name the concept as the mention\'s ids do (NS:accession, e.g. MESH:D003693)',
      'concept_relations[4].concept2: MESH:D008012 is concept1 too; a relation joins two concepts',
    ]);
  });

  it("takes the challenge's own types", () => {
    expect(
      crel([{ type: 'Association', concept1: 'MESH:D008012', concept2: 'MESH:D006323' }], { conceptRelationTypes: ['CID'] }).errors,
    ).toEqual(['concept_relations[0].type: "Association" is not a relation type of this challenge (CID)']);
  });

  it('warns about the same type and unordered pair twice, and drops the repeat', () => {
    const answer = crel([
      { type: 'CID', concept1: 'MESH:D008012', concept2: 'MESH:D006323' },
      { type: 'CID', concept1: 'MESH:D006323', concept2: 'MESH:D008012' },
      { type: 'Association', concept1: 'MESH:D006323', concept2: 'MESH:D008012' },
    ]);
    expect(answer.errors).toEqual([]);
    expect(answer.warnings).toEqual([
      'concept_relations[1]: repeats concept_relations[0] (CID between MESH:D006323 and MESH:D008012); dropped',
    ]);
    expect(answer.result?.relations.map((r) => r.type)).toEqual(['CID', 'Association']);
  });

  it('refuses relations in an answer without mentions', () => {
    expect(crel([{ type: 'CID', concept1: 'MESH:D008012', concept2: 'MESH:D006323' }], {}, null).errors).toEqual([
      "concept_relations: relations name concepts by the ids of the answer's mentions, and this answer has no valid mentions; send the mentions with their ids in the same answer",
    ]);
  });
});

describe('the answer as dispatch validates it', () => {
  const relation = { type: 'CID', concept1: 'MESH:D008012', concept2: 'MESH:D006323' };
  const mentions = [{ offset: 0, mention: 'Lidocaine', type: 'Chemical' }];

  it('validates the mentions first, whatever the order of the keys, and stores nothing of a refused relation', () => {
    const answer = validateAnswer({ concept_relations: [relation], mentions }, context({ tasks: ['MENTION', 'CREL'], text: TEXT }));
    expect(answer.result.MENTION).toHaveLength(1);
    expect(answer.result.CREL).toBeUndefined();
    expect(issues(answer.errors)[0]).toMatch(/^concept_relations\[0\]\.concept1: MESH:D008012 is carried by no mention of this answer/);
  });

  it('reads the mentions for CREL when MENTION was not asked, without storing them as MENTION', () => {
    const answer = validateAnswer({ mentions, concept_relations: [] }, context({ tasks: ['CREL'], text: TEXT }));
    expect(answer.errors).toEqual([]);
    expect(answer.warnings).toEqual([]);
    expect(answer.result).toEqual({ CREL: { relations: [], mentions: [] } });
  });

  it('refuses CREL when the mentions themselves are refused', () => {
    const answer = validateAnswer(
      { mentions: [{ offset: 3, mention: 'Lidocaine' }], concept_relations: [relation] },
      context({ tasks: ['CREL'], text: TEXT }),
    );
    expect(answer.result).toEqual({});
    expect(issues(answer.errors).map((e) => e.split(':')[0])).toEqual(['mentions[0].mention', 'concept_relations']);
  });

  it('still ignores mentions, with a warning, when neither MENTION nor CREL reads them', () => {
    const answer = validateAnswer({ mentions }, context({ tasks: ['ACT'], text: TEXT }));
    expect(issues(answer.warnings)).toEqual(['mentions: task MENTION was not asked of this server; ignored']);
  });
});
