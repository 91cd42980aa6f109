// TX scored as INT is (ranked document-level ids, BC II.5's pipeline): `metaserver score TX`
// and the leaderboard on the same files, against figures worked out by hand below; the
// consensus vote and the ensemble on taxa; the files TX answers go out in (TSV, BioC,
// PubAnnotation) and the public API's wire form.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportFiles } from '../../../src/articles/export-formats.ts';
import { ensembleResult, trainEnsemble, type EnsembleDocument } from '../../../src/consensus/ensemble.ts';
import { consensusAsResult, voteConsensus, type VoteInput } from '../../../src/consensus/voting.ts';
import { exportBiocXml, exportTsv, importBiocXml, importTsv } from '../../../src/families/formats.ts';
import type { TaxonItem } from '../../../src/families/tx/types.ts';
import type { ExportArticle } from '../../../src/formats/common.ts';
import { parseGoldUpload, parseRunUpload } from '../../../src/leaderboard/inputs.ts';
import { buildLeaderboard } from '../../../src/leaderboard/leaderboard.ts';
import { onlineRun } from '../../../src/leaderboard/online-runs.ts';
import { answerToWire } from '../../../src/bcms/index.ts';
import { encodeMethodResponse } from '../../../src/xmlrpc/codec.ts';
import { expectFigures } from '../../leaderboard/helpers.ts';
import { score, tsv } from '../../support/score-cli.ts';

// Gold: d1 {9606, 10090}; d2 {562}; d3 {4932} (d3 has no results in the run).
const GOLD = tsv('d1 | 9606', 'd1 | 10090', 'd2 | 562', 'd3 | 4932');
// Run (rank, confidence): d1 [10090 ✓, 7227 ✗, 9606 ✓]; d2 [4932 ✗, 562 ✓]; d9 is not in the gold.
const RUN = tsv(
  'd1 | 10090 | 1 | 0.9',
  'd1 | 7227 | 2 | 0.6',
  'd1 | 9606 | 3 | 0.5',
  'd2 | 4932 | 1 | 0.8',
  'd2 | 562 | 2 | 0.4',
  'd9 | 9606 | 1 | 0.5',
);

// By hand. d1: hits at positions 1 and 3 of 3, gold 2 → tp 2, fp 1, P = 2/3, R = 1,
// F = 2·(2/3)·1 / (5/3) = 4/5. Curve (P, R): (1, 1/2), (1/2, 1/2), (2/3, 1). Interpolated
// from the top: R = 1 keeps P 2/3; R = 1/2 keeps its best P 1 > 2/3 → AUC = 1·1/2 + 2/3·1/2 = 5/6.
// d2: hit at position 2 of 2, gold 1 → tp 1, fp 1, P = 1/2, R = 1, F = 2/3. Curve (0, 0),
// (1/2, 1): only R = 1 is kept → AUC = 1/2.
// Macro over d1, d2: P = (2/3 + 1/2)/2 = 7/12, R = 1, F = (4/5 + 2/3)/2 = 11/15, AUC = 2/3.
// Micro (rank levels; gold 3): level 1 sees d1 ✓ d2 ✗ → P 1/2, R 1/3; level 2 d1 ✗ d2 ✓ →
// P 2/4, R 2/3; level 3 d1 ✓ → P 3/5, R 1. P = 3/5, R = 1, F = 2·(3/5) / (8/5) = 3/4;
// interpolated only R = 1 (P 3/5) is kept → AUC = 3/5.
const FULL = {
  evaluatedDocs: 2,
  tp: 3,
  fp: 2,
  fn: 0,
  macro: { p: 7 / 12, r: 1, f: 11 / 15, aucIPR: 2 / 3 },
  micro: { p: 3 / 5, r: 1, f: 3 / 4, aucIPR: 3 / 5 },
};
// Cutoff 1: d1 [10090 ✓] → P 1, R 1/2, F 2/3, AUC 1·1/2 = 1/2; d2 [4932 ✗] → P = R = F = AUC = 0.
// Macro P 1/2, R 1/4, F 1/3, AUC 1/4. Micro: one level, 1 hit of 2 seen, gold 3 → P 1/2,
// R 1/3, F 2·(1/6)/(5/6) = 2/5, AUC 1/2·1/3 = 1/6.
const CUT_AT_1 = {
  tp: 1,
  fp: 1,
  fn: 2,
  macro: { p: 1 / 2, r: 1 / 4, f: 1 / 3, aucIPR: 1 / 4 },
  micro: { p: 1 / 2, r: 1 / 3, f: 2 / 5, aucIPR: 1 / 6 },
};
// All gold documents: d3 comes in with an empty list (P = R = F = AUC = 0) and its gold
// taxon. Macro P = (2/3 + 1/2)/3 = 7/18, R = 2/3, F = (4/5 + 2/3)/3 = 22/45, AUC = (5/6 + 1/2)/3
// = 4/9. Micro: gold 4 → R = 3/4, P = 3/5, F = 2·(9/20)/(27/20) = 2/3.
const ALL = {
  evaluatedDocs: 3,
  fn: 1,
  macro: { p: 7 / 18, r: 2 / 3, f: 22 / 45, aucIPR: 4 / 9 },
  micro: { p: 3 / 5, r: 3 / 4, f: 2 / 3 },
};
// F-beta, β = 2: per document 5·P·R / (4P + R): d1 5·(2/3)/(8/3 + 1) = 10/11; d2 5·(1/2)/3 = 5/6.
// Macro: (10/11 + 5/6)/2 = 115/132.
const F_BETA_2 = 115 / 132;

let dir: string;
const path = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tx-score-'));
  await writeFile(path('gold.tsv'), GOLD);
  await writeFile(path('run.tsv'), RUN);
  await writeFile(
    path('conf-only.tsv'),
    tsv('d1 | 10090 | 0.9', 'd1 | 9606 | 0.5', 'd1 | 7227 | 0.6', 'd2 | 562 | 0.4', 'd2 | 4932 | 0.8'),
  );
  await writeFile(path('bad-taxid.tsv'), tsv('d1 | 10090 | 1 | 0.9', 'd1 | Homo sapiens | 2 | 0.5'));
  await writeFile(path('dup.tsv'), tsv('d1 | 9606 | 1 | 0.9', 'd1 | 9606 | 2 | 0.5'));
  await mkdir(path('x'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('metaserver score TX', () => {
  it('gives the figures worked out by hand: macro and micro P/R/F and AUC iP/R', async () => {
    const { code, out, err } = await score('TX', '--gold', path('gold.tsv'), path('run.tsv'));
    expect(err).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report.task).toBe('TX');
    expectFigures(report.runs[0].metrics, FULL);
  });

  it('cuts each list at k, evaluates every gold document with --all, and reports F-beta', async () => {
    expectFigures(
      JSON.parse((await score('TX', '--gold', path('gold.tsv'), '--cutoff', '1', path('run.tsv'))).out).runs[0].metrics,
      CUT_AT_1,
    );
    expectFigures(JSON.parse((await score('TX', '--gold', path('gold.tsv'), '--all', path('run.tsv'))).out).runs[0].metrics, ALL);
    expectFigures(JSON.parse((await score('TX', '--gold', path('gold.tsv'), '--beta', '2', path('run.tsv'))).out).runs[0].metrics, {
      fBeta: F_BETA_2,
    });
  });

  it('orders by confidence when the run has only that column (the same lists, the same figures)', async () => {
    const { out } = await score('TX', '--gold', path('gold.tsv'), '--columns', 'confidence', path('conf-only.tsv'));
    expectFigures(JSON.parse(out).runs[0].metrics, FULL);
  });

  it('refuses a taxid that is not an id, a repeated taxon, and the INT-only maps, with the line', async () => {
    const bad = await score('TX', '--gold', path('gold.tsv'), path('bad-taxid.tsv'));
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/bad-taxid\.tsv, line 2: "Homo sapiens" is not an NCBI Taxonomy id/);
    const dup = await score('TX', '--gold', path('gold.tsv'), path('dup.tsv'));
    expect(dup.err).toMatch(/dup\.tsv, line 2: duplicate taxid 9606 in document d1 \(first on line 1\)/);
    const ho = await score('TX', '--gold', path('gold.tsv'), '--ho', path('gold.tsv'), path('run.tsv'));
    expect(ho.code).toBe(2);
    expect(ho.err).toMatch(/--ho does not apply to TX/);
  });
});

describe('the TX leaderboard on the same files', () => {
  it('scores an uploaded run exactly as the command does, and an online run by its ranks', () => {
    const gold = parseGoldUpload('TX', GOLD);
    expect(gold).toMatchObject({ documents: 3, items: 4 });
    const offline = parseRunUpload('TX', RUN, 'rank,confidence').run;
    // The same lists as stored answers (validation filled the ranks in).
    const online = onlineRun('TX', [
      {
        doc: 'd1',
        value: [
          { taxid: 10090, rank: 1, confidence: 0.9 },
          { taxid: 7227, rank: 2 },
          { taxid: 9606, rank: 3 },
        ],
      },
      {
        doc: 'd2',
        value: [
          { taxid: 4932, rank: 1 },
          { taxid: 562, rank: 2 },
        ],
      },
    ]);
    const board = buildLeaderboard(
      'TX',
      gold.gold,
      [
        { run: 'T1_R1', team: 'A', kind: 'R', data: offline },
        { run: 'T2_S1', team: 'B', server: 1, kind: 'S', data: online },
      ],
      { cutoff: 1 },
      { cutoff: 1 },
    );
    for (const row of board.runs) expectFigures(row.metrics, CUT_AT_1);
    expect(() => parseGoldUpload('TX', tsv('d1 | 0'))).toThrow(/"0" is not an NCBI Taxonomy id/);
  });
});

describe('voting and the ensemble on taxa', () => {
  const taxa = (serverId: number, items: Array<[number, number, number?]>): VoteInput => ({
    serverId,
    result: { TX: items.map(([taxid, rank, confidence]) => (confidence === undefined ? { taxid, rank } : { taxid, rank, confidence })) },
  });

  it('ranks by support, then mean reciprocal rank, then mean confidence, as for INT', () => {
    // Weights 2, 1, 1: total 4, threshold 0.5 → support ≥ 2 is kept.
    // 9606: servers 1 (2) and 3 (1) → support 3, MRR (1 + 1/2)/2 = 0.75, mean confidence 0.65.
    // 10090: servers 1 and 2 → support 3, MRR (1/2 + 1)/2 = 0.75, mean confidence 0.55 → second.
    // 562: servers 2 and 3 → support 2 (share 1/2, kept). 4932: server 3 only → support 1, dropped.
    const consensus = voteConsensus(
      [
        taxa(1, [
          [9606, 1, 0.9],
          [10090, 2, 0.5],
        ]),
        taxa(2, [
          [10090, 1, 0.6],
          [562, 2, 0.6],
        ]),
        taxa(3, [
          [562, 1, 0.7],
          [9606, 2, 0.4],
          [4932, 3],
        ]),
      ],
      { weights: { 1: 2 } },
    );
    const items = consensus.TX!.items;
    expect(consensus.TX!.total).toBe(4);
    expect(items.map((i) => [i.taxid, i.rank, i.support])).toEqual([
      [9606, 1, 3],
      [10090, 2, 3],
      [562, 3, 2],
    ]);
    expect(items[0].meanReciprocalRank).toBe(0.75);
    expect(items[0].meanConfidence).toBeCloseTo(0.65, 12);
    expect(items[1].meanConfidence).toBeCloseTo(0.55, 12);
    expect(consensusAsResult(consensus).TX).toEqual([
      { taxid: 9606, rank: 1, confidence: 0.75 },
      { taxid: 10090, rank: 2, confidence: 0.75 },
      { taxid: 562, rank: 3, confidence: 0.5 },
    ]);
  });

  it('trains an ensemble whose answer is a list of taxa', () => {
    const docs: EnsembleDocument[] = ['d1', 'd2', 'd3', 'd4'].map((id, i) => ({
      id,
      runs: {
        X: {
          TX: [
            { taxid: 9606 + i, rank: 1, confidence: 0.9 },
            { taxid: 1000 + i, rank: 2, confidence: 0.2 },
          ],
        },
      },
    }));
    const gold = new Map(docs.map((d, i) => [d.id, [String(9606 + i)]]));
    const model = trainEnsemble(docs, gold, { task: 'TX' });
    expect(model.task).toBe('TX');
    const [top, second] = ensembleResult(model, docs[0]).TX!;
    expect(top).toMatchObject({ taxid: 9606, rank: 1 });
    expect(second).toMatchObject({ taxid: 1000, rank: 2 });
    expect(top.confidence!).toBeGreaterThan(second.confidence!);
  });
});

describe('TX answers in files and on the wire', () => {
  const TEXT = 'Human 😀 and mouse cells.';
  const result: TaxonItem[] = [
    { taxid: 9606, rank: 1, confidence: 1 },
    { taxid: 10090, rank: 2, confidence: 0.5 },
  ];

  it('writes and reads BC II.5 result files', () => {
    const run = [
      { id: 'd1', result: { TX: result } },
      { id: 'd2', result: { INT: [] } },
    ];
    const written = exportTsv('TX', run);
    expect(written).toEqual({ text: 'd1\t9606\t1\t1\nd1\t10090\t2\t0.5\n', columns: 'rank,confidence' });
    expect(importTsv('TX', written.text)).toEqual([{ id: 'd1', result: { TX: result } }]);
  });

  it('writes BioC that the BioC DTD accepts, one annotation per taxon without a location, and reads it back', () => {
    const articles: ExportArticle[] = [
      { id: 'PMC1', text: `${TEXT}\n\nSecond passage.`, answers: [{ server: 's1', result: { TX: result } }] },
    ];
    const xml = exportBiocXml(articles, { date: '2024-05-01' });
    const scratch = mkdtempSync(join(tmpdir(), 'tx-bioc-'));
    try {
      copyFileSync(fileURLToPath(new URL('../../fixtures/bioc/BioC.dtd', import.meta.url)), join(scratch, 'BioC.dtd'));
      writeFileSync(join(scratch, 'tx.xml'), xml);
      const lint = spawnSync('xmllint', ['--noout', '--dtdvalid', join(scratch, 'BioC.dtd'), join(scratch, 'tx.xml')], {
        encoding: 'utf8',
      });
      expect(lint.stderr).toBe('');
      expect(lint.status).toBe(0);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    expect(xml).toContain('<infon key="identifier">9606</infon>');
    expect(xml).not.toMatch(/<annotation id="a1\.1">[\s\S]*?<location[\s\S]*?<\/annotation>/);
    expect(importBiocXml(xml)).toEqual(articles);
  });

  it('writes PubAnnotation documents with one whole-text denotation per taxon', () => {
    const { files } = exportFiles('pubannotation', 'TX', 'T1_S1', [{ id: 'PMC1', text: TEXT, result: { TX: result } }], {
      sourcedb: 'bcms',
    });
    expect(files.map((f) => f.name)).toEqual(['PMC1.json']);
    const doc = JSON.parse(files[0].content);
    // The text counts 24 code points (the emoji is one, two UTF-16 units).
    expect(Array.from(TEXT)).toHaveLength(24);
    expect(doc).toEqual({
      text: TEXT,
      sourcedb: 'bcms',
      sourceid: 'PMC1',
      denotations: [
        { id: 'T1', span: { begin: 0, end: 24 }, obj: 'NCBITaxon:9606' },
        { id: 'T2', span: { begin: 0, end: 24 }, obj: 'NCBITaxon:10090' },
      ],
      relations: [],
      attributes: [
        { id: 'A1', subj: 'T1', pred: 'confidence', obj: 1 },
        { id: 'A2', subj: 'T1', pred: 'rank', obj: 1 },
        { id: 'A3', subj: 'T2', pred: 'confidence', obj: 0.5 },
        { id: 'A4', subj: 'T2', pred: 'rank', obj: 2 },
      ],
    });
    expect(() => exportFiles('brat', 'TX', 'T1_S1', [], { sourcedb: 'x' })).toThrow(/TX has no brat export/);
  });

  it('goes out as `taxons` with int taxids and ranks and double confidences, and as plain JSON', () => {
    const wire = answerToWire({ TX: result });
    expect(JSON.parse(JSON.stringify(wire))).toEqual({
      taxons: [
        { taxid: 9606, rank: 1, confidence: 1 },
        { taxid: 10090, rank: 2, confidence: 0.5 },
      ],
    });
    const xml = encodeMethodResponse(wire);
    expect(xml).toContain('<member><name>taxid</name><value><int>9606</int></value></member>');
    expect(xml).toContain('<member><name>confidence</name><value><double>1.0</double></value></member>');
  });
});
