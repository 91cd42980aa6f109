// Each failure kind, produced by a real loopback server that misbehaves, is retried up to
// maxAttempts and recorded with its kind; flaky-then-good succeeds on a later attempt.
// Deadlines are short and configured (1 s), so nothing here waits on luck.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusedPort, startFaultyServer, type Behaviour, type FaultyServer } from '../support/faulty-servers.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';

let ms: TestMetaserver;
let token: string;
const servers: FaultyServer[] = [];

beforeAll(async () => {
  ms = await startTestMetaserver({ config: { checkTimeoutSeconds: 1, maxAnswerBytes: 4096 } });
  const c = await ms.request('POST', '/api/challenges', { slug: 'faults', name: 'Faults', tasks: ['INT', 'MENTION'], timeoutSeconds: 1, maxAttempts: 2, retryDelaySeconds: 0, serversPerTeam: 20 }, ADMIN_TOKEN);
  expect(c.status).toBe(201);
  token = (await ms.request('POST', '/api/teams', { name: 'Faulty', contact: 'f@example.org' })).body.token;
  await ms.request('POST', '/api/challenges/faults/articles', { articles: [{ id: 'A1', text: 'BRCA1 (P38398) binds TP53.' }] }, ADMIN_TOKEN);
});
afterAll(async () => {
  await ms?.stop();
  await Promise.all(servers.map((s) => s.close()));
});

async function register(name: string, url: string) {
  const res = await ms.request('POST', '/api/challenges/faults/servers', { name, url, tasks: ['INT', 'MENTION'] }, token);
  expect(res.status).toBe(201);
  return res.body as { id: number; check: { ok: boolean; outcome: string } };
}

async function serverWith(name: string, behaviour: Behaviour) {
  const s = await startFaultyServer(behaviour);
  servers.push(s);
  return { faulty: s, server: await register(name, s.url) };
}

async function settled(serverId: number) {
  return await waitFor(`server ${serverId} to settle`, async () => {
    const res = await ms.request('GET', `/api/servers/${serverId}`, undefined, token);
    const p = res.body.progress;
    return p.done + p.failed === 1 && p.queued === 0 && p.active === 0 ? res.body : undefined;
  });
}

const cases: Array<{ name: string; behaviour: Behaviour; kind: string; detail: RegExp }> = [
  { name: 'never answers', behaviour: { kind: 'hang' }, kind: 'timeout', detail: /deadline|within/i },
  { name: 'resets mid-answer', behaviour: { kind: 'reset' }, kind: 'connection', detail: /reset|closed|socket/i },
  { name: 'HTTP 500', behaviour: { kind: 'http', status: 500 }, kind: 'http', detail: /500/ },
  { name: 'XML-RPC fault', behaviour: { kind: 'fault', code: 7, message: 'tagger crashed' }, kind: 'fault', detail: /7.*tagger crashed/ },
  { name: 'non-XML body', behaviour: { kind: 'html' }, kind: 'protocol', detail: /./ },
  { name: 'over-size answer', behaviour: { kind: 'oversize', bytes: 10_000 }, kind: 'protocol', detail: /4096/ },
  { name: 'wrong types', behaviour: { kind: 'wrongTypes' }, kind: 'invalid', detail: /mentions\[0\]\.offset/ },
];

describe('failure kinds through the dispatcher', () => {
  it.each(cases)('$name → $kind, attempted maxAttempts times, recorded, reported', async ({ name, behaviour, kind, detail }) => {
    const { server } = await serverWith(name, behaviour);
    expect(server.check.ok).toBe(false);
    await ms.request('POST', `/api/servers/${server.id}/start`, undefined, token);
    const status = await settled(server.id);
    expect(status.progress).toEqual({ queued: 0, active: 0, done: 0, failed: 1 });
    expect(status.errors).toHaveLength(2);
    for (const e of status.errors) {
      expect(e).toMatchObject({ article: 'A1', kind });
      expect(e.detail).toMatch(detail);
    }
    expect(status.errors.map((e: { attempt: number }) => e.attempt).sort()).toEqual([1, 2]);
    const stored = await ms.database.db.query('select 1 from answers where server_id = $1', [server.id]);
    expect(stored).toHaveLength(0);
  });

  it('connection refused is a connection failure', async () => {
    const server = await register('refused', `http://127.0.0.1:${await refusedPort()}/`);
    expect(server.check).toMatchObject({ ok: false, outcome: 'connection' });
    await ms.request('POST', `/api/servers/${server.id}/start`, undefined, token);
    const status = await settled(server.id);
    expect(status.errors.map((e: { kind: string }) => e.kind)).toEqual(['connection', 'connection']);
  });

  it('an invalid answer keeps its full error list with the attempt', async () => {
    const { server } = await serverWith('wrong types again', { kind: 'wrongTypes' });
    await ms.request('POST', `/api/servers/${server.id}/start`, undefined, token);
    const status = await settled(server.id);
    expect(status.errors[0].errors.length).toBeGreaterThan(0);
    expect(status.errors[0].errors[0]).toHaveProperty('path');
  });

  it('flaky then good: stored on a later attempt, every attempt recorded', async () => {
    // The setup check is the first request, so 2 failures make attempt 1 fail and attempt 2 succeed.
    const { server, faulty } = await serverWith('flaky', { kind: 'flaky', failures: 2 });
    await ms.request('POST', `/api/servers/${server.id}/start`, undefined, token);
    const status = await settled(server.id);
    expect(status.progress.done).toBe(1);
    const article = (await ms.request('GET', '/api/challenges/faults/articles/A1', undefined, ADMIN_TOKEN)).body;
    const response = await ms.request('GET', `/api/articles/${article.id}/responses/${server.id}`, undefined, token);
    expect(response.body.attempts.map((a: { outcome: string }) => a.outcome)).toEqual(['http', 'ok']);
    expect(response.body.result.INT).toEqual([expect.objectContaining({ accession: 'P38398', rank: 1 })]);
    expect(faulty.requests).toBe(3);
  });

  it('retry-failed sends failed articles again', async () => {
    const { server } = await serverWith('fails then retried', { kind: 'http', status: 502 });
    await ms.request('POST', `/api/servers/${server.id}/start`, undefined, token);
    await settled(server.id);
    const retried = await ms.request('POST', `/api/servers/${server.id}/retry-failed`, undefined, token);
    expect(retried.body.requeued).toBe(1);
    const status = await waitFor('the second round to fail', async () => {
      const res = await ms.request('GET', `/api/servers/${server.id}`, undefined, token);
      return res.body.errors.length === 4 && res.body.progress.failed === 1 ? res.body : undefined;
    });
    expect(status.errors.map((e: { attempt: number }) => e.attempt).sort()).toEqual([1, 2, 3, 4]);
  });
});
