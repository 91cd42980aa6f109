// The meta-server behind Debian's nginx, configured by the snippet the docs show
// (docs/deploy/nginx.conf), with a self-signed certificate, all on loopback: the API, the
// pages, /xmlrpc and /docs answer over HTTPS through it, and every address the server writes
// for itself (Location headers, redirects, the OpenAPI servers) says https:// and the
// proxy's host, from X-Forwarded-Proto/Host because the proxy is a trustProxy address. The
// same headers from anyone else are ignored; with publicUrl set, that is the address used.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { startNginx, type Nginx } from '../support/nginx.ts';
import { ADMIN_TOKEN, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { listenOnLoopback } from '../support/loopback.ts';
import { postCallback } from '../../src/callbacks/service.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { announcedUrl } from '../../src/http/public-url.ts';

describe('behind nginx with TLS', () => {
  let ms: TestMetaserver;
  let nginx: Nginx;
  let good: FaultyServer;
  let agent: Agent;
  let msUrl: string;

  beforeAll(async () => {
    ms = await startTestMetaserver({ workers: false, config: { trustProxy: '127.0.0.1' } });
    await ms.app!.listen({ port: 0, host: '127.0.0.1' });
    const port = (ms.app!.server.address() as { port: number }).port;
    msUrl = `http://127.0.0.1:${port}`;
    nginx = await startNginx(port);
    agent = new Agent({ connect: { ca: nginx.ca } }); // trusts the test's certificate only
    good = await startFaultyServer({ kind: 'good' });
  }, 60_000);
  afterAll(async () => {
    await agent?.close();
    await nginx?.stop();
    await ms?.stop();
    await good?.close();
  });

  /** A request through the proxy, over HTTPS, verifying the certificate. */
  async function https(method: string, path: string, opts: { body?: unknown; token?: string; type?: string; base?: string } = {}) {
    const headers: Record<string, string> = {};
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
      headers['content-type'] = opts.type ?? 'application/json';
    }
    const res = await request(`${opts.base ?? nginx.httpsUrl}${path}`, { method: method as 'GET', headers, body, dispatcher: agent });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text) };
  }

  it('walks the API over HTTPS; the Location headers name the proxy with https://', async () => {
    expect((await https('GET', '/healthz')).status).toBe(200);
    const team = await https('POST', '/api/teams', { body: { name: 'Proxied team', contact: 'p@example.org' } });
    expect(team.status, team.text).toBe(201);
    const token = team.json().token as string;

    const created = await https('POST', '/api/challenges', { body: { slug: 'rp', name: 'Proxied', tasks: ['INT'] }, token: ADMIN_TOKEN });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.location).toBe(`${nginx.httpsUrl}/api/challenges/rp`);
    const challenge = await https('GET', new URL(created.headers.location as string).pathname);
    expect(challenge.json()).toMatchObject({ slug: 'rp', name: 'Proxied' });

    const server = await https('POST', '/api/challenges/rp/servers', { body: { name: 'behind', url: good.url, tasks: ['INT'] }, token });
    expect(server.status, server.text).toBe(201);
    expect(server.json().check).toMatchObject({ ok: true });
    expect(server.headers.location).toBe(`${nginx.httpsUrl}/api/servers/${server.json().id}`);
    expect((await https('GET', `/api/servers/${server.json().id}`, { token })).json()).toMatchObject({
      name: 'behind',
      checkRunning: false,
    });

    const article = await https('POST', '/api/articles', { body: { text: 'BRCA1 (P38398) binds TP53.' } });
    expect(article.status, article.text).toBe(202);
    expect(article.headers.location).toBe(`${nginx.httpsUrl}/api/articles/${article.json().id}`);
    // The client's address is the one nginx names (X-Forwarded-For from a trusted proxy).
    const logged = await ms.database.db.query<{ submitted_by: string }>('select submitted_by from articles where id = $1', [
      article.json().id,
    ]);
    expect(logged[0]?.submitted_by).toBe('ip:127.0.0.1');
  });

  it('serves the pages, /xmlrpc and /docs through it; redirects and the OpenAPI servers name https://', async () => {
    for (const page of ['/', '/team', '/organiser', '/challenges/rp/leaderboard/INT']) {
      const res = await https('GET', page);
      expect(res.status, page).toBe(200);
      expect(res.headers['content-type'], page).toMatch(/^text\/html/);
      // Links stay on the host the browser used: none names the meta-server's own port.
      expect(res.text, page).not.toContain(msUrl);
      expect(res.text, page).not.toMatch(/(href|src|action)="http:\/\//);
    }
    const redirect = await https('GET', '/testsuites?name=a-suite');
    expect(redirect.status).toBe(302);
    expect(redirect.headers.location).toBe(`${nginx.httpsUrl}/testsuites/a-suite`);

    const xmlrpc = await https('POST', '/xmlrpc', {
      body: '<?xml version="1.0"?><methodCall><methodName>system.listMethods</methodName><params/></methodCall>',
      type: 'text/xml',
    });
    expect(xmlrpc.status).toBe(200);
    expect(xmlrpc.text).toContain('<string>Annotations.getAnnotations</string>');

    const docs = await https('GET', '/docs/');
    expect(docs.status).toBe(200);
    expect(docs.text).toMatch(/swagger/i);
    for (const path of ['/docs/json', '/openapi.json']) {
      const spec = await https('GET', path);
      expect(spec.status, path).toBe(200);
      expect(spec.json().servers, path).toEqual([{ url: nginx.httpsUrl }]);
    }

    // Plain HTTP on the snippet's second server block goes to HTTPS.
    const plain = await request(`${nginx.httpUrl}/api/challenges`, { method: 'GET' });
    await plain.body.dump();
    expect(plain.statusCode).toBe(301);
    expect(plain.headers.location).toBe('https://127.0.0.1/api/challenges');
    expect(nginx.errorLog()).not.toMatch(/\[(error|crit|alert|emerg)\]/);
  });

  it('ignores X-Forwarded-Proto/Host from an address that is not a trusted proxy', async () => {
    const headers = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example', host: 'metaserver.internal:8080' };
    const direct = await ms.app!.inject({ method: 'GET', url: '/openapi.json', headers, remoteAddress: '10.9.8.7' });
    expect(direct.json().servers).toEqual([{ url: 'http://metaserver.internal:8080' }]);
    const viaProxy = await ms.app!.inject({ method: 'GET', url: '/openapi.json', headers, remoteAddress: '127.0.0.1' });
    expect(viaProxy.json().servers).toEqual([{ url: 'https://evil.example' }]);
    // A Host that is not a host name is not repeated: the address the connection reached is named instead.
    const odd = await ms.app!.inject({ method: 'GET', url: '/openapi.json', headers: { host: 'a b/<x>' }, remoteAddress: '10.9.8.7' });
    expect(odd.json().servers[0].url).not.toContain('<');
  });

  it('with publicUrl set, names that address whatever the request says', async () => {
    const pub = await startTestMetaserver({
      workers: false,
      database: ms.database,
      config: { publicUrl: 'https://metaserver.example.org/', queuePrefix: ms.config.queuePrefix },
    });
    try {
      const created = await pub.app!.inject({
        method: 'POST',
        url: '/api/challenges',
        payload: { slug: 'pu', name: 'Public URL', tasks: ['INT'] },
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'x-forwarded-proto': 'http', host: 'internal:8080' },
      });
      expect(created.statusCode).toBe(201);
      expect(created.headers.location).toBe('https://metaserver.example.org/api/challenges/pu');
      expect((await pub.app!.inject({ method: 'GET', url: '/openapi.json' })).json().servers).toEqual([
        { url: 'https://metaserver.example.org' },
      ]);

      // A callback (sent by a worker, with no request to take an address from) says where its article is read.
      const received: IncomingHttpHeaders[] = [];
      const receiver = await listenOnLoopback(
        createServer((req, res) => {
          received.push(req.headers);
          req.resume();
          res.end();
        }),
      );
      try {
        const submitted = await pub.app!.inject({
          method: 'POST',
          url: '/api/articles',
          payload: { text: 'SNCA binds BRCA1.', callbackUrl: `http://127.0.0.1:${receiver.port}/done` },
        });
        expect(submitted.statusCode, submitted.body).toBe(202);
        const id = submitted.json().id as string;
        expect(submitted.headers.location).toBe(`https://metaserver.example.org/api/articles/${id}`);
        const outcome = await postCallback(pub.ctx.repos.answers, (await pub.ctx.repos.articles.byId(id))!, pub.config);
        expect(outcome).toMatchObject({ ok: true, status: 200 });
        expect(received[0]?.['content-location']).toBe(`https://metaserver.example.org/api/articles/${id}`);
      } finally {
        await receiver.close();
      }
    } finally {
      await pub.stop();
    }
  }, 60_000);
});

describe('the publicUrl setting', () => {
  it('is read from METASERVER_PUBLIC_URL and refused, naming the setting, when it is not a scheme and host', () => {
    expect(loadConfig({ METASERVER_PUBLIC_URL: 'https://metaserver.example.org' }).publicUrl).toBe('https://metaserver.example.org');
    expect(announcedUrl(loadConfig({ METASERVER_PUBLIC_URL: 'https://metaserver.example.org/' }), { host: '127.0.0.1', port: 8080 })).toBe(
      'https://metaserver.example.org',
    );
    expect(announcedUrl(loadConfig({}), { host: '0.0.0.0', port: 8080 })).toBe('http://127.0.0.1:8080');
    const refusals: Array<[string, RegExp]> = [
      ['https://example.org/metaserver', /has a path \(\/metaserver\); the server is served at the root of its host name/],
      ['metaserver.example.org', /is not a URL; give the address clients use/],
      ['ftp://example.org', /must start with https:\/\//],
      ['https://user:pw@example.org', /must not hold a user name or password/],
      ['https://example.org/?x=1', /must not hold a query or fragment/],
    ];
    for (const [value, message] of refusals) {
      expect(() => loadConfig({ METASERVER_PUBLIC_URL: value }), value).toThrow(ConfigError);
      expect(() => loadConfig({ METASERVER_PUBLIC_URL: value }), value).toThrow(
        new RegExp(
          `setting "publicUrl" \\(environment variable METASERVER_PUBLIC_URL\\): "${value.replace(/[.?/]/g, '\\$&')}" ${message.source}`,
        ),
      );
    }
  });
});
