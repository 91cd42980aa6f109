// Limits at the edge and server URLs at call time: the per-IP rate limit on on-demand
// submission and team registration answers 429 with a JSON error saying when to retry;
// bodies over the size limit get 413; a server URL that is fine at registration but refused
// when called (publicUrlsOnly, checked after DNS when a connection is made) fails as
// `connection` with a clear detail and no request is made; a callback URL whose name is
// re-pointed at loopback after its check is refused when connecting, and so is the setup
// check of a server whose name was re-pointed after registration.
import { afterAll, describe, expect, it, vi } from 'vitest';

// A name that resolves to loopback without being called "localhost" (the .test top-level
// domain is reserved and never resolves for real): what a DNS rebinding would look like.
const REBOUND = 'annotator.example.test';
// A name re-pointed between the check and the connection: public when looked up first
// (the promise form), loopback when connected to (the callback form).
const REPOINTED = 'repointed.example.test';
vi.mock('node:dns/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:dns/promises')>();
  const lookup = (async (host: string, opts?: unknown) => {
    if (host === REBOUND) return [{ address: '127.0.0.1', family: 4 }];
    if (host === REPOINTED) return [{ address: '93.184.216.34', family: 4 }];
    return actual.lookup(host, opts as never);
  }) as typeof actual.lookup;
  return { ...actual, lookup, default: { ...actual, lookup } };
});
// … and the callback form, which the connections to annotation servers resolve names with.
vi.mock('node:dns', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:dns')>();
  const lookup = ((host: string, opts: { all?: boolean }, callback: (err: Error | null, address: unknown, family?: number) => void) => {
    if (host !== REBOUND && host !== REPOINTED) return actual.lookup(host, opts as never, callback as never);
    if (opts.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
  }) as typeof actual.lookup;
  return { ...actual, lookup, default: { ...actual, lookup } };
});
import { resolvedUrlProblem, urlProblem } from '../../src/http/url-policy.ts';
import { postCallback } from '../../src/callbacks/service.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';

const started: TestMetaserver[] = [];
const servers: FaultyServer[] = [];
afterAll(async () => {
  await Promise.all(started.map((m) => m.stop()));
  await Promise.all(servers.map((s) => s.close()));
});

async function metaserver(config: Parameters<typeof startTestMetaserver>[0] = {}) {
  const ms = await startTestMetaserver({ workers: false, ...config });
  started.push(ms);
  return ms;
}

describe('rate limits', () => {
  it.each([
    ['/api/articles', (i: number) => ({ text: `article ${i}` }), 202],
    ['/api/teams', (i: number) => ({ name: `team ${i}`, contact: 'x@example.org' }), 201],
  ])(
    'the 31st %s in a minute from one IP gets 429 with when to retry',
    async (url, body, ok) => {
      // Room for more on-demand articles waiting than the rate limit lets through (see test/ondemand/limits.test.ts).
      const ms = await metaserver({ config: { onDemandPendingPerClient: 100 } });
      expect(ms.config.submitRateLimitPerMinute).toBe(30);
      for (let i = 0; i < 30; i++) expect((await ms.request('POST', url, body(i))).status).toBe(ok);
      const res = await ms.app!.inject({ method: 'POST', url, payload: body(31) });
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.json().error.message).toMatch(/retry in \d+/i);
      // another client IP is not limited
      const other = await ms.app!.inject({ method: 'POST', url, payload: body(32), remoteAddress: '127.0.0.2' });
      expect(other.statusCode).toBe(ok);
    },
    90_000,
  ); // 31 requests on a loaded machine; still far inside the one-minute window
});

describe('size limits', () => {
  it('a request body over bodyLimitBytes gets 413 on every JSON route', async () => {
    const ms = await metaserver({ config: { bodyLimitBytes: 2048 } });
    const big = JSON.stringify({ text: 'x'.repeat(4096) });
    for (const url of ['/api/articles', '/api/teams', '/api/challenges', '/api/challenges/live/servers']) {
      const res = await ms.app!.inject({
        method: 'POST',
        url,
        payload: big,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      expect(res.statusCode, url).toBe(413);
      expect(res.json().error).toBeDefined();
    }
  });
});

describe('server URLs', () => {
  it('http and https only; link-local and cloud metadata always refused; private and loopback only on a private deployment', async () => {
    expect(urlProblem('ftp://example.org/', false)).toMatch(/only http and https/);
    expect(urlProblem('file:///etc/passwd', false)).toMatch(/only http and https/);
    for (const url of [
      'http://169.254.169.254/',
      'http://[fe80::1]/',
      'http://[::ffff:169.254.169.254]/',
      'http://metadata.google.internal/',
      'http://100.100.100.200/',
    ]) {
      expect(urlProblem(url, false), url).not.toBeNull();
    }
    for (const url of ['http://127.0.0.1:8000/', 'http://10.1.2.3/', 'http://192.168.0.1/', 'http://[::1]/', 'http://localhost:8000/']) {
      expect(urlProblem(url, false), url).toBeNull();
      expect(await resolvedUrlProblem(url, true), url).not.toBeNull();
    }
  });

  it('re-checked after DNS at call time: a loopback name is refused as a connection failure, no request made', async () => {
    const ms = await startTestMetaserver({ config: { publicUrlsOnly: true } });
    started.push(ms);
    const target = await startFaultyServer({ kind: 'good' });
    servers.push(target);
    await ms.challenge('dns', { name: 'DNS', timeoutSeconds: 2, maxAttempts: 2, retryDelaySeconds: 0 });
    await ms.articles('dns', [{ id: 'N1', text: 'BRCA1 (P38398).' }]);
    const token = (await ms.team('DNS team')).token;
    // Registration refuses it outright, after resolving the name …
    const refused = await ms.request(
      'POST',
      '/api/challenges/dns/servers',
      { name: 'loop', url: `http://${REBOUND}:${target.port}/`, tasks: ['INT'] },
      token,
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/resolves to 127\.0\.0\.1/);
    // … so stand in for a name that resolved to a public address at registration and now resolves to loopback.
    const team = await ms.database.db.query<{ id: number }>(`select id from teams where name = 'DNS team'`);
    const challenge = (await ms.ctx.repos.challenges.bySlug('dns'))!;
    const rows = await ms.database.db.query<{ id: number }>(
      `insert into servers (challenge_id, team_id, name, url, tasks, method) values ($1, $2, 'rebound', $3, '{INT}', 'Annotator.getAnnotation') returning id`,
      [challenge.id, team[0].id, `http://${REBOUND}:${target.port}/RPC2`],
    );
    const id = rows[0].id;
    await ms.startServer(id, token);
    const failed = await waitFor('the refused attempts', async () => {
      const d = await ms.database.db.query<{ state: string }>(`select state from deliveries where server_id = $1 and state = 'failed'`, [
        id,
      ]);
      return d.length === 1 ? d : undefined;
    });
    expect(failed).toHaveLength(1);
    const attempts = await ms.database.db.query<{ outcome: string; detail: string; bytes_sent: number }>(
      'select outcome, detail, bytes_sent from attempts where server_id = $1 order by n',
      [id],
    );
    expect(attempts.map((a) => a.outcome)).toEqual(['connection', 'connection']);
    expect(attempts[0].detail).toMatch(
      /the server URL cannot be called: annotator\.example\.test resolves to 127\.0\.0\.1 is a loopback address.*no request was made/,
    );
    expect(attempts[0].bytes_sent).toBe(0);
    expect(target.requests).toBe(0);
  });
  it('a callback URL re-pointed at loopback after its check is refused when connecting: nothing is posted', async () => {
    const ms = await metaserver();
    const receiver = await startFaultyServer({ kind: 'good' });
    servers.push(receiver);
    const url = `http://${REPOINTED}:${receiver.port}/callback`;
    expect(await resolvedUrlProblem(url, true)).toBeNull(); // the check sees a public address …
    const article = {
      id: '00000000-0000-4000-8000-000000000001',
      seq: 1,
      challengeId: 1,
      challenge: 'on-demand',
      organiserId: null,
      text: 'x',
      given: '',
      sourceFormat: 'text',
      tasks: null,
      callbackUrl: url,
      createdAt: new Date(),
    };
    const outcome = await postCallback(ms.ctx.repos.answers, article, { ...ms.config, publicUrlsOnly: true }); // … the connection, loopback
    expect(outcome).toEqual({
      ok: false,
      refused: true,
      status: null,
      error: `the callback URL cannot be called: ${REPOINTED} resolves to 127.0.0.1 is a loopback address, and this meta-server only calls public addresses`,
    });
    expect(receiver.requests).toBe(0);
  });
  it('a server name re-pointed at loopback after registration: the setup check is refused when connecting, nothing is quoted back', async () => {
    const ms = await startTestMetaserver({ workers: false, config: { publicUrlsOnly: true } });
    started.push(ms);
    const target = await startFaultyServer({ kind: 'good' });
    servers.push(target);
    await ms.challenge('repoint', { name: 'Re-pointed', timeoutSeconds: 2 });
    const token = (await ms.team('Re-point team')).token;
    // Registration sees a public address and accepts the server; its first check already connects to loopback.
    const registered = await ms.server('repoint', token, { name: 'moved', url: `http://${REPOINTED}:${target.port}/RPC2` });
    const checked = await ms.request('POST', `/api/servers/${registered.id}/check`, undefined, token);
    expect(checked.status).toBe(200);
    expect(checked.body.check).toMatchObject({ ok: false, reachable: false, outcome: 'connection' });
    expect(checked.body.check.detail).toBe(
      `the server URL cannot be called: ${REPOINTED} resolves to 127.0.0.1 is a loopback address, and this meta-server only calls public addresses; no request was made`,
    );
    expect(target.requests).toBe(0);
  });
});
