// The DrugProt evaluation library's rules (src/scoring/rel.ts, rules 1–8), each with a
// worked example computed by hand from the library's source.
import { describe, expect, it } from 'vitest';
import { ScoringInputError } from '../../src/scoring/errors.ts';
import { parsePmids, parseRelEntities, parseRelRelations } from '../../src/scoring/rel-input.ts';
import { emptyRelNotes, scoreRelations } from '../../src/scoring/rel.ts';
import { codePointOrder } from '../../src/shared/code-points.ts';

// Document 100: T1 CHEMICAL, T2 GENE, T3 GENE → pairs (T1,T2) cell 0, (T1,T3) cell 1.
// Document 200: T1 CHEMICAL, T2 CHEMICAL, T3 GENE → pairs (T1,T3), (T2,T3); the library
// starts it at the index of 100's last pair, so they are cells 1 and 2.
// Document 300: T1 GENE, T2 DISEASE → no pair.
const ENTITIES = parseRelEntities(
  [
    '100\tT1\tCHEMICAL\t0\t7\taspirin',
    '100\tT2\tGENE\t20\t25\tCOX-1',
    '100\tT3\tGENE\t30\t35\tCOX-2',
    '200\tT1\tCHEMICAL\t0\t4\tL-NMMA',
    '200\tT2\tCHEMICAL\t10\t15\tNO',
    '200\tT3\tGENE\t20\t24\tiNOS',
    '300\tT1\tGENE\t0\t3\tp53',
    '300\tT2\tDISEASE\t5\t10\tcancer',
    '',
  ].join('\n'),
);

const rels = (lines: string[]) => parseRelRelations(lines.map((l) => `${l}\n`).join(''));
const score = (gold: string[], predicted: string[], o: { pmids?: string[]; entities?: typeof ENTITIES } = {}) =>
  scoreRelations({
    entities: o.entities ?? ENTITIES,
    gold: rels(gold),
    predicted: rels(predicted),
    pmids: o.pmids ? new Set(o.pmids) : undefined,
  });

const GOLD = ['100\tINHIBITOR\tArg1:T1\tArg2:T2', '100\tACTIVATOR\tArg1:T1\tArg2:T3', '200\tINHIBITOR\tArg1:T2\tArg2:T3'];

describe('REL readers', () => {
  it('reads the DrugProt forms and refuses a line of another width with its number', () => {
    expect(ENTITIES).toHaveLength(8);
    expect(ENTITIES[0]).toEqual({ pmid: '100', id: 'T1', type: 'CHEMICAL', start: 0, end: 7, text: 'aspirin' });
    expect(rels(['100\tINHIBITOR\tArg1:T1\tArg2:T2'])[0]).toMatchObject({
      pmid: '100',
      type: 'INHIBITOR',
      arg1: 'Arg1:T1',
      arg2: 'Arg2:T2',
      line: 1,
    });
    const error = (() => {
      try {
        parseRelRelations('100\tINHIBITOR\tArg1:T1\tArg2:T2\n100\tINHIBITOR\tArg1:T1\n', { file: 'run.tsv' });
      } catch (e) {
        return e as ScoringInputError;
      }
    })();
    expect(error).toBeInstanceOf(ScoringInputError);
    expect(error!.message).toMatch(/^run\.tsv, line 2: has 3 non-empty tab-separated fields; a relation line has 4/);
    expect(() => parseRelEntities('100\tT1\tCHEMICAL\t0\t7\n')).toThrow(/line 1: has 5 tab-separated fields; an entity line has 6/);
    expect([...parsePmids('100\n 200 \n\n')]).toEqual(['100', '200']);
  });

  it('leaves out, unread, the lines of documents not in the list (rule 1)', () => {
    expect(parseRelRelations('100\tX\tArg1:T1\tArg2:T2\n999\tbroken line\n', { pmids: new Set(['100']) })).toHaveLength(1);
  });

  it('orders pmids as Python sorts strings', () => {
    expect(['9', '10', '100'].sort(codePointOrder)).toEqual(['10', '100', '9']);
  });
});

describe('REL scoring, rule by rule', () => {
  it('scores a perfect prediction 1 (3 cells, 3 found)', () => {
    const s = score(GOLD, GOLD);
    expect(s.micro).toEqual({ tp: 3, fp: 0, fn: 0, p: 1, r: 1, f: 1 });
    expect(s.pairs).toBe(4);
  });

  it('rule 1: drops predictions of documents off the pmids list, never gold', () => {
    // 200 is not listed: its predicted line goes, its gold line stays → TP 2, FN 1.
    const s = score(GOLD, GOLD, { pmids: ['100'] });
    expect(s.micro).toMatchObject({ tp: 2, fp: 0, fn: 1, p: 1, r: 2 / 3 });
  });

  it('rule 2: drops relations of a type outside the 13', () => {
    const s = score(GOLD, [...GOLD, '100\tCAUSES\tArg1:T1\tArg2:T3']);
    expect(s.micro).toMatchObject({ tp: 3, fp: 0 });
  });

  it('rule 3: counts a repeated line once, and a swapped or bare-id line as the same relation', () => {
    const s = score(GOLD, [...GOLD, GOLD[0], '100\tINHIBITOR\tArg1:T2\tArg2:T1', '100\tINHIBITOR\tT1\tT2']);
    expect(s.micro).toMatchObject({ tp: 3, fp: 0, fn: 0 });
    expect(s.predicted.relations).toBe(3);
  });

  it('rule 4: drops lines with two chemicals or none when there are several, keeps a single one', () => {
    // Two bad lines (T1–T2 of 200 are both chemicals; T2–T3 of 100 both genes): dropped,
    // so INDIRECT-UPREGULATOR is not a gold type and has no per-type figures.
    const two = score([...GOLD, '200\tINDIRECT-UPREGULATOR\tArg1:T1\tArg2:T2', '100\tINDIRECT-UPREGULATOR\tArg1:T2\tArg2:T3'], GOLD);
    expect(Object.keys(two.perType)).toEqual(['ACTIVATOR', 'INHIBITOR']);
    expect(two.gold.relations).toBe(3);
    // One bad line stays (the library's `if len(skip) > 1`): its type is a gold type, with
    // nothing to find (it is on no pair), so P = R = F = 0 for it.
    const notes = { gold: emptyRelNotes(), predicted: emptyRelNotes() };
    const one = scoreRelations(
      { entities: ENTITIES, gold: rels([...GOLD, '200\tINDIRECT-UPREGULATOR\tArg1:T1\tArg2:T2']), predicted: rels(GOLD) },
      notes,
    );
    expect(one.perType['INDIRECT-UPREGULATOR']).toEqual({ tp: 0, fp: 0, fn: 0, p: 0, r: 0, f: 0 });
    expect(one.micro).toMatchObject({ tp: 3, fp: 0, fn: 0 });
    expect(notes.gold).toMatchObject({ keptSingleBadLine: true, notOnPair: 1 });
  });

  it('rule 5: a relation on an entity the entities file lacks is neither a false positive nor a false negative', () => {
    const s = score(
      [...GOLD, '100\tINHIBITOR\tArg1:T1\tArg2:T9'],
      [...GOLD, '100\tAGONIST\tArg1:T1\tArg2:T8', '300\tAGONIST\tArg1:T1\tArg2:T2'],
    );
    expect(s.micro).toMatchObject({ tp: 3, fp: 0, fn: 0, p: 1, r: 1 });
    expect(s.gold).toEqual({ relations: 4, onPairs: 3 });
  });

  it('rule 5: a document left out of the prediction has all its gold relations missed', () => {
    const s = score(GOLD, GOLD.slice(0, 2));
    // 2 of 3 found: P 1, R 2/3, F 0.8.
    expect(s.micro).toMatchObject({ tp: 2, fp: 0, fn: 1, p: 1 });
    expect(s.micro.f).toBeCloseTo(0.8, 12);
  });

  it("rule 6: a document's last pair and the next document's first pair share a cell", () => {
    // Gold: 100 T1–T3 (cell 1); prediction: 200 T1–T3 (cell 1 too): the library counts a TP.
    const s = score(['100\tINHIBITOR\tArg1:T1\tArg2:T3'], ['200\tINHIBITOR\tArg1:T1\tArg2:T3']);
    expect(s.micro).toMatchObject({ tp: 1, fp: 0, fn: 0, p: 1, r: 1, f: 1 });
  });

  it('rule 6: a block of lines of a pmid seen again replaces the earlier one', () => {
    // 100's entities come in two blocks; the second (T3 GENE alone) has no chemical: no pair for 100.
    const entities = parseRelEntities(
      '100\tT1\tCHEMICAL\t0\t1\tx\n100\tT2\tGENE\t2\t3\ty\n200\tT1\tCHEMICAL\t0\t1\tx\n200\tT3\tGENE\t2\t3\ty\n100\tT3\tGENE\t4\t5\tz\n',
    );
    const s = score(['100\tINHIBITOR\tArg1:T1\tArg2:T2', '200\tINHIBITOR\tArg1:T1\tArg2:T3'], ['100\tINHIBITOR\tArg1:T1\tArg2:T2'], {
      entities,
    });
    expect(s.pairs).toBe(1);
    expect(s.gold).toEqual({ relations: 2, onPairs: 1 });
  });

  it('rule 7: micro P/R/F over all cells; with one pair in all, the share of the 13 cells that agree', () => {
    // Gold 3 cells, prediction 4 cells of which 2 right: P 2/4, R 2/3, F 4/7.
    const s = score(GOLD, [GOLD[0], GOLD[1], '100\tAGONIST\tArg1:T1\tArg2:T2', '200\tAGONIST\tArg1:T1\tArg2:T3']);
    expect(s.micro).toMatchObject({ tp: 2, fp: 2, fn: 1, p: 0.5 });
    expect(s.micro.r).toBeCloseTo(2 / 3, 12);
    expect(s.micro.f).toBeCloseTo(4 / 7, 12);
    const one = parseRelEntities('1\tT1\tCHEMICAL\t0\t1\tx\n1\tT2\tGENE\t2\t3\ty\n');
    // Gold INHIBITOR, prediction AGONIST on the only pair: 11 of 13 cells agree (both 0).
    const s1 = score(['1\tINHIBITOR\tArg1:T1\tArg2:T2'], ['1\tAGONIST\tArg1:T1\tArg2:T2'], { entities: one });
    expect(s1.micro.p).toBeCloseTo(11 / 13, 12);
    expect(s1.micro.f).toBeCloseTo(11 / 13, 12);
    expect(s1.micro.tp).toBe(0);
  });

  it('rule 8: per type for the gold types only, in the library order, 0 where undefined', () => {
    const s = score(GOLD, [GOLD[0], '100\tAGONIST\tArg1:T1\tArg2:T3']);
    expect(Object.keys(s.perType)).toEqual(['ACTIVATOR', 'INHIBITOR']);
    expect(s.perType.INHIBITOR).toEqual({ tp: 1, fp: 0, fn: 1, p: 1, r: 0.5, f: 2 / 3 });
    expect(s.perType.ACTIVATOR).toEqual({ tp: 0, fp: 0, fn: 1, p: 0, r: 0, f: 0 });
  });

  it('scores an empty prediction 0 (the library stops with an error)', () => {
    expect(score(GOLD, []).micro).toEqual({ tp: 0, fp: 0, fn: 3, p: 0, r: 0, f: 0 });
  });

  it('scores an empty prediction 0 also with one pair in the corpus, where rule 7 would give 12/13', () => {
    const one = parseRelEntities('1\tT1\tCHEMICAL\t0\t1\tx\n1\tT2\tGENE\t2\t3\ty\n');
    expect(score(['1\tINHIBITOR\tArg1:T1\tArg2:T2'], [], { entities: one }).micro).toEqual({ tp: 0, fp: 0, fn: 1, p: 0, r: 0, f: 0 });
  });

  it('pairs GENE-Y and GENE-N entities as GENE (the library knows only GENE and stops on them)', () => {
    const yn = parseRelEntities('1\tT1\tCHEMICAL\t0\t1\tx\n1\tT2\tGENE-Y\t2\t3\ty\n1\tT3\tGENE-N\t4\t5\tz\n');
    const s = score(['1\tINHIBITOR\tArg1:T1\tArg2:T2', '1\tAGONIST\tArg1:T1\tArg2:T3'], ['1\tINHIBITOR\tArg1:T1\tArg2:T2'], {
      entities: yn,
    });
    expect(s.pairs).toBe(2);
    expect(s.micro).toMatchObject({ tp: 1, fp: 0, fn: 1, p: 1, r: 0.5 });
    // A file that also has GENE: the library runs and leaves GENE-Y out; so do we (one pair, T1-T4).
    const mixed = parseRelEntities('1\tT1\tCHEMICAL\t0\t1\tx\n1\tT2\tGENE-Y\t2\t3\ty\n1\tT4\tGENE\t4\t5\tz\n');
    expect(score(['1\tINHIBITOR\tArg1:T1\tArg2:T2'], ['1\tINHIBITOR\tArg1:T1\tArg2:T2'], { entities: mixed }).pairs).toBe(1);
  });
});
