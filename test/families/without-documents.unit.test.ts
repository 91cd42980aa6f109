// Every family's gold standard without some of its documents (FamilyScoring.withoutDocuments,
// which leaves background articles out of the leaderboards) is the gold standard of the
// other documents alone: the same structure as reading a file that never held them, and the
// value it was made from unchanged.
import { describe, expect, it } from 'vitest';
import { ALL_FAMILIES, familyOf, type TaskName } from '../../src/families/registry.ts';
import { A1, GOLD_A2 } from '../scoring/coref-fixtures.ts';

/** A gold body of each family holding documents "keep" and "drop", and one holding "keep" alone. */
const GOLDS: Record<string, { both: unknown; kept: unknown }> = (() => {
  const tsv = (rows: Record<string, string[]>) => (ids: string[]) =>
    ids.map((id) => rows[id].map((r) => `${id}\t${r}\n`).join('')).join('');
  const text = (rows: Record<string, string[]>) => ({ both: tsv(rows)(['keep', 'drop']), kept: tsv(rows)(['keep']) });
  const json = (docs: Record<string, unknown>) => ({ both: { documents: docs }, kept: { documents: { keep: docs.keep } } });
  const rel = (ids: string[]) => ({
    entities: ids.map((id) => `${id}\tT1\tCHEMICAL\t0\t7\taspirin\n${id}\tT2\tGENE-Y\t20\t24\tCOX2\n`).join(''),
    relations: ids.map((id) => `${id}\tINHIBITOR\tArg1:T1\tArg2:T2\n`).join(''),
  });
  return {
    ACT: text({ keep: ['1'], drop: ['0'] }),
    INT: text({ keep: ['P12345', 'P67890'], drop: ['Q13547'] }),
    IPT: text({ keep: ['P12345\tP67890'], drop: ['Q13547\tP04637'] }),
    TX: text({ keep: ['9606'], drop: ['10090'] }),
    MENTION: json({ keep: { ann: 'T1\tGene 0 5\tBRCA1\n' }, drop: { ann: 'T1\tChemical 0 7\taspirin\n' } }),
    COREF: json({ keep: { a1: A1, a2: GOLD_A2 }, drop: { a1: A1, a2: GOLD_A2 } }),
    REL: { both: rel(['keep', 'drop']), kept: rel(['keep']) },
    CREL: text({ keep: ['CID\tD008012\tD006323'], drop: ['CID\tD008750\tD003866'] }),
    TOPIC: { both: 'keep,Treatment\ndrop,Diagnosis;Mechanism\n', kept: 'keep,Treatment\n' },
  };
})();

describe('a gold standard without some documents', () => {
  it('has a gold body for every family here', () => {
    expect(Object.keys(GOLDS).sort()).toEqual(ALL_FAMILIES.map((f) => f.name).sort());
  });

  it.each(Object.keys(GOLDS))('%s: is the gold of the other documents alone, the original unchanged', (task) => {
    const scoring = familyOf(task as TaskName).scoring;
    const both = scoring.parseGold(GOLDS[task].both).gold;
    const kept = scoring.parseGold(GOLDS[task].kept).gold;
    const before = structuredClone(both);
    const without = scoring.withoutDocuments(both, new Set(['drop', 'not-in-the-gold']));
    expect(without).toEqual(kept);
    expect([...scoring.goldDocuments(without)]).toEqual(['keep']);
    expect(both).toEqual(before);
    expect(scoring.withoutDocuments(both, new Set())).toEqual(both);
  });
});
