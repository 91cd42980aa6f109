// `metaserver score MENTION` tells a gold or run file's form by its content, whatever its
// name: BioC XML, BioC JSON and JSON lines as PubTator already was. Before, a BioC JSON run
// named `run.bioc-json` was read as BIO and refused with `expected "token<TAB>tag"`.
// Real files: the bioc Python library's `everything` sample (XML and JSON twins) and BC5CDR
// test documents in BioC XML and PubTator (test/fixtures/bioc, test/fixtures/pubtator).
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mentionFileForm } from '../../../src/families/mention/score-cli.ts';
import { score } from '../../support/score-cli.ts';

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures');
const EVERYTHING_XML = join(fixtures, 'bioc', 'bioc-python-everything.xml');
const EVERYTHING_JSON = join(fixtures, 'bioc', 'bioc-python-everything.json');
const CDR_XML = join(fixtures, 'bioc', 'cdr-test-3.xml');
const CDR_PUBTATOR = join(fixtures, 'pubtator', 'cdr-test-3.txt');
const dir = mkdtempSync(join(tmpdir(), 'mention-formats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of a fixture under another name. */
function renamed(from: string, name: string): string {
  copyFileSync(from, join(dir, name));
  return join(dir, name);
}

async function strict(gold: string, run: string) {
  const answer = await score('MENTION', '--gold', gold, run);
  expect(answer.code, answer.err).toBe(0);
  return JSON.parse(answer.out).runs[0].metrics.strict;
}

describe('metaserver score MENTION reads BioC by its content', () => {
  it('a BioC JSON run named run.bioc-json (was read as BIO and refused)', async () => {
    expect(await strict(EVERYTHING_XML, renamed(EVERYTHING_JSON, 'run.bioc-json'))).toMatchObject({ tp: 4, fp: 0, fn: 0 });
  });

  it('BioC JSON lines (one document a line), as gold and as run', async () => {
    const { documents } = JSON.parse(readFileSync(EVERYTHING_JSON, 'utf8')) as { documents: unknown[] };
    const lines = join(dir, 'everything.lines');
    writeFileSync(lines, `${documents.map((d) => JSON.stringify(d)).join('\n')}\n`);
    expect(await strict(lines, EVERYTHING_XML)).toMatchObject({ tp: 4, fp: 0, fn: 0 });
    expect(await strict(EVERYTHING_XML, lines)).toMatchObject({ tp: 4, fp: 0, fn: 0 });
  });

  it("BioC XML gold and PubTator run under names that say nothing (BC5CDR's test documents, read as twins)", async () => {
    const metrics = await strict(renamed(CDR_XML, 'gold.data'), renamed(CDR_PUBTATOR, 'run.out'));
    expect(metrics).toMatchObject({ fp: 0, fn: 0 });
    expect(metrics.tp).toBeGreaterThan(0);
  });

  it('BIO named .xml is still BIO, also when its first token is "<"; a BioC file named .bio is BioC', async () => {
    const bio = '<\tO\nfever\tB-Disease\n\n';
    writeFileSync(join(dir, 'gold.xml'), bio);
    writeFileSync(join(dir, 'run.json'), bio);
    expect(await strict(join(dir, 'gold.xml'), join(dir, 'run.json'))).toMatchObject({ tp: 1, fp: 0, fn: 0 });
    expect(await strict(renamed(EVERYTHING_XML, 'gold.bio'), EVERYTHING_JSON)).toMatchObject({ tp: 4 });
  });

  it('says which forms it read when gold and run cannot be scored together, and what goes together', async () => {
    writeFileSync(join(dir, 'only.bio'), 'fever\tB-Disease\n\n');
    const answer = await score('MENTION', '--gold', EVERYTHING_XML, join(dir, 'only.bio'));
    expect(answer.code).toBe(1);
    expect(answer.err).toMatch(/only\.bio: was read as a BIO file and the gold .* as a corpus file, which cannot be scored together/);
    expect(answer.err).toMatch(/BIO with BIO/);
  });
});

describe('mentionFileForm', () => {
  it('tells each form from its content', () => {
    expect(mentionFileForm('x', readFileSync(EVERYTHING_XML, 'utf8'))).toBe('corpus');
    expect(mentionFileForm('x', readFileSync(EVERYTHING_JSON, 'utf8'))).toBe('corpus');
    expect(mentionFileForm('x', readFileSync(CDR_PUBTATOR, 'utf8'))).toBe('corpus');
    expect(mentionFileForm('x', '{"id": "1", "passages": []}\n{"id": "2", "passages": []}\n')).toBe('corpus');
    expect(mentionFileForm('x', 'T1\tDisease 0 5\tfever\n')).toBe('brat');
    expect(mentionFileForm('x', '-DOCSTART-\tO\n\n[\tO\nfever\tB-Disease\n')).toBe('bio');
    expect(mentionFileForm('x', 'a\tNN\tI-Cell\n')).toBe('bio');
  });
});
