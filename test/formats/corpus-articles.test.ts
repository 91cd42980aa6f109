// Corpora in the field's formats through the article routes: BioC XML/JSON (collections,
// a single PubTator API document, sentence-split passages) and PubTator text become
// articles whose text is the passages at their offsets, so every annotation of the file
// still fits; a bad document refuses the batch (nothing stored) or, with
// badDocuments "skip", is left out and named. Their passages are stored as the article's
// sections; raw BioC bodies (XML, JSON) and BioC JSON lines load the same way.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCorpusFile } from '../../src/formats/corpus-file.ts';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';
import { send } from '../leaderboard/helpers.ts';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '..', 'fixtures', name), 'utf8');
let ms: TestMetaserver;

beforeAll(async () => {
  ms = await startTestMetaserver({ workers: false });
  for (const slug of ['cdr', 'py', 'batch', 'skip', 'raw', 'lines']) {
    await ms.challenge(slug, { tasks: ['MENTION'] });
  }
});
afterAll(async () => {
  await ms?.stop();
});

const stored = async (slug: string, id: string) =>
  (await ms.request('GET', `/api/challenges/${slug}/articles/${id}`, undefined, ADMIN_TOKEN)).body;
const sectionsOf = async (slug: string, id: string) =>
  (
    await ms.database.db.query<{ sections: unknown }>(
      'select a.sections from articles a join challenges c on c.id = a.challenge_id where c.slug = $1 and a.organiser_id = $2',
      [slug, id],
    )
  )[0]?.sections;
const count = async () => Number((await ms.database.db.query<{ n: string }>('select count(*) as n from articles'))[0].n);

describe('corpus files become articles', () => {
  it('PubTator (BC5CDR sample): title LF abstract; every annotation is the text at its offsets once stored', async () => {
    const content = fixture('pubtator/cdr-sample-4.txt');
    const res = await ms.request('POST', '/api/challenges/cdr/articles', { pubtator: content, file: 'cdr-sample-4.txt' }, ADMIN_TOKEN);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ accepted: 4, created: 4 });
    let checked = 0;
    for (const line of content.split('\n')) {
      const cols = line.split('\t');
      if (cols.length < 6) continue;
      const article = await stored('cdr', cols[0]);
      expect(article.sourceFormat).toBe('pubtator');
      expect([...article.text].slice(Number(cols[1]), Number(cols[2])).join('')).toBe(cols[3]);
      checked++;
    }
    expect(checked).toBe(65);
    const first = await stored('cdr', '26094');
    expect(first.text.startsWith('Antihypertensive drugs and depression: a reappraisal.\nEighty-nine new referral')).toBe(true);
  });

  it('BioC JSON as the PubTator API sends one document, and BioC XML with sentences and document annotations', async () => {
    // The reference library's test collection: passages split into sentences, non-ASCII text.
    const xml = fixture('bioc/bioc-python-everything.xml');
    const res = await ms.request('POST', '/api/challenges/py/articles', { bioc: xml, file: 'everything.xml' }, ADMIN_TOKEN);
    expect(res.status).toBe(202);
    const two = await stored('py', '2');
    expect(two.sourceFormat).toBe('bioc');
    expect([...two.text].slice(27, 34).join('')).toBe('abcdefg');
    expect([...two.text].slice(34, 36).join('')).toBe('测试');
    // BioC JSON sent as JSON itself, not as a string.
    const json = JSON.parse(fixture('bioc/bioc-python-everything.json'));
    const again = await ms.request('POST', '/api/challenges/py/articles', { bioc: json }, ADMIN_TOKEN);
    expect(again.body).toMatchObject({ accepted: 2, created: 0 });
  });

  it('the PubTator API document loads once its id can be an organiser id; the refusal names file, document and reason', async () => {
    const api = fixture('bioc/pubtator-api-34546791.json');
    const refused = await ms.request('POST', '/api/challenges/batch/articles', { bioc: api, file: 'pubtator-api.json' }, ADMIN_TOKEN);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('invalid_corpus');
    expect(refused.body.error.details).toEqual([
      expect.objectContaining({
        file: 'pubtator-api.json',
        document: '10.1126/scisignal.abf3535',
        reason: expect.stringMatching(/no "\/"/),
      }),
    ]);
    const doc = JSON.parse(api);
    doc.id = '34546791';
    const res = await ms.request('POST', '/api/challenges/batch/articles', { bioc: doc }, ADMIN_TOKEN);
    expect(res.status).toBe(202);
    const article = await stored('batch', '34546791');
    for (const p of doc.passages)
      for (const a of p.annotations)
        expect([...article.text].slice(a.locations[0].offset, a.locations[0].offset + a.locations[0].length).join('')).toBe(a.text);
  });

  it('one bad annotation refuses the batch and stores nothing; badDocuments "skip" loads its document without it, named', async () => {
    const good = fixture('pubtator/tmvar-normalization-3.txt');
    // The second document's annotation no longer fits its text.
    const bad = good.replace('22188495\t1031\t1038\t3190C>T', '22188495\t1031\t1038\t3190C>X');
    const before = await count();
    const res = await ms.request('POST', '/api/challenges/skip/articles', { pubtator: bad, file: 'tmvar.txt' }, ADMIN_TOKEN);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_corpus' });
    expect(res.body.error.message).toMatch(/tmvar\.txt line \d+: document 22188495: annotation L\d+ says its text is "3190C>X"/);
    expect(res.body.error.details).toEqual([{ file: 'tmvar.txt', document: '22188495', reason: expect.stringContaining('3190C>X') }]);
    expect(await count()).toBe(before);
    const skipped = await ms.request(
      'POST',
      '/api/challenges/skip/articles',
      { pubtator: bad, file: 'tmvar.txt', badDocuments: 'skip' },
      ADMIN_TOKEN,
    );
    expect(skipped.status).toBe(202);
    // Before, the whole document (text and all) was left out for its one annotation.
    expect(skipped.body).toMatchObject({ accepted: 3, created: 3, refused: [] });
    expect(skipped.body.annotationsLeftOut).toEqual([
      {
        file: 'tmvar.txt',
        document: '22188495',
        annotation: expect.stringMatching(/^L\d+$/),
        reason: expect.stringMatching(/says its text is "3190C>X".*left out, the document's text was loaded/),
      },
    ]);
    expect(Object.keys(skipped.body.ids).sort()).toEqual(['20846357', '22051099', '22188495']);
    expect((await stored('skip', '22188495')).text).toBe(readCorpusFile(good, 'tmvar').find((d) => d.id === '22188495')!.text);
    // A document that cannot be read at all is still left out and named in "refused".
    const broken = `${bad.trimEnd()}\n\n99999|t|A title\n99999\tnot an annotation line\n`;
    const some = await ms.request(
      'POST',
      '/api/challenges/skip/articles',
      { pubtator: broken, file: 'tmvar.txt', badDocuments: 'skip' },
      ADMIN_TOKEN,
    );
    expect(some.status).toBe(202);
    expect(some.body).toMatchObject({ accepted: 3, refused: [{ file: 'tmvar.txt', document: '99999' }] });
    expect(some.body.annotationsLeftOut).toHaveLength(1);
  });

  it('a file that is no corpus at all is refused naming it', async () => {
    const res = await ms.request(
      'POST',
      '/api/challenges/skip/articles',
      { bioc: '<collection><document>', file: 'broken.xml' },
      ADMIN_TOKEN,
    );
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_corpus');
    expect(res.body.error.message).toMatch(/broken\.xml/);
  });

  it('POST /api/articles takes a corpus of one document', async () => {
    const one = readCorpusFile(fixture('pubtator/cdr-sample-4.txt'), 'cdr').slice(0, 1);
    const pubtator = fixture('pubtator/cdr-sample-4.txt').split('\n\n')[0];
    const res = await ms.request('POST', '/api/articles', { pubtator });
    expect(res.status).toBe(202);
    const article = (await ms.request('GET', `/api/articles/${res.body.id}`)).body;
    expect(article.text).toBe(one[0].text);
    const many = await ms.request('POST', '/api/articles', { pubtator: fixture('pubtator/cdr-sample-4.txt') });
    expect(many.status).toBe(400);
    expect(many.body.error.message).toMatch(/holds 4 documents/);
  });

  it('stores the passages of each document as its sections: PubTator title and abstract, BioC passages', async () => {
    expect(await sectionsOf('cdr', '26094')).toEqual(
      readCorpusFile(fixture('pubtator/cdr-sample-4.txt'), 'cdr').find((d) => d.id === '26094')!.sections,
    );
    expect(await sectionsOf('cdr', '26094')).toEqual([
      { offset: 0, length: 53, name: 'title' },
      expect.objectContaining({ offset: 54, name: 'abstract' }),
    ]);
    expect(await sectionsOf('py', '2')).toEqual(
      readCorpusFile(fixture('bioc/bioc-python-everything.xml'), 'x').find((d) => d.id === '2')!.sections,
    );
  });

  it('a raw BioC body: XML as application/xml, a collection as JSON; the batch options from the query', async () => {
    const xml = await send(ms, 'POST', '/api/challenges/raw/articles', {
      body: fixture('bioc/bioc-python-everything.xml'),
      type: 'application/xml',
      token: ADMIN_TOKEN,
    });
    expect(xml.status, xml.text).toBe(202);
    expect(xml.json).toMatchObject({ accepted: 2, created: 2 });
    expect((await stored('raw', '2')).sourceFormat).toBe('bioc');
    expect(await sectionsOf('raw', '2')).toEqual(await sectionsOf('py', '2'));
    const api = { ...JSON.parse(fixture('bioc/pubtator-api-34546791.json')), id: '34546791' };
    const bad = { ...api, id: 'bad', passages: [{ ...api.passages[0], offset: 5 }, api.passages[1]] };
    const refused = await send(ms, 'POST', '/api/challenges/raw/articles?file=api.json', {
      body: { documents: [api, bad] },
      token: ADMIN_TOKEN,
    });
    expect(refused.status).toBe(400);
    expect(refused.json.error.code).toBe('invalid_corpus');
    expect(refused.json.error.details).toEqual([
      expect.objectContaining({ file: 'api.json', document: 'bad', reason: expect.stringMatching(/offset 108 overlaps/) }),
    ]);
    const skipped = await send(ms, 'POST', '/api/challenges/raw/articles?file=api.json&badDocuments=skip', {
      body: { documents: [api, bad] },
      token: ADMIN_TOKEN,
    });
    expect(skipped.status, skipped.text).toBe(202);
    expect(skipped.json).toMatchObject({ accepted: 1, created: 1, refused: [{ file: 'api.json', document: 'bad' }] });
    expect(await sectionsOf('raw', '34546791')).toEqual([
      { offset: 0, length: 107, name: 'title', infons: expect.objectContaining({ type: 'title', 'article-id_pmc': 'PMC8734558' }) },
      { offset: 108, length: 1589, name: 'abstract', infons: { type: 'abstract' } },
    ]);
    // A JATS article has no id to load it under: the refusal says how to send it.
    const jats = await send(ms, 'POST', '/api/challenges/raw/articles', {
      body: fixture('jats/plain.nxml'),
      type: 'text/xml',
      token: ADMIN_TOKEN,
    });
    expect(jats.status).toBe(400);
    expect(jats.json.error).toMatchObject({
      code: 'invalid_corpus',
      message: expect.stringMatching(/root element <pmc-articleset>.*"articles"/),
    });
  });

  it('POST /api/articles takes a raw BioC document and a raw JATS article', async () => {
    const one = `<?xml version="1.0"?>\n<!DOCTYPE collection SYSTEM "BioC.dtd">\n<collection><source/><date/><key/><document><id>7</id><passage><infon key="type">title</infon><offset>0</offset><text>Aspirin and mice.</text></passage></document></collection>`;
    const bioc = await send(ms, 'POST', '/api/articles', { body: one, type: 'application/xml' });
    expect(bioc.status, bioc.text).toBe(202);
    const article = (await ms.request('GET', `/api/articles/${bioc.json.id}`)).body;
    expect(article).toMatchObject({ text: 'Aspirin and mice.', sourceFormat: 'bioc' });
    const jats = await send(ms, 'POST', '/api/articles', { body: fixture('jats/plain.nxml'), type: 'application/xml' });
    expect(jats.status, jats.text).toBe(202);
    expect((await ms.request('GET', `/api/articles/${jats.json.id}`)).body.sourceFormat).toBe('jats');
    const other = await send(ms, 'POST', '/api/articles', { body: '<html><body/></html>', type: 'application/xml' });
    expect(other.status).toBe(400);
    expect(other.json.error.message).toMatch(/root element <html>/);
  });

  it('BioC JSON lines in "bioc": the documents of every line loaded; a bad line refused by its number', async () => {
    const api = { ...JSON.parse(fixture('bioc/pubtator-api-34546791.json')), id: '34546791' };
    const lines = `${JSON.stringify(api)}\n${JSON.stringify(JSON.parse(fixture('bioc/bioc-python-everything.json')))}\n`;
    const res = await ms.request('POST', '/api/challenges/lines/articles', { bioc: lines, file: 'bulk.jsonl' }, ADMIN_TOKEN);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(Object.keys(res.body.ids).sort()).toEqual(['1', '2', '34546791']);
    const bad = await ms.request(
      'POST',
      '/api/challenges/lines/articles',
      { bioc: `${lines}{"id": "3",\n`, file: 'bulk.jsonl' },
      ADMIN_TOKEN,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_corpus', message: expect.stringMatching(/bulk\.jsonl: line 3: not JSON/) });
  });
});
