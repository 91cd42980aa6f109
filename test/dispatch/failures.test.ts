// Retry behaviour beyond the failure kinds themselves (those, one loopback server per way to
// misbehave, are in test/faults/server-faults.test.ts): the full validation error list is
// kept with the attempt, flaky-then-good succeeds on a later attempt, and retry-failed sends
// failed articles again. Deadlines are short and configured (1 s).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultyServer, type Behaviour, type FaultyServer } from '../support/faulty-servers.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';

let ms: TestMetaserver;
let token: string;
const servers: FaultyServer[] = [];

beforeAll(async () => {
  ms = await startTestMetaserver({ config: { checkTimeoutSeconds: 1, maxAnswerBytes: 4096 } });
  await ms.challenge('faults', {
    name: 'Faults',
    tasks: ['INT', 'MENTION'],
    timeoutSeconds: 1,
    maxAttempts: 2,
    retryDelaySeconds: 0,
    serversPerTeam: 20,
  });
  token = (await ms.team('Faulty')).token;
  await ms.articles('faults', [{ id: 'A1', text: 'BRCA1 (P38398) binds TP53.' }]);
});
afterAll(async () => {
  await ms?.stop();
  await Promise.all(servers.map((s) => s.close()));
});

async function serverWith(name: string, behaviour: Behaviour) {
  const s = await startFaultyServer(behaviour);
  servers.push(s);
  const server: { id: number; check: { ok: boolean; outcome: string } } = await ms.server('faults', token, {
    name,
    url: s.url,
    tasks: ['INT', 'MENTION'],
  });
  return { faulty: s, server };
}

/** The status page's parts are read concurrently, so wait for the error report to catch up too. */
async function settled(serverId: number, errors = 0) {
  return await waitFor(`server ${serverId} to settle`, async () => {
    const res = await ms.request('GET', `/api/servers/${serverId}`, undefined, token);
    const p = res.body.progress;
    return p.done + p.failed === 1 && p.queued === 0 && p.active === 0 && res.body.errors.length >= errors ? res.body : undefined;
  });
}

describe('retries through the dispatcher', () => {
  it('an invalid answer keeps its full error list with the attempt, shown in the error report', async () => {
    const { server } = await serverWith('wrong types', { kind: 'wrongTypes' });
    expect(server.check.ok).toBe(false);
    await ms.startServer(server.id, token);
    const status = await settled(server.id, 2);
    expect(status.progress).toEqual({ queued: 0, active: 0, done: 0, failed: 1 });
    expect(status.errors.map((e: { attempt: number }) => e.attempt).sort()).toEqual([1, 2]);
    expect(status.errors[0]).toMatchObject({ article: 'A1', kind: 'invalid' });
    expect(status.errors[0].errors.length).toBeGreaterThan(0);
    expect(status.errors[0].errors[0]).toHaveProperty('path');
  });

  it('flaky then good: stored on a later attempt, every attempt recorded', async () => {
    // The setup check is the first request, so 2 failures make attempt 1 fail and attempt 2 succeed.
    const { server, faulty } = await serverWith('flaky', { kind: 'flaky', failures: 2 });
    await ms.startServer(server.id, token);
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
    await ms.startServer(server.id, token);
    await settled(server.id, 2);
    const retried = await ms.request('POST', `/api/servers/${server.id}/retry-failed`, undefined, token);
    expect(retried.body.requeued).toBe(1);
    const status = await waitFor('the second round to fail', async () => {
      const res = await ms.request('GET', `/api/servers/${server.id}`, undefined, token);
      return res.body.errors.length === 4 && res.body.progress.failed === 1 ? res.body : undefined;
    });
    expect(status.errors.map((e: { attempt: number }) => e.attempt).sort()).toEqual([1, 2, 3, 4]);
  });
});
