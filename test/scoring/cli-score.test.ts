import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { score, tsv } from '../support/score-cli.ts';

let dir: string;
const path = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'score-cli-'));
  await writeFile(path('int-gold.tsv'), tsv('d1 | A', 'd1 | C', 'd1 | D', 'd2 | E'));
  await writeFile(
    path('run1.tsv'),
    tsv('d1 | A | 1 | 0.9', 'd1 | B | 2 | 0.8', 'd1 | C | 3 | 0.7', 'd1 | D | 4 | 0.6', 'd9 | A | 1 | 0.5'),
  );
  await writeFile(path('run2.tsv'), tsv('d1 | B | 1 | 0.9', 'd2 | E | 1 | 0.9'));
  await writeFile(path('bad.tsv'), tsv('d1 | A | 1 | 0.9', 'd1 | B | 1 | 0.8'));
  await writeFile(path('act-gold.tsv'), tsv('a | 1', 'b | 0', 'c | 1'));
  await writeFile(path('act-run.tsv'), tsv('a | 1 | 1 | 0.9', 'b | 0 | 1 | 0.4', 'c | - | 2 | 0.3'));
  await writeFile(path('gold.bio'), tsv('a | B-Cell', 'b | I-Cell', 'c | B-Organ', '', 'd | O'));
  await writeFile(path('sys.bio'), tsv('a | B-Cell', 'b | I-Cell', 'c | B-Cell', '', 'd | O'));
  await writeFile(path('broken.bio'), tsv('a | O', 'b | I-Cell', 'c | O', '', 'd | O'));
  await mkdir(path('brat-gold'));
  await mkdir(path('brat-run'));
  await writeFile(path('brat-gold/doc1.ann'), tsv('T1 | Organ 0 5 | heart', 'T2 | Cell 10 20 | hepatocyte'));
  await writeFile(path('brat-gold/doc1.txt'), 'heart and hepatocytes\n');
  await writeFile(path('brat-run/doc1.ann'), tsv('T1 | Organ 0 5 | heart', 'T2 | Cell 12 20 | patocyte'));
  await mkdir(path('coref-gold'));
  await mkdir(path('coref-given'));
  await mkdir(path('coref-run'));
  // Text "p65 binds DNA, which …": protein T1 "p65"; gold links "which" to "p65 binds DNA".
  await writeFile(path('coref-given/x.a1'), tsv('T1 | Protein 0 3 | p65'));
  await writeFile(
    path('coref-gold/x.a2'),
    tsv('T2 | Exp 0 13 | p65 binds DNA', 'T3 | Exp 15 20 | which', 'R1 | Coref Anaphora:T3 Antecedent:T2 [T1]'),
  );
  await writeFile(path('coref-run/x.a2'), tsv('T2 | Exp 0 3 | p65', 'T3 | Exp 15 20 | which', 'R1 | Coref Anaphora:T3 Antecedent:T2'));
  // A second gold with document y, which the run leaves out: "p53 protein … it", protein T1 "p53".
  await mkdir(path('coref-gold2'));
  await writeFile(path('coref-gold2/x.a2'), await readFile(path('coref-gold/x.a2'), 'utf8'));
  await writeFile(path('coref-given/y.a1'), tsv('T1 | Protein 0 3 | p53'));
  await writeFile(
    path('coref-gold2/y.a2'),
    tsv('T2 | Exp 0 11 | p53 protein', 'T3 | Exp 20 22 | it', 'R1 | Coref Anaphora:T3 Antecedent:T2 [T1]'),
  );
  // A run with a right link, a cataphoric one and one to the given protein (the TAB form of the protein list).
  await mkdir(path('coref-drops'));
  await writeFile(
    path('coref-drops/x.a2'),
    tsv(
      'T2 | Exp 0 13 | p65 binds DNA',
      'T3 | Exp 15 20 | which',
      'R1 | Coref Anaphora:T3 Antecedent:T2 | [T1]',
      'R2 | Coref Anaphora:T2 Antecedent:T3',
      'R3 | Coref Anaphora:T3 Antecedent:T1',
    ),
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('metaserver score', () => {
  it('scores INT runs as JSON', async () => {
    const { code, out, err } = await score(
      'INT',
      '--gold',
      path('int-gold.tsv'),
      '--cutoff',
      '3',
      '--beta',
      '10',
      path('run1.tsv'),
      path('run2.tsv'),
    );
    expect(err).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report.task).toBe('INT');
    expect(report.options).toMatchObject({ cutoff: 3, beta: 10, columns: 'rank,confidence' });
    expect(report.runs.map((r: { run: string }) => r.run)).toEqual(['run1', 'run2']);
    const run1 = report.runs[0].metrics;
    expect(run1).toMatchObject({ evaluatedDocs: 1, tp: 2, fp: 1, fn: 1 });
    expect(run1.macro.aucIPR).toBeCloseTo(0.555556, 6);
    expect(run1.micro.f).toBeCloseTo(2 / 3, 9);
    expect(run1.fBeta).toBeCloseTo(2 / 3, 9);
    expect(run1.documents).toBeUndefined();
    const run2 = report.runs[1].metrics;
    expect(run2.evaluatedDocs).toBe(2);
    expect(run2.macro.p).toBeCloseTo(0.5, 9);
    expect(run2.macro.sdP).toBeCloseTo(0.5, 9);
  });

  it('prints TSV with one row per run and a text table', async () => {
    const tsvOut = await score('INT', '--gold', path('int-gold.tsv'), '--format', 'tsv', path('run1.tsv'), path('run2.tsv'));
    const lines = tsvOut.out.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0].split('\t').slice(0, 5)).toEqual(['run', 'evaluatedDocs', 'tp', 'fp', 'fn']);
    expect(lines[0]).toContain('macro.sdF');
    expect(lines[1].split('\t').slice(0, 5)).toEqual(['run1', '1', '3', '1', '0']);
    const text = await score('INT', '--gold', path('int-gold.tsv'), '--format', 'text', path('run1.tsv'));
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/micro\.aucIPR\s+0\.8333/);
  });

  it('scores ACT and warns about the "-" label', async () => {
    const { code, out, err } = await score('ACT', '--gold', path('act-gold.tsv'), path('act-run.tsv'));
    expect(code).toBe(0);
    expect(err).toMatch(/warning: .*act-run\.tsv, line 3: label "-" read as false/);
    const metrics = JSON.parse(out).runs[0].metrics;
    // Order a (true), then falses by rank descending: c, b. Labels 1, 1, 0 of 2 positives.
    expect(metrics).toMatchObject({ tp: 1, fp: 0, fn: 1, tn: 1, pAtFullR: 1 });
    expect(metrics.aucIPR).toBeCloseTo(1, 9);
    expect(Object.keys(metrics)).toEqual(['tp', 'fp', 'fn', 'tn', 'accuracy', 'sensitivity', 'specificity', 'mcc', 'pAtFullR', 'aucIPR']);
  });

  it('fails with the file, the line and the problem on a bad run', async () => {
    const { code, out, err } = await score('INT', '--gold', path('int-gold.tsv'), path('run1.tsv'), path('bad.tsv'));
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toMatch(/bad\.tsv, line 2: duplicate rank 1 in document d1/);
  });

  it('fails on a missing file and on bad usage', async () => {
    expect((await score('INT', '--gold', path('nope.tsv'), path('run1.tsv'))).code).toBe(1);
    const noGold = await score('INT', path('run1.tsv'));
    expect(noGold.code).toBe(2);
    expect(noGold.err).toMatch(/--gold is required/);
    expect((await score('ACT', '--gold', path('act-gold.tsv'), '--cutoff', '3', path('act-run.tsv'))).err).toMatch(
      /--cutoff does not apply to ACT/,
    );
    expect((await score('INT', '--gold', path('int-gold.tsv'), '--cutoff', '0', path('run1.tsv'))).code).toBe(2);
    expect((await score('INT', '--gold', path('int-gold.tsv'), '--columns', 'both', path('run1.tsv'))).code).toBe(2);
    expect((await score('NER', '--gold', path('int-gold.tsv'), path('run1.tsv'))).code).toBe(2);
    expect((await score('INT', '--gold', path('int-gold.tsv'))).code).toBe(2);
  });

  it('scores MENTION from BIO files, single- and multi-class, and reports a bad BIO line', async () => {
    const multi = JSON.parse((await score('MENTION', '--gold', path('gold.bio'), path('sys.bio'))).out).runs[0].metrics;
    expect(multi.strict).toMatchObject({ tp: 1, fp: 1, fn: 1 });
    expect(multi.perType.Organ.strict.fn).toBe(1);
    const single = JSON.parse((await score('MENTION', '--gold', path('gold.bio'), '--single-class', path('sys.bio'))).out).runs[0].metrics;
    expect(single.strict).toMatchObject({ tp: 2, fp: 0, fn: 0, f: 1 });
    const broken = await score('MENTION', '--gold', path('gold.bio'), path('broken.bio'));
    expect(broken.code).toBe(1);
    expect(broken.err).toMatch(/broken\.bio, line 2: I-Cell follows O/);
    const lenient = await score('MENTION', '--gold', path('gold.bio'), '--lenient', path('broken.bio'));
    expect(lenient.code).toBe(0);
  });

  it('scores MENTION from brat directories', async () => {
    const { code, out } = await score('MENTION', '--gold', path('brat-gold'), path('brat-run'));
    expect(code).toBe(0);
    const metrics = JSON.parse(out).runs[0].metrics;
    expect(metrics.strict).toMatchObject({ tp: 1, fp: 1, fn: 1 });
    expect(metrics.right).toMatchObject({ tp: 2, fp: 0, fn: 0 });
    expect(JSON.parse(out).runs[0].run).toBe('brat-run');
  });

  it('scores COREF directories in both modes', async () => {
    const { code, out, err } = await score('COREF', '--gold', path('coref-gold'), '--given', path('coref-given'), path('coref-run'));
    expect(err).toBe('');
    expect(code).toBe(0);
    const metrics = JSON.parse(out).runs[0].metrics;
    // The response antecedent "p65" is not the gold "p65 binds DNA" (no minimal boundary): the surface link is wrong,
    // yet it still contains protein T1, so the protein link is right.
    expect(metrics.surface).toMatchObject({ tp: 0, fp: 1, fn: 1 });
    expect(metrics.protein).toMatchObject({ tp: 1, fp: 0, fn: 0, p: 1, r: 1, f: 1 });
    expect(metrics.perType.RELAT.protein.tp).toBe(1);
    expect((await score('COREF', '--gold', path('coref-gold'), path('coref-run'))).code).toBe(2);
  });

  it('scores a gold document the run leaves out as an empty response', async () => {
    const { code, out, err } = await score('COREF', '--gold', path('coref-gold2'), '--given', path('coref-given'), path('coref-run'));
    expect(err).toBe('');
    expect(code).toBe(0);
    const metrics = JSON.parse(out).runs[0].metrics;
    // x as above (surface 0 of 1, protein 1 of 1); y has no response: its link (y.T3, y.T1) and its 2 expressions are missed.
    // Protein: 1 response right, 2 gold, 1 missed → P 1, R 1/2, F 2/3. Surface: 0 of 1 response, 2 gold missed.
    expect(metrics.protein).toMatchObject({ gold: 2, response: 1, tp: 1, fp: 0, fn: 1, p: 1, r: 0.5 });
    expect(metrics.protein.f).toBeCloseTo(2 / 3, 12);
    expect(metrics.surface).toMatchObject({ gold: 2, response: 1, tp: 0, fp: 1, fn: 2, p: 0, r: 0, f: 0 });
    // Mentions (both modes): x's "which" matches, its "p65" does not match "p65 binds DNA"; y's two are missed
    // → P 1/2, R 1/4, F 2·(1/8)/(3/4) = 1/3.
    expect(metrics.mentions.surface).toMatchObject({ gold: 4, response: 2, tp: 1, fp: 1, fn: 3, p: 0.5, r: 0.25 });
    expect(metrics.mentions.protein.f).toBeCloseTo(1 / 3, 12);
  });

  it('says which response links it did not score, and why, in every format', async () => {
    const run = path('coref-drops');
    const json = await score('COREF', '--gold', path('coref-gold'), '--given', path('coref-given'), run);
    expect(json.code).toBe(0);
    const notes = [
      `note: coref-drops: ${join(run, 'x.a2')}, line 4: response link R2 removed: its antecedent T3 (at 15) does not start before its anaphor T2 (at 0)`,
      `note: coref-drops: ${join(run, 'x.a2')}, line 5: response link R3 removed: T1 is a given protein, not an expression of the .a2`,
    ];
    expect(json.err).toBe(notes.join('\n') + '\n');
    const report = JSON.parse(json.out).runs[0];
    // R1 is the gold link in both modes; R2 and R3 are not counted.
    expect(report.metrics.surface).toMatchObject({ gold: 1, response: 1, tp: 1, f: 1 });
    expect(report.metrics.protein).toMatchObject({ gold: 1, response: 1, tp: 1, f: 1 });
    expect(report.metrics.dropped.response).toEqual({ givenProtein: 1, antecedentAfterAnaphor: 1, repeatedAnaphor: 0 });
    expect(report.droppedLinks.map((d: { link: string; reason: string }) => `${d.link} ${d.reason}`)).toEqual([
      'R2 antecedent-after-anaphor',
      'R3 given-protein',
    ]);
    const text = await score('COREF', '--gold', path('coref-gold'), '--given', path('coref-given'), '--format', 'text', run);
    expect(text.out).toContain(`Links not scored in coref-drops:\n  ${notes[0].replace('note: coref-drops: ', '')}\n`);
    expect(text.out.indexOf('mentions.surface.p')).toBeLessThan(text.out.indexOf('surface.p'));
    const tsvOut = await score('COREF', '--gold', path('coref-gold'), '--given', path('coref-given'), '--format', 'tsv', run);
    const header = tsvOut.out.split('\n')[0].split('\t');
    expect(header.slice(0, 3)).toEqual(['run', 'mentions.surface.gold', 'mentions.surface.response']);
    expect(header).toContain('dropped.response.antecedentAfterAnaphor');
    expect(tsvOut.out.trimEnd().split('\n')).toHaveLength(2);
  });
});
