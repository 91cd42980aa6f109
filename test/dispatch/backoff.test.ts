// Back-off before attempt n+1 is retryDelaySeconds · 2^(n−1), capped at 10 minutes — as a
// formula, and through BullMQ for real (a lower bound only: waiting longer is allowed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backoffDelayMs, MAX_BACKOFF_MS } from '../../src/dispatch/queues.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';

describe('backoffDelayMs', () => {
  it('doubles from the base delay and stops at 10 minutes', () => {
    expect([1, 2, 3, 4].map((n) => backoffDelayMs(n, 30_000))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(backoffDelayMs(5, 30_000)).toBe(480_000);
    expect(backoffDelayMs(6, 30_000)).toBe(MAX_BACKOFF_MS);
    expect(backoffDelayMs(60, 30_000)).toBe(600_000);
    expect(backoffDelayMs(1, 0)).toBe(0);
  });
});

describe('back-off through the queue', () => {
  let ms: TestMetaserver;
  let failing: FaultyServer;

  beforeAll(async () => {
    ms = await startTestMetaserver({ config: { checkTimeoutSeconds: 1 } });
    failing = await startFaultyServer({ kind: 'http', status: 503 });
  });
  afterAll(async () => {
    await ms?.stop();
    await failing?.close();
  });

  it('waits at least the configured delay, doubled, between attempts', async () => {
    const created = await ms.challenge('bo', { name: 'Backoff', maxAttempts: 3, retryDelaySeconds: 0.3 });
    expect(created).toMatchObject({ retryDelaySeconds: 0.3 });
    const token = (await ms.team('Backoff team')).token;
    const ids = (await ms.articles('bo', [{ id: 'B1', text: 'BRCA1' }])).ids;
    const server = await ms.server('bo', token, { name: 'down', url: failing.url });
    await ms.startServer(server.id, token);
    const attempts = await waitFor('three attempts', async () => {
      const res = await ms.request('GET', `/api/articles/${ids.B1}/responses/${server.id}`, undefined, token);
      return res.body?.attempts?.length === 3 && res.body.attempts[2].outcome ? res.body.attempts : undefined;
    });
    const gap = (i: number) =>
      new Date(attempts[i].startedAt).getTime() - (new Date(attempts[i - 1].startedAt).getTime() + attempts[i - 1].ms);
    expect(gap(1)).toBeGreaterThanOrEqual(300 - 5);
    expect(gap(2)).toBeGreaterThanOrEqual(600 - 5);
    expect(attempts.map((a: { outcome: string }) => a.outcome)).toEqual(['http', 'http', 'http']);
  });
});
