// `metaserver import` with the field's files: a BioC XML collection, a PubTator file named
// .txt, a BioC JSON document and a PMC Open Access .tar.gz package (PMCxxxx/article.nxml
// beside an image), read and checked before anything is sent. One bad document refuses
// the import (nothing stored, every failure named: file, document, reason); --skip-bad
// loads the others and lists it. An annotation that does not fit its text (the articles are
// sent without their annotations: those are gold's) refuses the import too, named; with
// --skip-bad its document's text is loaded and only the annotation is listed as left out.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImportCommand } from '../../src/cli/import.ts';
import { readCorpusFile } from '../../src/formats/corpus-file.ts';
import { jatsToText } from '../../src/formats/jats.ts';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';
import { captured } from '../support/captured-io.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures');

describe('metaserver import of corpora and PMC packages', () => {
  let ms: TestMetaserver;
  let env: NodeJS.ProcessEnv;
  let dir: string;

  beforeAll(async () => {
    ms = await startTestMetaserver({ workers: false });
    const address = await ms.app!.listen({ port: 0, host: '127.0.0.1' });
    env = { METASERVER_URL: address, METASERVER_ADMIN_TOKEN: ADMIN_TOKEN };
    await ms.challenge('corpus', { name: 'Corpus', tasks: ['MENTION'] });
    dir = mkdtempSync(join(tmpdir(), 'metaserver-corpora-'));
    copyFileSync(join(fixtures, 'bioc', 'bioc-python-everything.xml'), join(dir, 'everything.bioc.xml'));
    copyFileSync(join(fixtures, 'pubtator', 'cdr-sample-4.txt'), join(dir, 'cdr.txt'));
    // A PMC OA package as PMC ships it: the article's folder with its NXML, a figure and a PDF.
    const pkg = join(dir, 'pkg');
    mkdirSync(join(pkg, 'PMC9000001'), { recursive: true });
    copyFileSync(join(fixtures, 'jats', 'plain.nxml'), join(pkg, 'PMC9000001', 'plos.2021.nxml'));
    writeFileSync(join(pkg, 'PMC9000001', 'fig1.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xe0]));
    writeFileSync(join(pkg, 'PMC9000001', 'article.pdf'), '%PDF-1.4\n');
    execFileSync('tar', ['-czf', join(dir, 'PMC9000001.tar.gz'), '-C', pkg, 'PMC9000001']);
    rmSync(pkg, { recursive: true });
  });
  afterAll(async () => {
    await ms?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const articleCount = async () => Number((await ms.database.db.query<{ n: string }>('select count(*) as n from articles'))[0].n);

  it('refuses the whole import for one bad document, naming file, document and reason; nothing is sent', async () => {
    const bad = readFileSync(join(fixtures, 'pubtator', 'tmvar-normalization-3.txt'), 'utf8').replace(
      '20846357\t374\t384\tp.Asp50Asn',
      '20846357\t374\t384\tp.Asp50Xyz',
    );
    writeFileSync(join(dir, 'tmvar.pubtator'), bad);
    const io = captured(env);
    expect(await runImportCommand(['--challenge', 'corpus', dir], io)).toBe(1);
    expect(io.err).toMatch(/tmvar\.pubtator, document 20846357, annotation L\d+: .*p\.Asp50Xyz/);
    expect(io.err).toMatch(/nothing was sent/);
    expect(await articleCount()).toBe(0);
  });

  it('--skip-bad loads every document, the one with a bad annotation too, and lists that annotation', async () => {
    const io = captured(env);
    expect(await runImportCommand(['--challenge', 'corpus', '--skip-bad', '--batch', '3', dir], io)).toBe(0);
    const summary = JSON.parse(io.out);
    // 2 (BioC) + 4 (BC5CDR) + 1 (package) + 3 tmVar documents: the text of the one with a bad annotation too.
    expect(summary).toMatchObject({ files: 4, articles: 10, created: 10, refused: [] });
    expect(summary.annotationsLeftOut).toEqual([
      {
        file: expect.stringMatching(/tmvar\.pubtator$/),
        document: '20846357',
        annotation: expect.stringMatching(/^L\d+$/),
        reason: expect.stringMatching(/p\.Asp50Xyz/),
      },
    ]);
    expect(io.err).toMatch(/annotation L\d+: .*p\.Asp50Xyz.*\(left out; the text is loaded\)/);
    expect((await ms.request('GET', '/api/challenges/corpus/articles/20846357', undefined, ADMIN_TOKEN)).body.text).toContain('p.Asp50Asn');
    expect(Object.keys(summary.ids)).toEqual(expect.arrayContaining(['1', '2', '26094', 'PMC9000001', '22051099', '22188495']));
    const pmc = (await ms.request('GET', '/api/challenges/corpus/articles/PMC9000001', undefined, ADMIN_TOKEN)).body;
    expect(pmc.sourceFormat).toBe('jats');
    expect(pmc.text).toBe(jatsToText(readFileSync(join(fixtures, 'jats', 'plain.nxml'), 'utf8')).text);
    const cdr = (await ms.request('GET', '/api/challenges/corpus/articles/354896', undefined, ADMIN_TOKEN)).body;
    expect([...cdr.text].slice(18, 34).join('')).toBe('cardiac asystole');
    // Corpus documents keep their source format and their passages, as the route stores them.
    expect(cdr.sourceFormat).toBe('pubtator');
    const bioc = (await ms.request('GET', '/api/challenges/corpus/articles/2', undefined, ADMIN_TOKEN)).body;
    expect(bioc.sourceFormat).toBe('bioc');
    const sections = async (id: string) =>
      (await ms.database.db.query<{ sections: unknown }>('select sections from articles where organiser_id = $1', [id]))[0].sections;
    expect(await sections('354896')).toEqual(
      readCorpusFile(readFileSync(join(fixtures, 'pubtator', 'cdr-sample-4.txt'), 'utf8'), 'cdr').find((d) => d.id === '354896')!.sections,
    );
    expect(await sections('2')).toEqual(
      readCorpusFile(readFileSync(join(fixtures, 'bioc', 'bioc-python-everything.xml'), 'utf8'), 'x').find((d) => d.id === '2')!.sections,
    );
  });

  it('reads BioC JSON lines (.jsonl), naming the line of a bad one', async () => {
    const only = mkdtempSync(join(tmpdir(), 'metaserver-jsonl-'));
    const api = { ...JSON.parse(readFileSync(join(fixtures, 'bioc', 'pubtator-api-34546791.json'), 'utf8')), id: '34546791' };
    writeFileSync(join(only, 'bulk.jsonl'), `${JSON.stringify(api)}\n${JSON.stringify({ ...api, id: 'x2' })}\n`);
    const io = captured(env);
    expect(await runImportCommand(['--challenge', 'corpus', only], io), io.err).toBe(0);
    expect(JSON.parse(io.out)).toMatchObject({ files: 1, articles: 2, created: 2 });
    expect((await ms.request('GET', '/api/challenges/corpus/articles/x2', undefined, ADMIN_TOKEN)).body.sourceFormat).toBe('bioc');
    writeFileSync(join(only, 'bulk.jsonl'), `${JSON.stringify(api)}\n{"id":\n`);
    const bad = captured(env);
    expect(await runImportCommand(['--challenge', 'corpus', only], bad)).toBe(1);
    expect(bad.err).toMatch(/bulk\.jsonl, document -: .*line 2: not JSON/);
    rmSync(only, { recursive: true });
  });

  it('an archive that is not gzip is a failure of that file', async () => {
    const only = mkdtempSync(join(tmpdir(), 'metaserver-badtar-'));
    writeFileSync(join(only, 'PMC1.tar.gz'), 'not an archive');
    const io = captured(env);
    expect(await runImportCommand(['--challenge', 'corpus', only], io)).toBe(1);
    expect(io.err).toMatch(/PMC1\.tar\.gz, document -: .*not gzip-compressed/);
    rmSync(only, { recursive: true });
  });
});
