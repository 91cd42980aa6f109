// Bad input at the HTTP edge gets a 4xx with a clear JSON error and leaves nothing behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { jatsToText } from '../../src/formats/jats.ts';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';

let ms: TestMetaserver;

beforeAll(async () => {
  ms = await startTestMetaserver({ workers: false });
  await ms.challenge('edge', { name: 'Edge' });
});
afterAll(async () => {
  await ms?.stop();
});

async function raw(method: 'POST' | 'PUT', url: string, payload: Buffer | string, contentType = 'application/json', token?: string) {
  const res = await ms.app!.inject({
    method,
    url,
    payload,
    headers: { 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return { status: res.statusCode, body: res.json() };
}

describe('the HTTP edge', () => {
  it('refuses a body that is not valid UTF-8, and stores nothing', async () => {
    const bad = Buffer.concat([Buffer.from('{"text":"caf'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    const res = await raw('POST', '/api/articles', bad);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_utf8');
    expect(await ms.database.db.query('select 1 from articles')).toHaveLength(0);
  });

  it('refuses malformed JSON with the parser message', async () => {
    const res = await raw('POST', '/api/articles', '{"text": "abc",');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_json' });
    expect(res.body.error.message).toMatch(/not valid JSON/);
  });

  it('names the schema problem', async () => {
    const res = await ms.request('POST', '/api/challenges', { slug: 'Bad Slug', name: 'x', tasks: ['NOPE'] }, ADMIN_TOKEN);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.message).toMatch(/slug/);
    expect(res.body.error.message).toMatch(/tasks/);
  });

  it('requires the organiser token for organiser routes', async () => {
    expect((await ms.request('POST', '/api/challenges', { slug: 'x1', name: 'x', tasks: ['INT'] })).status).toBe(401);
    const team = await ms.team('Edge team');
    const res = await ms.request('POST', '/api/challenges', { slug: 'x1', name: 'x', tasks: ['INT'] }, team.token);
    expect(res.status).toBe(403);
    expect((await ms.request('GET', '/api/challenges/x1')).status).toBe(404);
    expect((await ms.request('POST', '/api/challenges', {}, 'not-a-token')).status).toBe(401);
  });

  it('loads a batch atomically: a conflicting id refuses the whole batch', async () => {
    const first = await ms.request('POST', '/api/challenges/edge/articles', { articles: [{ id: 'D1', text: 'one' }] }, ADMIN_TOKEN);
    expect(first.status).toBe(202);
    const same = await ms.request('POST', '/api/challenges/edge/articles', { articles: [{ id: 'D1', text: 'one' }] }, ADMIN_TOKEN);
    expect(same.status).toBe(202);
    expect(same.body).toMatchObject({ accepted: 1, created: 0, ids: { D1: first.body.ids.D1 } });
    const clash = await ms.request(
      'POST',
      '/api/challenges/edge/articles',
      {
        articles: [
          { id: 'D2', text: 'two' },
          { id: 'D1', text: 'changed' },
        ],
      },
      ADMIN_TOKEN,
    );
    expect(clash.status).toBe(409);
    expect(clash.body.error.details).toEqual([{ organiserId: 'D1', articleId: first.body.ids.D1 }]);
    expect(await ms.database.db.query(`select organiser_id from articles where organiser_id = 'D2'`)).toHaveLength(0);
    const dup = await ms.request(
      'POST',
      '/api/challenges/edge/articles',
      {
        articles: [
          { id: 'D3', text: 'a' },
          { id: 'D3', text: 'a' },
        ],
      },
      ADMIN_TOKEN,
    );
    expect(dup.status).toBe(400);
    expect(dup.body.error.message).toMatch(/D3.*twice/);
  });

  it('refuses an article over the size limit with 413', async () => {
    const res = await ms.request('POST', '/api/articles', { text: 'x'.repeat(ms.config.maxArticleBytes + 1) });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('article_too_large');
  });

  it('replaces XML-illegal characters one for one, so offsets do not move', async () => {
    const res = await ms.request('POST', '/api/articles', { text: 'a\u0001b\u000bc\ufffed' });
    expect(res.status).toBe(202);
    const article = await ms.request('GET', `/api/articles/${res.body.id}`);
    expect(article.body.text).toBe('a b c d');
  });

  it('sends and stores articles without carriage returns, one character for one: CR LF → space LF, a lone CR → LF', async () => {
    const res = await ms.request('POST', '/api/articles', { text: 'Title\r\n\r\nBRCA1 binds\rp53.\r\n' });
    expect(res.status).toBe(202);
    const article = await ms.request('GET', `/api/articles/${res.body.id}`);
    expect(article.body.text).toBe('Title \n \nBRCA1 binds\np53. \n');
  });

  it('refuses an article of forbidden characters only, like a blank text, and stores nothing', async () => {
    const before = (await ms.database.db.query('select 1 from articles')).length;
    const res = await ms.request('POST', '/api/articles', { text: '\u0001\u0002\u0000' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/only characters XML cannot carry/);
    const batch = await ms.request(
      'POST',
      '/api/challenges/edge/articles',
      {
        articles: [
          { id: 'C1', text: 'fine' },
          { id: 'C2', text: '\u0007 \uFFFF\r\n' },
        ],
      },
      ADMIN_TOKEN,
    );
    expect(batch.status).toBe(400);
    expect(batch.body.error.message).toMatch(/articles\[1\] \(C2\)/);
    expect(await ms.database.db.query('select 1 from articles')).toHaveLength(before);
  });

  it('converts a JATS article to the plain-text layout and stores the converted text', async () => {
    const xml = readFileSync(new URL('../fixtures/jats/plain.nxml', import.meta.url), 'utf8');
    const res = await ms.request('POST', '/api/articles', { xml });
    expect(res.status).toBe(202);
    const article = await ms.request('GET', `/api/articles/${res.body.id}`);
    expect(article.body).toMatchObject({ sourceFormat: 'jats', text: jatsToText(xml).text });
    const broken = await ms.request('POST', '/api/articles', { xml: '<article><body>' });
    expect(broken.status).toBe(400);
    expect(broken.body.error.code).toBe('invalid_jats');
  });

  it('refuses server URLs that are not http(s) or point at link-local/metadata addresses', async () => {
    const team = await ms.team('URL team');
    for (const url of ['ftp://example.org/', 'http://169.254.169.254/latest/meta-data', 'http://[fe80::1]/', 'not a url']) {
      const res = await ms.request('POST', '/api/challenges/edge/servers', { name: `s-${url.length}`, url, tasks: ['INT'] }, team.token);
      expect(res.status, url).toBe(400);
      expect(res.body.error.message).toMatch(/URL/);
    }
    expect(await ms.database.db.query('select 1 from servers')).toHaveLength(0);
  });

  it('answers unknown routes with a JSON 404', async () => {
    const res = await ms.app!.inject({ method: 'GET', url: '/api/nothing' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
  });

  it('publishes the OpenAPI description', async () => {
    const res = await ms.app!.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths)).toContain('/api/servers/{id}');
  });
});

describe('bad bodies on every route that takes one', () => {
  // Enumerated from the OpenAPI document, so a new route with a body is covered by itself.
  async function bodyRoutes() {
    const doc = (await ms.app!.inject({ method: 'GET', url: '/openapi.json' })).json<{ paths: Record<string, Record<string, unknown>> }>();
    const params: Record<string, string> = { slug: 'edge', task: 'INT', kind: 'ho', id: '1', name: 'suite', serverId: '1', format: 'tsv' };
    return Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => ['post', 'put', 'patch'].includes(m))
        .map((m) => ({ method: m.toUpperCase() as 'POST', url: path.replace(/\{(\w+)\}/g, (_, p: string) => params[p] ?? 'x') })),
    );
  }

  it('invalid UTF-8 and malformed JSON get a 4xx JSON error everywhere, never a 500', async () => {
    const routes = await bodyRoutes();
    expect(routes.length).toBeGreaterThan(8);
    const badUtf8 = Buffer.concat([Buffer.from('{"text":"caf'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    for (const r of routes) {
      for (const [payload, type] of [
        [badUtf8, 'application/json'],
        ['{"text": "abc",', 'application/json'],
        [badUtf8, 'text/plain'],
        ['', 'application/json'],
      ] as const) {
        const res = await ms.app!.inject({
          method: r.method,
          url: r.url,
          payload,
          headers: { 'content-type': type, authorization: `Bearer ${ADMIN_TOKEN}` },
        });
        // XML-RPC reports bad calls as a fault inside a 200 answer, as the protocol wants
        if (r.url === '/xmlrpc' && res.statusCode === 200) {
          expect(res.body).toContain('<fault>');
          continue;
        }
        expect(res.statusCode, `${r.method} ${r.url} (${type}): ${res.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${r.method} ${r.url} (${type})`).toBeLessThan(500);
      }
    }
  });
});

describe('the task of every :task route', () => {
  // Enumerated from the OpenAPI document, so a new :task route is covered by itself.
  async function taskRoutes() {
    const doc = (await ms.app!.inject({ method: 'GET', url: '/openapi.json' })).json<{ paths: Record<string, Record<string, unknown>> }>();
    return Object.entries(doc.paths)
      .filter(([path]) => path.includes('{task}'))
      .flatMap(([path, ops]) =>
        Object.keys(ops)
          .filter((m) => ['get', 'post', 'put'].includes(m))
          .map((m) => ({ method: m.toUpperCase() as 'GET', path })),
      );
  }
  // The answers' export routes need a server; any id will do, the task is judged first. The
  // streamed export and the gold's take the corpus formats only (a format they do not write is
  // refused by their schema); the gold's takes no server.
  const urlOf = (path: string, task: string) => {
    const gold = path.includes('/gold/');
    const format = path.endsWith('/stream') ? 'pubtator' : gold ? 'bioc-json' : 'tsv';
    const url = path.replace('{slug}', 'edge').replace('{task}', task).replace('{format}', format);
    return url + (path.includes('/export/') && !gold ? '?server=1' : '');
  };

  it('refuses a task no family has as unknown_task, naming the tasks there are, before the token is looked at', async () => {
    const routes = await taskRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(7);
    for (const r of routes) {
      const res = await ms.app!.inject({
        method: r.method,
        url: urlOf(r.path, 'NOPE'),
        ...(r.method === 'GET' ? {} : { payload: '{}', headers: { 'content-type': 'application/json' } }),
      });
      expect(res.statusCode, `${r.method} ${r.path}`).toBe(400);
      expect(res.json().error.code, `${r.method} ${r.path}`).toBe('unknown_task');
      expect(res.json().error.message, `${r.method} ${r.path}`).toMatch(/^unknown task "NOPE"; use one of (\w+, )+\w+$/);
    }
  });

  it('refuses a task the challenge does not run as unknown_task, and a missing challenge as not_found', async () => {
    const reads = (await taskRoutes()).filter((r) => r.method === 'GET');
    expect(reads.length).toBeGreaterThanOrEqual(4);
    for (const r of reads) {
      const res = await ms.app!.inject({ method: 'GET', url: urlOf(r.path, 'ACT'), headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(res.statusCode, r.path).toBe(400);
      expect(res.json().error, r.path).toMatchObject({
        code: 'unknown_task',
        message: 'challenge "edge" has no ACT task; its tasks are INT',
      });
      const missing = await ms.app!.inject({
        method: 'GET',
        url: urlOf(r.path, 'INT').replace('/edge/', '/nope/'),
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      expect(missing.statusCode, r.path).toBe(404);
      expect(missing.json().error, r.path).toMatchObject({ code: 'not_found', message: 'challenge "nope" not found' });
    }
  });
});
