// Raw XML bodies on the article routes are decoded as `metaserver import` decodes XML files
// (formats/text-decoding.ts): a real article in windows-1252 that says so in its XML
// declaration is stored with the text of its UTF-8 original; the same bytes without the
// declaration are refused naming the body, the offset of the first bad byte and the likely
// encoding, and nothing is stored. The article is PLOS ONE's pone.0008915 transcoded by
// iconv (test/support/transcoded-article.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jatsToText } from '../../src/formats/jats.ts';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';
import { firstHighByte, utf8Article, windows1252Article } from '../support/transcoded-article.ts';
import { send } from '../leaderboard/helpers.ts';

let ms: TestMetaserver;
beforeAll(async () => {
  ms = await startTestMetaserver({ workers: false });
  await ms.challenge('latin', { tasks: ['MENTION'] });
});
afterAll(async () => {
  await ms?.stop();
});
const count = async () => Number((await ms.database.db.query<{ n: string }>('select count(*) as n from articles'))[0].n);

describe('raw XML bodies in their declared encoding', () => {
  it('POST /api/articles reads a JATS article declared windows-1252 or ISO-8859-1 to its UTF-8 text', async () => {
    const original = jatsToText(utf8Article()).text;
    for (const declared of ['windows-1252', 'ISO-8859-1']) {
      const res = await send(ms, 'POST', '/api/articles', { body: windows1252Article(declared), type: 'application/xml' });
      expect(res.status, res.text).toBe(202);
      expect((await ms.request('GET', `/api/articles/${res.json.id}`)).body.text).toBe(original);
    }
  });

  it('refuses undeclared non-UTF-8 bytes naming the file, the first bad byte and the likely encoding; nothing is stored', async () => {
    const before = await count();
    const bytes = windows1252Article(undefined);
    const res = await send(ms, 'POST', '/api/challenges/latin/articles?file=pone.0008915.nxml', {
      body: bytes,
      type: 'application/xml',
      token: ADMIN_TOKEN,
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('invalid_utf8');
    expect(res.json.error.message).toMatch(
      new RegExp(
        `^pone\\.0008915\\.nxml is not UTF-8 \\(it declares no encoding.*at offset ${firstHighByte(bytes)} .*looks like windows-1252`,
      ),
    );
    const one = await send(ms, 'POST', '/api/articles', { body: bytes, type: 'text/xml' });
    expect(one.json.error.message).toMatch(/^the request body is not UTF-8/);
    expect(await count()).toBe(before);
  });

  it('takes the Content-Type charset when the XML declares none', async () => {
    const res = await send(ms, 'POST', '/api/articles', {
      body: windows1252Article(undefined),
      type: 'application/xml; charset=windows-1252',
    });
    expect(res.status, res.text).toBe(202);
  });
});
