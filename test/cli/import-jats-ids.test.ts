// JATS articles through `metaserver import`: a loose file's id is the PMCID it names
// (`<article-id pub-id-type="pmc">`, or `pmcid`), else its PMID, else its file name; PMC's
// bulk Open Access packages (`PMC00xxxxxx/PMCxxxxxxx.xml` entries) are read, an `.xml` entry
// that is not a JATS article skipped and named; the summary and stderr say where each id came
// from, and list what a directory held that import does not read. Real articles: the PMC
// and PLOS fixtures (test/fixtures/jats); one copy of ehp-116-1694 has its PMCID line
// taken out here, to stand for an article that names only its PMID.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImportCommand } from '../../src/cli/import.ts';
import { jatsToText } from '../../src/formats/jats.ts';
import { captured } from '../support/captured-io.ts';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';

const jats = join(import.meta.dirname, '..', 'fixtures', 'jats');
const pmcArticle = (name: string) => readFileSync(join(jats, 'pmc', `${name}.nxml`));

/** A gzip-compressed tar of these entries, as PMC's bulk packages are. */
async function tarGz(entries: Record<string, Buffer>): Promise<Buffer> {
  const archive = pack();
  for (const [name, content] of Object.entries(entries)) archive.entry({ name }, content);
  archive.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of archive) chunks.push(chunk);
  return gzipSync(Buffer.concat(chunks));
}

let ms: TestMetaserver;
let env: NodeJS.ProcessEnv;
let dir: string;
const bulk = 'oa_comm_xml.PMC002xxxxxx.baseline.tar.gz';

beforeAll(async () => {
  ms = await startTestMetaserver({ workers: false });
  env = { METASERVER_URL: await ms.app!.listen({ port: 0, host: '127.0.0.1' }), METASERVER_ADMIN_TOKEN: ADMIN_TOKEN };
  await ms.challenge('jats', { tasks: ['MENTION'] });
  dir = mkdtempSync(join(tmpdir(), 'metaserver-jats-ids-'));
  copyFileSync(join(jats, 'pmc', 'pone.0000217.nxml'), join(dir, 'pone.0000217.nxml'));
  copyFileSync(join(jats, 'structured.nxml'), join(dir, 'structured.nxml'));
  copyFileSync(join(jats, 'formulas', 'pone.0008915.nxml'), join(dir, 'pone.0008915.nxml'));
  writeFileSync(
    join(dir, 'ehp.nxml'),
    pmcArticle('ehp-116-1694').toString('utf8').replace('<article-id pub-id-type="pmc">2599765</article-id>', ''),
  );
  writeFileSync(join(dir, 'README.md'), '# articles\n');
  // The list PMC ships beside a bulk package, in its published layout: a .txt that is no article.
  writeFileSync(
    join(dir, bulk.replace('.tar.gz', '.filelist.txt')),
    'Article File\tArticle Citation\tAccessionID\tLastUpdated (YYYY-MM-DD HH:MM:SS)\tPMID\tLicense\n' +
      'PMC002xxxxxx/PMC2994229.xml\tBr J Cancer. 2010 Nov; 103(11):1755-1759\tPMC2994229\t2024-06-18 00:00:00\t21045829\tNO-CC CODE\n',
  );
  const bioc = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'bioc', 'cdr-test-3.xml'));
  writeFileSync(
    join(dir, bulk),
    await tarGz({
      'PMC002xxxxxx/PMC2994229.xml': pmcArticle('6605965a'),
      'PMC002xxxxxx/PMC3460867.xml': pmcArticle('pone.0046493'),
      'PMC002xxxxxx/corpus.xml': bioc,
    }),
  );
});
afterAll(async () => {
  await ms?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('JATS article ids and PMC bulk packages', () => {
  it('takes each id from the PMCID, else the PMID, else the file name, says which, and lists what it skipped', async () => {
    const io = captured(env);
    expect(await runImportCommand(['--challenge', 'jats', dir], io), io.err).toBe(0);
    const summary = JSON.parse(io.out);
    expect(Object.keys(summary.ids).sort()).toEqual(['19079722', 'PMC0000001', 'PMC1790863', 'PMC2994229', 'PMC3460867', 'pone.0008915']);
    expect(summary.idSources).toEqual({ pmcid: 4, pmid: 1, 'file-name': 1 });
    expect(summary.idsFromFileName).toEqual(['pone.0008915']);
    expect(io.err).toMatch(/JATS article ids: 4 from the PMCID inside, 1 from the PMID inside, 1 from the file name \(pone\.0008915\)/);
    // The bulk package's .xml articles are read; its BioC entry and the directory's README are skipped, each named.
    const stored = (await ms.request('GET', '/api/challenges/jats/articles/PMC2994229', undefined, ADMIN_TOKEN)).body;
    expect(stored.text).toBe(jatsToText(pmcArticle('6605965a').toString('utf8')).text);
    expect(summary.skipped).toEqual([
      { file: join(dir, 'README.md'), reason: expect.stringMatching(/reads only files named .*holds text/) },
      {
        file: join(dir, bulk.replace('.tar.gz', '.filelist.txt')),
        reason: expect.stringMatching(/^the list of articles of a PMC bulk package/),
      },
      { file: `${join(dir, bulk)}:PMC002xxxxxx/corpus.xml`, reason: 'not a JATS article: its root element is <collection>' },
    ]);
    expect(io.err).toContain(`metaserver import: skipped ${join(dir, bulk)}:PMC002xxxxxx/corpus.xml: not a JATS article`);
  });

  it('in a one-article package, prefers the PMCID inside to the folder, and keeps the folder when the article names none', async () => {
    const one = join(dir, 'one');
    const io = captured(env);
    writeFileSync(`${one}-a.tar.gz`, await tarGz({ 'PMC9999999/pntd.0002065.nxml': pmcArticle('pntd.0002065') }));
    writeFileSync(`${one}-b.tar.gz`, await tarGz({ 'PMC9000001/plos.nxml': readFileSync(join(jats, 'plain.nxml')) }));
    expect(await runImportCommand(['--challenge', 'jats', `${one}-a.tar.gz`, `${one}-b.tar.gz`], io), io.err).toBe(0);
    const summary = JSON.parse(io.out);
    expect(Object.keys(summary.ids).sort()).toEqual(['PMC3585041', 'PMC9000001']);
    expect(summary.idSources).toEqual({ pmcid: 1, 'package-folder': 1 });
  });
});
