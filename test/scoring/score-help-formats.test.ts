// `metaserver score --help` lists the formats each scorer reads, from the scorers' own
// declarations (FamilyScoreCli.reads). Kept honest: for every scorer and every format it
// declares, a file of that format is scored here as gold and as run (exit 0, something
// found), and a declared format without a sample, or a sample of an undeclared one, fails.
// Corpus formats use the real fixtures (BioC, PubTator, BioRED, BC5CDR's kit sample); the
// BioC JSON and JSON lines of files only shipped as XML are the same collection written out.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ALL_FAMILIES } from '../../src/families/registry.ts';
import { writeBiocJson } from '../../src/formats/bioc-json.ts';
import { readBiocXml } from '../../src/formats/bioc-xml.ts';
import { SCORE_FILE_FORMATS, type ScoreFileFormat } from '../../src/scoring/score-files.ts';
import { score, tsv } from '../support/score-cli.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures');
const dir = mkdtempSync(join(tmpdir(), 'score-formats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, content: string): string => {
  writeFileSync(join(dir, name), content);
  return join(dir, name);
};
const fixture = (...parts: string[]) => join(fixtures, ...parts);
/** A BioC XML fixture as BioC JSON, and as JSON lines (one document a line). */
const asJson = (xml: string) => writeBiocJson(readBiocXml(readFileSync(xml, 'utf8')));
const asJsonLines = (json: string) =>
  `${(JSON.parse(json) as { documents: unknown[] }).documents.map((d) => JSON.stringify(d)).join('\n')}\n`;

const CDR_XML = fixture('bioc', 'cdr-test-3.xml');
const CDR_JSON = file('cdr-test-3.bioc-json', asJson(CDR_XML));
const CDR_JSONL = file('cdr-test-3.jsonl', asJsonLines(readFileSync(CDR_JSON, 'utf8')));
/** One document object, as the PubTator API serves it. */
const API_JSON = fixture('bioc', 'pubtator-api-34546791.json');

/** The arguments after the task: --gold, the flags it needs, the run. */
type Sample = () => string[];
const same =
  (path: string): Sample =>
  () => ['--gold', path, path];

function bratDirectory(): string {
  mkdirSync(join(dir, 'brat'), { recursive: true });
  writeFileSync(join(dir, 'brat', 'doc1.ann'), tsv('T1 | Organ 0 5 | heart'));
  return join(dir, 'brat');
}

function corefDirectories(): string[] {
  for (const d of ['coref-gold', 'coref-given']) mkdirSync(join(dir, d), { recursive: true });
  writeFileSync(join(dir, 'coref-given', 'x.a1'), tsv('T1 | Protein 0 3 | p65'));
  writeFileSync(
    join(dir, 'coref-gold', 'x.a2'),
    tsv('T2 | Exp 0 13 | p65 binds DNA', 'T3 | Exp 15 20 | which', 'R1 | Coref Anaphora:T3 Antecedent:T2 [T1]'),
  );
  return ['--gold', join(dir, 'coref-gold'), '--given', join(dir, 'coref-given'), join(dir, 'coref-gold')];
}

const LABELS = 'Treatment,Diagnosis,Prevention,Mechanism,Transmission,Epidemic Forecasting,Case Report';

const SAMPLES: Record<string, Partial<Record<ScoreFileFormat, Sample>>> = {
  ACT: {
    'bc2-tsv': () => [
      '--gold',
      file('act-gold.tsv', tsv('a | 1', 'b | 0')),
      file('act-run.tsv', tsv('a | 1 | 1 | 0.9', 'b | 0 | 2 | 0.4')),
    ],
  },
  INT: { 'bc2-tsv': () => ['--gold', file('int-gold.tsv', tsv('d1 | A')), file('int-run.tsv', tsv('d1 | A | 1 | 0.9'))] },
  IPT: { 'bc2-tsv': () => ['--gold', file('ipt-gold.tsv', tsv('d1 | A | B')), file('ipt-run.tsv', tsv('d1 | A | B | 1 | 0.9'))] },
  TX: { 'bc2-tsv': () => ['--gold', file('tx-gold.tsv', tsv('d1 | 9606')), file('tx-run.tsv', tsv('d1 | 9606 | 1 | 0.9'))] },
  MENTION: {
    'brat-dir': () => same(bratDirectory())(),
    'brat-ann': same(file('single.ann', tsv('T1 | Organ 0 5 | heart'))),
    bio: same(file('mention.bio', tsv('heart | B-Organ', 'cells | O', ''))),
    'bioc-xml': same(CDR_XML),
    'bioc-json': same(API_JSON),
    'bioc-jsonl': same(CDR_JSONL),
    pubtator: same(fixture('pubtator', 'cdr-sample-4.txt')),
  },
  COREF: { 'bionlp-st': corefDirectories },
  TOPIC: {
    'litcovid-table': same(file('topic-table.csv', `PMID,${LABELS}\n10,1,0,0,0,0,0,0\n`)),
    'litcovid-list': same(file('topic-list.tsv', '10\tTreatment\n')),
  },
  REL: {
    'drugprot-tsv': () => {
      const gold = file('rel-gold.tsv', tsv('1 | INHIBITOR | Arg1:T1 | Arg2:T2'));
      const entities = file('rel-entities.tsv', tsv('1 | T1 | CHEMICAL | 0 | 7 | Aspirin', '1 | T2 | GENE | 17 | 22 | COX-2'));
      return ['--gold', gold, '--entities', entities, gold];
    },
  },
  CREL: {
    pubtator: same(fixture('pubtator', 'biored-test-1.txt')),
    'bioc-xml': same(CDR_XML),
    'bioc-json': same(CDR_JSON),
    'bioc-jsonl': same(CDR_JSONL),
  },
  NORM: {
    pubtator: same(fixture('pubtator', 'cdr-test-3.txt')),
    'bioc-xml': same(CDR_XML),
    'bioc-json': same(CDR_JSON),
    'bioc-jsonl': same(CDR_JSONL),
  },
  CID: {
    pubtator: same(fixture('bc5cdr-eval', 'CDR_sample.gold.PubTator')),
    'bioc-xml': same(CDR_XML),
    'bioc-json': same(CDR_JSON),
  },
};

/** Every scorer `metaserver score` knows, with the formats it declares. */
const DECLARED = new Map(
  ALL_FAMILIES.flatMap((f) => [
    [f.name, f.scoring.cli.reads] as const,
    ...Object.entries(f.scoring.scorers ?? {}).map(([n, c]) => [n, c.reads] as const),
  ]),
);

/** Some figure above 0 anywhere in the metrics: the file's items were read, not an empty set. */
const somethingFound = (metrics: unknown): boolean =>
  typeof metrics === 'number'
    ? metrics > 0
    : typeof metrics === 'object' && metrics !== null && Object.values(metrics).some(somethingFound);

describe('the formats metaserver score declares', () => {
  it('has a sample for every declared format of every scorer, and none for an undeclared one', () => {
    for (const [name, reads] of DECLARED) expect(Object.keys(SAMPLES[name] ?? {}).sort(), name).toEqual([...reads].sort());
    expect(Object.keys(SAMPLES).sort()).toEqual([...DECLARED.keys()].sort());
  });

  const cases = [...DECLARED].flatMap(([name, reads]) => reads.map((format) => [name, format] as const));
  it.each(cases)('%s reads %s', async (name, format) => {
    const answer = await score(name, ...SAMPLES[name][format]!());
    expect(answer.code, answer.err).toBe(0);
    const metrics = JSON.parse(answer.out).runs[0].metrics;
    expect(somethingFound(metrics), JSON.stringify(metrics)).toBe(true);
  });

  it('--help lists every scorer with its formats', async () => {
    const help = await score('--help');
    expect(help.code).toBe(0);
    const section = help.out.slice(help.out.indexOf('Formats each scorer reads'));
    for (const [name, reads] of DECLARED) {
      const line = section.split('\n').find((l) => l.trimStart().startsWith(`${name} `));
      expect(line, name).toBeDefined();
      for (const format of reads) expect(line, `${name} ${format}`).toContain(SCORE_FILE_FORMATS[format]);
    }
    expect(section).toMatch(/MENTION +brat directories.*BioC JSON lines; PubTator/);
  });
});
