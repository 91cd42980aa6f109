// Tokens never reach the logs: every line the real logger writes (at trace level, with
// fastify's request logging) is captured while teams register, call the API with valid,
// invalid and organiser tokens, and fail; no token appears in any line.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const captured: string[] = [];
// Wrap pino so the logger the project builds (with its own redaction settings) writes here.
vi.mock('pino', async (importOriginal) => {
  const actual = await importOriginal<typeof import('pino')>();
  const sink = new Writable({
    write(chunk, _enc, done) {
      captured.push(String(chunk));
      done();
    },
  });
  const wrapped = Object.assign((opts: object) => actual.pino(opts, sink), actual);
  return { ...actual, pino: wrapped, default: wrapped };
});

const { ADMIN_TOKEN, startTestMetaserver } = await import('../support/runtime.ts');
type Ms = Awaited<ReturnType<typeof startTestMetaserver>>;
let ms: Ms;

beforeAll(async () => {
  ms = await startTestMetaserver({ workers: true, config: { logLevel: 'trace' } });
});
afterAll(async () => {
  await ms?.stop();
});

describe('tokens in logs', () => {
  it('no team or organiser token appears in any log line', async () => {
    const team = await ms.request('POST', '/api/teams', { name: 'Secret keepers', contact: 's@example.org' });
    expect(team.status).toBe(201);
    const token: string = team.body.token;
    expect(token).toMatch(/^mst_[A-Za-z0-9_-]{32}$/); // 24 random bytes = 192 bits
    await ms.request('GET', '/api/challenges', undefined, token);
    await ms.request('POST', '/api/challenges', { slug: 'logs', name: 'Logs', tasks: ['INT'] }, ADMIN_TOKEN);
    await ms.request('POST', '/api/challenges', { slug: 'logs2', name: 'Logs', tasks: ['INT'] }, token);
    await ms.request('GET', '/api/servers/1', undefined, `${token}x`);
    await ms.app!.inject({ method: 'GET', url: '/api/challenges', headers: { authorization: `Token ${token}` } });
    await ms.app!.inject({
      method: 'POST',
      url: '/api/teams',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    const text = captured.join('');
    expect(captured.length).toBeGreaterThan(5); // the capture works: requests were logged
    expect(text).toContain('team registered');
    for (const secret of [token, ADMIN_TOKEN, token.slice(4)]) expect(text).not.toContain(secret);
  });

  it('one line per answered request: successful reads at debug, changes and failures at info', async () => {
    const answered = () =>
      captured
        .map((line) => JSON.parse(line) as { level: number; msg: string; method: string; url: string; status: number; ms: number })
        .filter((l) => l.msg === 'request answered');
    const from = answered().length;
    await ms.request('GET', '/healthz');
    await ms.request('GET', '/api/no-such-route');
    await ms.request('POST', '/api/teams', { name: 'Logged', contact: 'l@example.org' });
    const lines = answered().slice(from);
    const DEBUG = 20;
    const INFO = 30;
    expect(lines.map((l) => [l.method, l.url, l.status, l.level])).toEqual([
      ['GET', '/healthz', 200, DEBUG],
      ['GET', '/api/no-such-route', 404, INFO],
      ['POST', '/api/teams', 201, INFO],
    ]);
    for (const l of lines) expect(l.ms).toBeGreaterThanOrEqual(0);
    // fastify's own two lines per request are off
    expect(captured.some((line) => line.includes('"incoming request"'))).toBe(false);
  });

  it('the database keeps only a SHA-256 hash of the team token', async () => {
    const team = (await ms.request('POST', '/api/teams', { name: 'Hashed', contact: 'h@example.org' })).body;
    const rows = await ms.database.db.query<{ token_hash: string }>('select token_hash from teams where id = $1', [team.id]);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(await ms.database.db.query('select * from teams'))).not.toContain(team.token);
  });
});
