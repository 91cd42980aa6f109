// REL through the family: `metaserver score REL` (JSON, the notes on stderr, usage
// errors), gold and run uploads, online runs, BioC corpus gold, voting and the exports.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rel } from '../../../src/families/rel/index.ts';
import type { RelResult } from '../../../src/families/rel/types.ts';
import type { CorpusDocument } from '../../../src/formats/bioc-corpus.ts';
import { score, tsv } from '../../support/score-cli.ts';

const ENTITIES = tsv(
  '1 | T1 | CHEMICAL | 0 | 7 | Aspirin',
  '1 | T2 | GENE | 17 | 22 | COX-2',
  '1 | T3 | GENE | 31 | 36 | COX-1',
  '2 | T1 | CHEMICAL | 0 | 2 | NO',
  '2 | T2 | GENE | 10 | 14 | iNOS',
);
const GOLD = tsv('1 | INHIBITOR | Arg1:T1 | Arg2:T2', '2 | PRODUCT-OF | Arg1:T1 | Arg2:T2');

let dir: string;
const path = (name: string) => join(dir, name);
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rel-score-'));
  await writeFile(path('entities.tsv'), ENTITIES);
  await writeFile(path('gold.tsv'), GOLD);
  await writeFile(path('pmids.txt'), '1\n');
  // One right, one wrong type, one repeated, one of another document.
  await writeFile(
    path('run.tsv'),
    tsv(
      '1 | INHIBITOR | Arg1:T1 | Arg2:T2',
      '1 | AGONIST | Arg1:T1 | Arg2:T3',
      '1 | INHIBITOR | Arg1:T1 | Arg2:T2',
      '9 | INHIBITOR | Arg1:T1 | Arg2:T2',
    ),
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('metaserver score REL', () => {
  it('prints micro P/R/F and the gold types, and notes what it left out', async () => {
    const { code, out, err } = await score('REL', '--gold', path('gold.tsv'), '--entities', path('entities.tsv'), path('run.tsv'));
    expect(code).toBe(0);
    const report = JSON.parse(out);
    // Cells: gold 2, prediction 2 (the repeat counted once, document 9 not in the list): TP 1.
    expect(report.runs[0].run).toBe('run');
    expect(report.runs[0].metrics.micro).toEqual({ tp: 1, fp: 1, fn: 1, p: 0.5, r: 0.5, f: 0.5 });
    expect(Object.keys(report.runs[0].metrics.perType)).toEqual(['INHIBITOR', 'PRODUCT-OF']);
    expect(report.options).toEqual({ gold: path('gold.tsv'), entities: path('entities.tsv') });
    expect(err).toContain('note: run: run: 1 relation line(s) of documents not in the pmids list left out');
    expect(err).toContain('note: run: run: 1 repeated relation line(s) counted once');
  });

  it("with --pmids scores the listed documents' predictions only, the gold in full", async () => {
    const { out } = await score(
      'REL',
      '--gold',
      path('gold.tsv'),
      '--entities',
      path('entities.tsv'),
      '--pmids',
      path('pmids.txt'),
      '--format',
      'tsv',
      path('gold.tsv'),
    );
    const [head, row] = out
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(row[head.indexOf('micro.r')]).toBe('0.5');
    expect(row[head.indexOf('micro.p')]).toBe('1');
  });

  it('needs --entities, and refuses flags of other tasks', async () => {
    expect(await score('REL', '--gold', path('gold.tsv'), path('run.tsv'))).toMatchObject({
      code: 2,
      err: expect.stringContaining('REL needs --entities FILE'),
    });
    expect((await score('INT', '--gold', path('gold.tsv'), '--entities', path('entities.tsv'), path('run.tsv'))).err).toContain(
      '--entities does not apply to INT',
    );
  });

  it('scores GENE-Y and GENE-N entities (the DrugProt corpus writes them) as GENE, with a warning', async () => {
    await writeFile(
      path('entities-yn.tsv'),
      tsv('1 | T1 | CHEMICAL | 0 | 7 | Aspirin', '1 | T2 | GENE-Y | 17 | 22 | COX-2', '1 | T3 | GENE-N | 31 | 36 | COX-1'),
    );
    await writeFile(path('gold-yn.tsv'), tsv('1 | INHIBITOR | Arg1:T1 | Arg2:T2', '1 | INHIBITOR | Arg1:T1 | Arg2:T3'));
    await writeFile(path('run-yn.tsv'), tsv('1 | INHIBITOR | Arg1:T1 | Arg2:T2'));
    const { code, out, err } = await score('REL', '--gold', path('gold-yn.tsv'), '--entities', path('entities-yn.tsv'), path('run-yn.tsv'));
    expect(code).toBe(0);
    const metrics = JSON.parse(out).runs[0].metrics;
    // Two pairs (T1-T2, T1-T3); one of the two gold relations found: P 1, R 1/2 (they were all 0 before).
    expect(metrics.pairs).toBe(2);
    expect(metrics.micro).toMatchObject({ tp: 1, fp: 0, fn: 1, p: 1, r: 0.5 });
    expect(err).toContain(`warning: ${path('entities-yn.tsv')}: 1 GENE-Y, 1 GENE-N entities scored as GENE`);
    expect(err).not.toContain('make no pairs');
  });

  it('names the file and line of a line it cannot read', async () => {
    await writeFile(path('bad.tsv'), tsv('1 | INHIBITOR | Arg1:T1'));
    const { code, err } = await score('REL', '--gold', path('gold.tsv'), '--entities', path('entities.tsv'), path('bad.tsv'));
    expect(code).toBe(1);
    expect(err).toContain(`${path('bad.tsv')}, line 1: has 3 non-empty tab-separated fields; a relation line has 4`);
  });
});

const RESULT: RelResult = {
  relations: [{ type: 'INHIBITOR', arg1: 'T1', arg2: 'T2', confidence: 0.9 }],
  entities: [
    { id: 'T1', type: 'CHEMICAL', start: 0, end: 7, text: 'Aspirin' },
    { id: 'T2', type: 'GENE', start: 17, end: 22, text: 'COX-2' },
  ],
};
const TEXT = 'Aspirin inhibits COX-2 but not COX-1.';

describe('REL in the leaderboard', () => {
  it('scores online answers and uploads against a JSON gold', () => {
    const { gold } = rel.scoring.parseGold({ entities: ENTITIES, relations: GOLD });
    expect([...rel.scoring.goldDocuments(gold)]).toEqual(['1', '2']);
    const online = rel.scoring.onlineRun([
      { doc: '1', value: RESULT },
      { doc: '2', value: null },
    ]);
    expect(rel.scoring.score(gold, online, {}).metrics.micro).toMatchObject({ tp: 1, fp: 0, fn: 1, p: 1, r: 0.5 });
    const { run } = rel.scoring.parseRun({ relations: GOLD }, 'rank,confidence');
    expect(rel.scoring.score(gold, run, {}).metrics.micro).toMatchObject({ p: 1, r: 1, f: 1 });
    expect(rel.scoring.exportTsv!(online)).toBe('1\tINHIBITOR\tArg1:T1\tArg2:T2\n');
    expect(() => rel.scoring.parseGold({ relations: GOLD })).toThrow(/needs "entities" as a string/);
  });

  it('reads gold from BioC relations: located annotations as entities, two-node relations', () => {
    const doc: CorpusDocument = {
      id: '1',
      text: TEXT,
      sections: [],
      annotations: [
        { id: 'T1', start: 0, end: 7, text: 'Aspirin', type: 'CHEMICAL', infons: {} },
        { id: 'T2', start: 17, end: 22, text: 'COX-2', type: 'GENE', infons: {} },
      ],
      relations: [
        { id: 'R1', type: 'INHIBITOR', args: ['T1', 'T2'], infons: {} },
        { id: 'R2', type: 'INHIBITOR', args: ['T1'], infons: {} },
      ],
    };
    const { body, warnings } = rel.scoring.corpus!.gold([doc]);
    expect(body).toEqual({
      entities: '1\tT1\tCHEMICAL\t0\t7\tAspirin\n1\tT2\tGENE\t17\t22\tCOX-2\n',
      relations: '1\tINHIBITOR\tArg1:T1\tArg2:T2\n',
    });
    expect(warnings).toEqual(['document 1: relation R2 has 1 nodes; a REL relation has a type and two nodes, so it is left out']);
  });
});

describe('REL voting and exports', () => {
  it('votes relations as pairs: kept at the threshold, share as confidence', () => {
    const other: RelResult = {
      relations: [
        { type: 'INHIBITOR', arg1: 'T1', arg2: 'T2' },
        { type: 'AGONIST', arg1: 'T1', arg2: 'T2' },
      ],
      entities: RESULT.entities,
    };
    const vote = rel.consensus!.vote(
      [
        { serverId: 1, weight: 1, result: RESULT },
        { serverId: 2, weight: 1, result: other },
      ],
      0.5,
    );
    expect(vote.items.map((i) => [i.type, i.share, i.servers])).toEqual([
      ['INHIBITOR', 1, [1, 2]],
      ['AGONIST', 0.5, [2]],
    ]);
    expect(rel.consensus!.asResult(vote).relations[1]).toEqual({ type: 'AGONIST', arg1: 'T1', arg2: 'T2', confidence: 0.5, rank: 2 });
    expect(
      rel.consensus!.vote(
        [
          { serverId: 1, weight: 1, result: RESULT },
          { serverId: 2, weight: 1, result: other },
        ],
        0.75,
      ).items,
    ).toHaveLength(1);
  });

  it('writes brat R lines, PubAnnotation relations and BioC relations with their two entities', () => {
    const docs = [{ id: 'd1', text: TEXT, result: RESULT }];
    const ann = rel.exports.brat!(docs, { run: 'T1_S1', sourcedb: 'PubMed' }).files.find((f) => f.name === 'd1.ann')!.content;
    expect(ann).toBe('T1\tCHEMICAL 0 7\tAspirin\nT2\tGENE 17 22\tCOX-2\nR1\tINHIBITOR Arg1:T1 Arg2:T2\n');
    const pa = JSON.parse(rel.exports.pubannotation!(docs, { run: 'T1_S1', sourcedb: 'PubMed' }).files[0].content);
    expect(pa.denotations).toEqual([
      { id: 'T1', span: { begin: 0, end: 7 }, obj: 'CHEMICAL' },
      { id: 'T2', span: { begin: 17, end: 22 }, obj: 'GENE' },
    ]);
    expect(pa.relations).toEqual([{ id: 'R1', subj: 'T1', obj: 'T2', pred: 'INHIBITOR' }]);
    const xml = rel.exports['bioc-xml']!(docs, { run: 'T1_S1', sourcedb: 'PubMed' }).files[0].content;
    expect(xml).toMatch(
      /<relation id="a1\.3">[\s\S]*<infon key="type">INHIBITOR<\/infon>[\s\S]*<node refid="a1\.1" role="Arg1"><\/node>\s*<node refid="a1\.2" role="Arg2"><\/node>/,
    );
    expect(rel.wire.toWire(RESULT)).toMatchObject([{ type: 'INHIBITOR', arg1: 'T1', arg2: 'T2' }]);
  });
});
