// CREL gold from the field's corpora (BC5CDR's and BioRED's PubTator files), the upload's
// relation lines and their errors, and the exports read back: PubTator by BC5CDR's reading
// (`metaserver score CID`) and as a corpus, BioC by the meta-server's import.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crel } from '../../../src/families/crel/index.ts';
import { corpusRelations } from '../../../src/families/crel/corpus.ts';
import { readRelationLines } from '../../../src/families/crel/files.ts';
import type { CrelResult } from '../../../src/families/crel/types.ts';
import { exportBiocXml, importBiocXml } from '../../../src/families/formats.ts';
import { readCorpusFile } from '../../../src/formats/corpus-file.ts';
import { readCidPubTator, ScoringInputError } from '../../../src/scoring/index.ts';

const FIXTURES = join(import.meta.dirname, '../../fixtures/pubtator');
const corpus = (name: string) => readCorpusFile(readFileSync(join(FIXTURES, name), 'utf8'), name);

describe('CREL gold from corpora', () => {
  it("reads BC5CDR's CID lines, bare MeSH ids in the stored form, chemical first", () => {
    const { relations, warnings } = corpusRelations(corpus('cdr-sample-4.txt'));
    expect(warnings).toEqual([]);
    expect(relations[0]).toEqual({ doc: '26094', type: 'CID', concept1: 'MESH:D008750', concept2: 'MESH:D003866' });
    expect(relations[1]).toEqual({ doc: '354896', type: 'CID', concept1: 'MESH:D008012', concept2: 'MESH:D006323' });
    expect(relations.every((r) => r.type === 'CID')).toBe(true);
  });

  it("reads BioRED's eight-type lines with novelty, each bare id in the namespace of the mentions carrying it", () => {
    const { relations, warnings } = corpusRelations(corpus('biored-test-1.txt'));
    expect(warnings).toEqual([]);
    expect(relations).toHaveLength(18);
    expect(relations[0]).toEqual({
      doc: '15485686',
      type: 'Association',
      concept1: 'MESH:D001919',
      concept2: 'NCBIGene:6331',
      novelty: 'Novel',
    });
    expect(relations[1].concept2).toBe('HGVS:p|SUB|V|1763|M');
    expect(relations[5]).toMatchObject({ type: 'Negative_Correlation', novelty: 'No' });
  });

  it('becomes the relation lines the upload reads, documents without a relation kept as gold documents', () => {
    const body = crel.scoring.corpus!.gold(corpus('biored-test-1.txt')).body as string;
    const gold = crel.scoring.parseGold(body);
    expect(gold).toMatchObject({ documents: 1, items: 18, warnings: [] });
    const scored = crel.scoring.score(gold.gold, gold.gold.relations, {});
    expect((scored.metrics as { all: { f: number } }).all.f).toBe(1);
  });
});

describe('CREL relation lines', () => {
  it('read bare ids from the mention lines of their document, and a CID line as chemical and disease', () => {
    const text = '1\t0\t4\tSCN5\tGene\t6331\n1\tAssociation\t6331\tMESH:D1\tNo\n2\tCID\tD2\tD3\t0.88\n';
    expect(readRelationLines(text).relations).toEqual([
      { doc: '1', type: 'Association', concept1: 'NCBIGene:6331', concept2: 'MESH:D1', novelty: 'No' },
      { doc: '2', type: 'CID', concept1: 'MESH:D2', concept2: 'MESH:D3' },
    ]);
  });

  it('refuse, with the line, a bare id no mention carries, a bad fifth column and a line of no form', () => {
    for (const [text, line, why] of [
      ['1|t|T\n1\tAssociation\t6331\tMESH:D1\n', 2, /has no namespace and no mention of document 1 carries it/],
      ['1\tCID\tD1\tD2\tmaybe\n', 1, /neither a novelty \(Novel, No\) nor a confidence/],
      ['1\tCID\n', 1, /neither a mention line/],
    ] as const) {
      let error: unknown;
      try {
        crel.scoring.parseGold(text);
      } catch (e) {
        error = e;
      }
      expect(error, text).toBeInstanceOf(ScoringInputError);
      expect((error as ScoringInputError).line).toBe(line);
      expect((error as ScoringInputError).message).toMatch(why);
    }
  });
});

const TEXT = 'Lidocaine-induced cardiac asystole.';
const RESULT: CrelResult = {
  relations: [
    { type: 'CID', concept1: 'MESH:D006323', concept2: 'MESH:D008012', confidence: 0.5, rank: 1 },
    { type: 'Association', concept1: 'MESH:D006323', concept2: 'MESH:D008012', novelty: 'Novel' },
  ],
  mentions: [
    { start: 0, end: 9, text: 'Lidocaine', type: 'Chemical', ids: ['MESH:D008012'] },
    { start: 18, end: 34, text: 'cardiac asystole', type: 'Disease', ids: ['MESH:D006323'] },
  ],
};
const DOCS = [{ id: '354896', text: TEXT, result: RESULT }];
const OPTIONS = { run: 'T1_S1', sourcedb: 'PubMed' };

describe('CREL exports', () => {
  it("write PubTator that BC5CDR's tool reads as the chemical-induced disease, and that reads back as the same relations", () => {
    const [file] = crel.exports.pubtator!(DOCS, OPTIONS).files;
    expect(file.content).toContain('354896\tCID\tD008012\tD006323\n');
    expect(file.content).toContain('354896\tAssociation\tD006323\tD008012\tNovel\n');
    expect(readCidPubTator(file.content, new Set(['CID']))).toEqual([{ doc: '354896', type: 'CID', id1: 'D008012', id2: 'D006323' }]);
    const back = corpusRelations(readCorpusFile(file.content, 'export'));
    expect(back.relations).toEqual([
      { doc: '354896', type: 'CID', concept1: 'MESH:D008012', concept2: 'MESH:D006323' },
      { doc: '354896', type: 'Association', concept1: 'MESH:D006323', concept2: 'MESH:D008012', novelty: 'Novel' },
    ]);
  });

  it("write BioC relations in BC5CDR's and BioRED's infons, which the import reads back to the same result", () => {
    const xml = exportBiocXml([{ id: '354896', text: TEXT, answers: [{ server: 'T1_S1', result: { CREL: RESULT } }] }]);
    const flat = xml.replace(/>\s+</g, '><');
    expect(flat).toContain('<infon key="relation">CID</infon><infon key="Chemical">D008012</infon><infon key="Disease">D006323</infon>');
    expect(flat).toContain('<infon key="entity1">D006323</infon><infon key="entity2">D008012</infon><infon key="novel">Novel</infon>');
    expect(importBiocXml(xml)[0].answers[0].result.CREL).toEqual(RESULT);
  });

  it('write PubAnnotation relations between the denotations of the two concepts', () => {
    const doc = JSON.parse(crel.exports.pubannotation!(DOCS, OPTIONS).files[0].content);
    expect(doc.denotations.map((d: { id: string; obj: string }) => [d.id, d.obj])).toEqual([
      ['T1', 'Chemical'],
      ['T2', 'Disease'],
    ]);
    expect(doc.relations).toEqual([
      { id: 'R1', subj: 'T1', obj: 'T2', pred: 'CID' },
      { id: 'R2', subj: 'T2', obj: 'T1', pred: 'Association' },
    ]);
  });
});

describe('CREL voting', () => {
  const answer = (serverId: number, weight: number, novelty?: 'Novel' | 'No') => ({
    serverId,
    weight,
    result: {
      relations: [{ type: 'Association', concept1: 'MESH:D006323', concept2: 'MESH:D008012', ...(novelty ? { novelty } : {}) }],
      mentions: RESULT.mentions,
    },
  });

  it('keeps a (type, pair) that reaches the threshold, its novelty the heavier among its voters', () => {
    const vote = crel.consensus!.vote(
      [answer(1, 1, 'Novel'), answer(2, 2, 'No'), { serverId: 3, weight: 1, result: { relations: [], mentions: [] } }],
      0.5,
    );
    expect(vote).toEqual({
      items: [{ type: 'Association', concept1: 'MESH:D006323', concept2: 'MESH:D008012', novelty: 'No', share: 0.75, servers: [1, 2] }],
      mentions: RESULT.mentions,
    });
    // A tie on novelty leaves it out; below the threshold nothing is kept.
    expect(crel.consensus!.vote([answer(1, 1, 'Novel'), answer(2, 1, 'No')], 0.5).items[0].novelty).toBeUndefined();
    expect(crel.consensus!.vote([answer(1, 1), { serverId: 2, weight: 3, result: { relations: [], mentions: [] } }], 0.5).items).toEqual(
      [],
    );
  });
});
