// Every hostile input is a 4xx in the project's error shape, on every route, found from the
// OpenAPI document and the route table (so a new route is covered without a new case):
// ids past PostgreSQL's integer range are a 404 like any missing id; NUL and lone
// surrogates in any string — path, query string, JSON body, TSV upload — are a 400 that
// names the field, and nothing is stored with U+FFFD in their place; fastify's and Node's
// own refusals (bad %-escapes, over-long parameters, unknown content types, broken HTTP)
// have the same {"error": {"code", "message"}} shape. On PGlite and, with DATABASE_URL, PostgreSQL.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { ADMIN_TOKEN, startTestMetaserver, testDatabaseKinds, type TestMetaserver } from '../support/runtime.ts';
import { ROUTES, type Fixture } from './route-table.ts';
import { routesOf } from '../../src/auth/access.ts';

interface Parameter {
  in: 'path' | 'query';
  name: string;
  schema: { type?: string; enum?: string[]; anyOf?: unknown[]; 'x-row-id'?: string };
}
interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
}

const PAST_INT4 = ['2147483648', '99999999999999999999'];

/** The body fields that hold article text (see src/articles/routes.ts). */
const ARTICLE_TEXT_FIELDS = ['text', 'given'];

describe.each(testDatabaseKinds())('hostile input on %s', (databaseKind) => {
  let ms: TestMetaserver;
  let good: FaultyServer;
  let fixture: Fixture;
  let operations: Operation[];
  let counter = 0;

  async function call(method: string, url: string, payload?: string | Buffer, contentType = 'application/json') {
    const headers: Record<string, string> = { authorization: `Bearer ${ADMIN_TOKEN}` };
    if (payload !== undefined) headers['content-type'] = contentType;
    const res = await ms.app!.inject({ method: method as 'GET', url, headers, payload });
    let body: any = res.body;
    try {
      body = res.json();
    } catch {
      // not JSON: the assertions below show it
    }
    return { status: res.statusCode, body };
  }

  /** A URL of the operation with every parameter at a good value, but `name` at `value` (already encoded). */
  function urlOf(op: Operation, name?: string, value?: string): string {
    const good: Record<string, string> = {
      slug: fixture.slug,
      task: 'INT',
      kind: 'ho',
      format: op.path.endsWith('/stream') ? 'pubtator' : 'tsv',
      name: 'no-such-suite',
      serverId: String(fixture.serverA),
      server: String(fixture.serverA),
      model: '1',
      id: op.path.startsWith('/api/servers')
        ? String(fixture.serverA)
        : op.path.includes('/challenges/')
          ? fixture.organiserId
          : fixture.articleId,
    };
    const at = (p: Parameter) => (p.name === name ? value! : encodeURIComponent(good[p.name] ?? 'x'));
    let path = op.path;
    for (const p of op.parameters.filter((p) => p.in === 'path')) path = path.replace(`{${p.name}}`, at(p));
    const query = op.parameters
      .filter((p) => p.in === 'query' && (p.name === name || p.name === 'server'))
      .map((p) => `${p.name}=${at(p)}`);
    return query.length > 0 ? `${path}?${query.join('&')}` : path;
  }

  beforeAll(async () => {
    ms = await startTestMetaserver({ workers: false, databaseKind, config: { submitRateLimitPerMinute: 10_000 } });
    good = await startFaultyServer({ kind: 'good' });
    await ms.challenge('hx', { name: 'Hostile', tasks: ['INT', 'MENTION'] });
    const loaded = await ms.articles('hx', [{ id: 'H1', text: 'BRCA1 (P38398) binds TP53.' }]);
    const team = (await ms.team('Hostile team')).token;
    const server = await ms.server('hx', team, { name: 'main', url: good.url });
    const id = server.id as number;
    fixture = {
      slug: 'hx',
      serverA: id,
      serverB: id,
      deletable: { anonymous: id, teamA: id, teamB: id, admin: id },
      articleId: loaded.ids.H1,
      organiserId: 'H1',
      goodUrl: good.url,
      unique: () => String(++counter),
    };
    const doc = (await call('GET', '/openapi.json')).body as { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };
    operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, parameters: op.parameters ?? [] })),
    );
  });
  afterAll(async () => {
    await ms?.stop();
    await good?.close();
  });

  it('an id past the integer range is a 404 on every route taking one (path or query string)', async () => {
    const idParameters = operations.flatMap((op) => op.parameters.filter((p) => p.schema['x-row-id']).map((p) => ({ op, p })));
    // Every route with a numeric id, by the shared schema: the server routes, answers, exports, reports, the ensemble model.
    expect(idParameters.length).toBeGreaterThanOrEqual(10);
    for (const { op, p } of idParameters) {
      for (const id of PAST_INT4) {
        const res = await call(op.method, urlOf(op, p.name, id), op.method === 'GET' || op.method === 'DELETE' ? undefined : '{}');
        expect(res.status, `${op.method} ${op.path} ${p.in} ${p.name}=${id}: ${JSON.stringify(res.body)}`).toBe(404);
        expect(res.body.error, `${op.method} ${op.path}`).toMatchObject({
          code: 'not_found',
          message: `${p.schema['x-row-id']} ${id} not found`,
        });
      }
    }
    // The XML-RPC and web routes that take server ids, and ids in JSON bodies (a bad request there, not a missing page).
    expect((await call('GET', '/fragments/servers/2147483648')).status).toBe(404);
    const suite = await call('POST', '/api/testsuites', JSON.stringify({ name: 'big-ids', servers: [2147483648] }));
    expect(suite.status).toBe(400);
    expect(suite.body.error.message).toMatch(/body\/servers\/0 must be <= 2147483647/);
  });

  it('NUL in any path or query-string parameter is a 400 naming it', async () => {
    let checked = 0;
    for (const op of operations) {
      for (const p of op.parameters.filter((p) => p.schema.type === 'string' || p.schema['x-row-id'])) {
        const res = await call(op.method, urlOf(op, p.name, 'a%00b'), op.method === 'GET' || op.method === 'DELETE' ? undefined : '{}');
        const where = p.in === 'path' ? 'params' : 'querystring';
        expect(res.status, `${op.method} ${op.path} ${p.name}: ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body.error, `${op.method} ${op.path}`).toMatchObject({
          code: 'invalid_text',
          message: `${where}/${p.name} contains a NUL character (U+0000), which cannot be stored; remove it`,
        });
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(30);
  });

  /** The first string in a body (skipping the keys given), as a JSON pointer, with a way to change it. */
  function firstString(
    value: unknown,
    skip: readonly string[] = [],
    path: string[] = [],
  ): { path: string[]; set: (s: string) => void } | null {
    if (value === null || typeof value !== 'object') return null;
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === 'string' && !skip.includes(key))
        return { path: [...path, key], set: (s) => ((value as Record<string, unknown>)[key] = s) };
      const inner = firstString(item, skip, [...path, key]);
      if (inner) return inner;
    }
    return null;
  }

  it.each([
    ['NUL', 'a\u0000b', 'a NUL character (U+0000), which cannot be stored; remove it'],
    ['a lone surrogate', 'a\ud800b', 'a lone surrogate (U+D800), which is not a Unicode character; send the text as valid UTF-8'],
  ])('%s in any string of a JSON body or a text upload is a 400 naming the field; nothing is stored', async (_name, bad, what) => {
    let checked = 0;
    for (const [key, route] of Object.entries(ROUTES)) {
      if (!route.body) continue;
      const [method] = key.split(' ');
      const url = route.url(fixture, 'admin');
      const body = route.body(fixture, 'admin');
      if (typeof body === 'string') {
        if (route.contentType?.includes('xml')) continue; // XML-RPC: XML cannot carry either; the parser answers with a fault
        const at = body.indexOf('\t');
        if (bad.includes('\u0000')) {
          const res = await call(method, url, `${body.slice(0, at)}${bad}${body.slice(at)}`, route.contentType);
          expect(res.status, `${key}: ${JSON.stringify(res.body)}`).toBe(400);
          const column = [...body.slice(0, at)].length + bad.indexOf('\u0000') + 1;
          expect(res.body.error, key).toMatchObject({ code: 'invalid_text', message: `body line 1, column ${column} contains ${what}` });
        } else {
          // UTF-8 cannot encode a surrogate: its would-be bytes (ED A0 80) are refused as invalid UTF-8.
          const bytes = Buffer.concat([Buffer.from(body.slice(0, at)), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from(body.slice(at))]);
          const res = await call(method, url, bytes, route.contentType);
          expect(res.status, `${key}: ${JSON.stringify(res.body)}`).toBe(400);
          expect(res.body.error.code, key).toBe('invalid_utf8');
        }
        checked++;
        continue;
      }
      // A NUL in an article's text is one of the characters XML cannot carry, sent as a space
      // like the others (issue 16): every other string refuses it.
      const target = firstString(body, bad.includes('\u0000') ? ARTICLE_TEXT_FIELDS : []);
      if (!target) continue;
      target.set(bad);
      const res = await call(method, url, JSON.stringify(body));
      expect(res.status, `${key}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error, key).toMatchObject({ code: 'invalid_text', message: `body/${target.path.join('/')} contains ${what}` });
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(9);
    // An article text and an id inside a batch, by position.
    const batch = await call(
      'POST',
      '/api/challenges/hx/articles',
      JSON.stringify({
        articles: [
          { id: 'OK1', text: 'fine' },
          { id: `OK${bad}2`, text: `x${bad}y` },
        ],
      }),
    );
    expect(batch.body.error).toMatchObject({ code: 'invalid_text', message: `body/articles/1/id contains ${what}` });
    for (const table of ['teams', 'challenges', 'servers', 'articles', 'gold_entries']) {
      const rows = await ms.database.db.query(`select * from ${table}`).catch(() => null);
      if (rows) expect(JSON.stringify(rows), table).not.toMatch(/\uFFFD|\\u0000/);
    }
    expect(await ms.database.db.query(`select 1 from articles where organiser_id in ('OK1', 'OK2')`)).toHaveLength(0);
    // In the text itself a lone surrogate is refused, and a NUL is sent as a space (one character for one).
    const text = await call('POST', '/api/challenges/hx/articles', JSON.stringify({ articles: [{ id: 'OK3', text: `x${bad}y` }] }));
    if (bad.includes('\u0000')) {
      expect(text.status, JSON.stringify(text.body)).toBe(202);
      expect(await ms.database.db.query(`select text from articles where organiser_id = 'OK3'`)).toEqual([{ text: 'xa by' }]);
    } else {
      expect(text.body.error).toMatchObject({ code: 'invalid_text', message: `body/articles/0/text contains ${what}` });
    }
  });

  it('a repeated query parameter is a 400 naming it on every registered route, for anyone (never a 5xx)', async () => {
    // Every route fastify knows (the API, the pages, their fragments, /docs, /xmlrpc), not
    // only those in the OpenAPI document; each declared query parameter, and a few the pages read.
    const key = (op: Operation) => `${op.method} ${op.path.replace(/\{(\w+)\}/g, ':$1')}`;
    const declared = new Map(operations.map((op) => [key(op), op.parameters.filter((p) => p.in === 'query').map((p) => p.name)]));
    // A parameter whose schema takes a list (the test-suite report's `by`) is sent by repeating it.
    const takesList = (p: Parameter) =>
      p.schema.type === 'array' || (p.schema.anyOf ?? []).some((s) => (s as { type?: string }).type === 'array');
    const lists = new Map(
      operations.map((op) => [key(op), new Set(op.parameters.filter((p) => p.in === 'query' && takesList(p)).map((p) => p.name))]),
    );
    let listsSeen = 0;
    const routes = routesOf(ms.app!).filter((r) => r.method !== 'HEAD');
    expect(routes.length).toBeGreaterThanOrEqual(60);
    const good: Record<string, string> = {
      slug: fixture.slug,
      task: 'INT',
      kind: 'ho',
      format: 'tsv',
      name: 'no-such-suite',
      serverId: String(fixture.serverA),
      server: String(fixture.serverA),
      model: '1',
      id: String(fixture.serverA),
      '*': 'index.html',
    };
    let checked = 0;
    for (const route of routes) {
      const path = route.url.replace(/:(\w+)/g, (_, p: string) => encodeURIComponent(good[p] ?? 'x')).replace('*', good['*']);
      const names = [...new Set([...(declared.get(`${route.method} ${route.url}`) ?? []), 'all', 'name', 'state'])];
      for (const name of names) {
        for (const auth of [ADMIN_TOKEN, undefined]) {
          const res = await ms.app!.inject({
            method: route.method as 'GET',
            url: `${path}?${name}=1&${name}=0`,
            headers: auth ? { authorization: `Bearer ${auth}` } : {},
          });
          const where = `${route.method} ${route.url}?${name}=1&${name}=0 (${auth ? 'organiser' : 'anonymous'})`;
          if (lists.get(`${route.method} ${route.url}`)?.has(name)) {
            expect(res.statusCode, `${where}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
            if (res.statusCode === 400) expect(res.json().error.code, where).not.toBe('repeated_parameter');
            listsSeen++;
            continue;
          }
          expect(res.statusCode, `${where}: ${res.body.slice(0, 300)}`).toBe(400);
          expect(res.json().error, where).toEqual({
            code: 'repeated_parameter',
            message: `the query parameter "${name}" is given 2 times; each query parameter takes one value, so send it once`,
          });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(400);
    expect(listsSeen, "list parameters met (the test-suite report's by)").toBeGreaterThan(0);
    // The cases of the report: every option of the leaderboard page and its fragment, and the public suite list.
    for (const url of [
      '/challenges/hx/leaderboard/INT?all=1&all=0',
      '/fragments/challenges/hx/leaderboard/INT?all=1&all=0',
      '/testsuites?name=a&name=b',
      '/api/challenges?name=a&name=b&name=c',
    ]) {
      const res = await ms.app!.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.message, url).toMatch(/^the query parameter "(all|name)" is given [23] times/);
    }
    // One value, or several different parameters, are still answered.
    expect((await call('GET', '/challenges/hx/leaderboard/INT?all=1')).status).toBe(200);
  });

  it("fastify's own refusals use the project's error shape", async () => {
    const cases: Array<[string, string, string | undefined, string | undefined, number, string]> = [
      ['GET', '/api/servers/%zz', undefined, undefined, 400, 'bad_url'],
      ['GET', '/api/articles/%E0%A4%A', undefined, undefined, 400, 'bad_url'],
      ['GET', `/api/servers/${'1'.repeat(150)}`, undefined, undefined, 414, 'parameter_too_long'],
      ['POST', '/api/teams', 'name=x', 'application/x-www-form-urlencoded', 415, 'unsupported_media_type'],
      ['POST', '/api/teams', '{}', 'bogus/type', 415, 'unsupported_media_type'],
      ['GET', '/api/no/such/route', undefined, undefined, 404, 'not_found'],
    ];
    const deep = `${'['.repeat(100_000)}"a\\u0000"${']'.repeat(100_000)}`; // nested past any recursion limit
    cases.push(['POST', '/api/teams', deep, 'application/json', 400, 'invalid_text']);
    for (const [method, url, payload, type, status, code] of cases) {
      const res = await call(method, url, payload, type);
      expect(res.status, url).toBe(status);
      expect(Object.keys(res.body), url).toEqual(['error']);
      expect(res.body.error.code, url).toBe(code);
      expect(res.body.error.message, url).toMatch(/\w{3,} .*\w{3,}/);
    }
  });

  it('a request that is not HTTP gets a JSON error in the same shape before the connection closes', async () => {
    await ms.app!.listen({ port: 0, host: '127.0.0.1' });
    const port = (ms.app!.server.address() as { port: number }).port;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GARBAGE\u0000 / HTTP/9\r\n\r\n'));
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ error: { code: 'bad_http' } });
  });
});
