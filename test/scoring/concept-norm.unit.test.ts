// NORM rule by rule: BC5CDR_Evaluation 0.0.3 (mention, id) and NLM-Chem's evaluate.py
// (span strict/approx, identifier strict), each rule a worked example; and the BC5CDR
// tool's own sample, whose figures the shipped jar prints.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readNormFile } from '../../src/families/mention/norm-input.ts';
import { bc5cdrIds, scoreNorm, storedNormAnnotation, type NormAnnotation } from '../../src/scoring/concept-norm.ts';
import { ScoringInputError } from '../../src/scoring/errors.ts';

const a = (doc: string, start: number, end: number, type: string, ids?: string, extra: Partial<NormAnnotation> = {}): NormAnnotation => ({
  doc,
  start,
  end,
  type,
  text: `t${start}-${end}`,
  bc5cdrIds: ids,
  identifier: ids,
  ...extra,
});

describe('BC5CDR ids (finalizeConceptId)', () => {
  it('splits on | only, drops -1 and empty parts, and reads a bare accession as MeSH', () => {
    expect(bc5cdrIds('D001|MESH:D002|-1||OMIM:123456')).toEqual(['MESH:D001', 'MESH:D002', 'OMIM:123456']);
    expect(bc5cdrIds('D001,D002')).toEqual(['MESH:D001,D002']);
    expect(bc5cdrIds(' D001 ')).toEqual(['MESH:D001']);
    expect(bc5cdrIds('-1')).toEqual([]);
    expect(bc5cdrIds(undefined)).toEqual([]);
  });
});

describe('eval_mention', () => {
  it('matches doc, start, end and type; repeats count once', () => {
    const gold = [a('1', 0, 5, 'Disease'), a('1', 0, 5, 'Disease'), a('1', 10, 15, 'Disease')];
    const run = [a('1', 0, 5, 'Disease'), a('1', 10, 15, 'Chemical'), a('1', 10, 14, 'Disease')];
    expect(scoreNorm(gold, run).mention).toEqual({ tp: 1, fp: 2, fn: 1, p: 1 / 3, r: 0.5, f: (2 * (1 / 3) * 0.5) / (1 / 3 + 0.5) });
  });

  it('drops predictions in documents without a gold item of the types scored', () => {
    const gold = [a('1', 0, 5, 'Disease'), a('2', 0, 5, 'Chemical')];
    const run = [a('1', 0, 5, 'Disease'), a('2', 7, 9, 'Disease'), a('3', 0, 5, 'Disease')];
    // With --type Disease, document 2 has no gold Disease: its prediction is not a false positive.
    expect(scoreNorm(gold, run, { type: 'Disease' }).mention).toMatchObject({ tp: 1, fp: 0, fn: 0 });
    // With every type, document 2 has gold (a Chemical): the Disease there is one.
    expect(scoreNorm(gold, run).mention).toMatchObject({ tp: 1, fp: 1, fn: 1 });
  });

  it('gives 0 where the tool divides 0 by 0 (it prints NaN)', () => {
    expect(scoreNorm([], [a('1', 0, 5, 'Disease')]).mention).toEqual({ tp: 0, fp: 0, fn: 0, p: 0, r: 0, f: 0 });
  });

  it('leaves out BioC individual mentions (their ids still count)', () => {
    const gold = [a('1', 0, 20, 'Disease', 'D000001|D000002'), a('1', 0, 5, 'Disease', 'D000001', { individual: true })];
    const run = [a('1', 0, 5, 'Disease', 'D000001')];
    const score = scoreNorm(gold, run);
    expect(score.mention).toMatchObject({ tp: 0, fp: 1, fn: 1 });
    expect(score.id).toMatchObject({ tp: 1, fp: 0, fn: 1 });
  });
});

describe('eval_id', () => {
  it('compares the set of (doc, type, id) of each document, bare and MESH: alike', () => {
    const gold = [a('1', 0, 5, 'Disease', 'D000001'), a('1', 9, 12, 'Disease', 'D000001|D000002'), a('1', 20, 25, 'Disease', '-1')];
    const run = [
      a('1', 30, 35, 'Disease', 'MESH:D000001'),
      a('1', 40, 45, 'Chemical', 'D000002'),
      a('1', 50, 55, 'Disease', 'OMIM:100000'),
    ];
    expect(scoreNorm(gold, run).id).toMatchObject({ tp: 1, fp: 2, fn: 1 });
  });
});

describe('evaluate.py', () => {
  it('span strict: (doc, type, span, text) sets, zero-length annotations ignored', () => {
    const gold = [a('1', 0, 5, 'Chemical'), a('1', 7, 7, 'Chemical'), a('1', 9, 12, 'Chemical')];
    const run = [
      a('1', 0, 5, 'Chemical'),
      a('1', 0, 5, 'Chemical'),
      a('1', 7, 7, 'Chemical'),
      a('1', 9, 12, 'Chemical', undefined, { text: 'other' }),
    ];
    expect(scoreNorm(gold, run).span.strict).toEqual({ p: 0.5, r: 0.5, f: 0.5 });
  });

  it('span approx: each side counts its annotations overlapping any span of the other side in the document, of any type', () => {
    const gold = [a('1', 0, 10, 'Chemical'), a('1', 20, 30, 'Chemical'), a('2', 0, 10, 'Chemical')];
    const run = [a('1', 5, 25, 'Disease'), a('1', 10, 12, 'Chemical'), a('2', 10, 20, 'Chemical')];
    // Gold: [0,10) and [20,30) overlap [5,25); document 2's [0,10) touches [10,20) only at its end. Run: [5,25) overlaps.
    expect(scoreNorm(gold, run).span.approx).toEqual({ p: 1 / 3, r: 2 / 3, f: (2 * (1 / 3) * (2 / 3)) / (1 / 3 + 2 / 3) });
    expect(scoreNorm(gold, run, { type: 'Chemical' }).span.approx).toEqual({ p: 0, r: 0, f: 0 });
  });

  it('identifier strict: the identifier text split on commas only, -1 an identifier like any other', () => {
    const gold = [
      a('1', 0, 5, 'Chemical', 'D000001,D000002'),
      a('1', 9, 12, 'Chemical', 'D000003|D000004'),
      a('1', 20, 22, 'Chemical', '-1'),
    ];
    const run = [
      a('1', 30, 35, 'Chemical', 'D000002'),
      a('1', 40, 42, 'Chemical', 'D000003'),
      a('1', 50, 52, 'Chemical', '-1'),
      a('1', 60, 62, 'Chemical', 'MESH:D000001'),
    ];
    expect(scoreNorm(gold, run).identifier.strict).toEqual({ p: 0.5, r: 0.5, f: 0.5 });
  });

  it('gives 0 for every figure without a true positive', () => {
    expect(scoreNorm([a('1', 0, 5, 'Chemical', 'D000001')], [a('1', 0, 4, 'Chemical', 'D000002')]).span.strict).toEqual({
      p: 0,
      r: 0,
      f: 0,
    });
  });
});

describe('stored ids (brat N lines, online answers)', () => {
  it('reads each stored id as its own id for both tools', () => {
    const gold = storedNormAnnotation({ doc: '1', start: 0, end: 5, type: 'Disease', text: 'x', ids: ['MESH:D000001', 'OMIM:100000'] });
    expect(gold).toMatchObject({ bc5cdrIds: 'MESH:D000001|OMIM:100000', identifier: 'MESH:D000001,OMIM:100000' });
    expect(storedNormAnnotation({ doc: '1', start: 0, end: 5, type: 'Disease' })).toMatchObject({
      bc5cdrIds: undefined,
      identifier: undefined,
    });
  });
});

describe("the BC5CDR tool's own sample", () => {
  const fixture = (name: string) => {
    const path = `test/fixtures/bc5cdr-eval/${name}`;
    return readNormFile(readFileSync(path, 'utf8'), path).annotations;
  };
  const score = scoreNorm(fixture('CDR_sample.gold.PubTator'), fixture('CDR_sample.test.DNER.PubTator'), { type: 'Disease' });

  it('eval_mention.sh: TP 303, FP 105, FN 121, as its readme prints', () => {
    expect(score.mention).toEqual({ tp: 303, fp: 105, fn: 121, p: 0.7426470588235294, r: 0.714622641509434, f: 0.7283653846153848 });
  });

  it('eval_id.sh: TP 149, FP 57, FN 65, as the shipped jar prints (its readme says 150, 56, 64)', () => {
    expect(score.id).toEqual({ tp: 149, fp: 57, fn: 65, p: 0.7233009708737864, r: 0.6962616822429907, f: 0.7095238095238096 });
  });
});

describe('reading ids', () => {
  it('refuses a composite id written wrong, naming the file and line', () => {
    const text =
      '1|t|breast and ovarian cancer\n1|a|x\n1\t0\t6\tbreast\tDisease\tD001943\n1\t0\t25\tbreast and ovarian cancer\tDisease\tD001943+D010051\n';
    const error = (() => {
      try {
        readNormFile(text, 'gold.pubtator');
      } catch (e) {
        return e as ScoringInputError;
      }
    })();
    expect(error).toBeInstanceOf(ScoringInputError);
    expect(error).toMatchObject({ file: 'gold.pubtator', line: 4 });
    expect(error!.message).toContain('D001943+D010051');
  });

  it('reads BioC ids from MESH (else OMIM) for BC5CDR and from identifier for evaluate.py', () => {
    const xml =
      '<collection><source/><date/><key/><document><id>9</id><passage><offset>0</offset><text>aspirin and fever</text>' +
      '<annotation id="1"><infon key="type">Chemical</infon><infon key="MESH">D001241</infon><location offset="0" length="7"/><text>aspirin</text></annotation>' +
      '<annotation id="2"><infon key="type">Disease</infon><infon key="identifier">MESH:D005334</infon><infon key="OMIM">100000</infon><location offset="12" length="5"/><text>fever</text></annotation>' +
      '</passage></document></collection>';
    expect(readNormFile(xml, 'x.xml').annotations.map((n) => [n.bc5cdrIds, n.identifier])).toEqual([
      ['D001241', undefined],
      ['100000', 'MESH:D005334'],
    ]);
  });
});
