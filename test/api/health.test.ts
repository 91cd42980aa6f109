// GET /healthz: one check shared by the requests that arrive while it runs, and a clear
// 503 (not a request that hangs) while Redis is down — with a private Redis the test stops.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.ts';
import { startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';

let redis: PrivateRedis;
let ms: TestMetaserver;

beforeAll(async () => {
  redis = await startPrivateRedis();
  ms = await startTestMetaserver({ workers: false, config: { redisUrl: redis.url } });
});
afterAll(async () => {
  await ms?.stop();
  await redis?.stop();
});

describe('GET /healthz', () => {
  it('answers requests that arrive together with one check of Redis and the database', async () => {
    const query = vi.spyOn(ms.database.db, 'query');
    try {
      const answers = await Promise.all(Array.from({ length: 10 }, () => ms.request('GET', '/healthz')));
      for (const a of answers) expect(a).toMatchObject({ status: 200, body: { status: 'ok', redis: 'ok', database: 'ok' } });
      expect(query.mock.calls.filter(([sql]) => sql === 'select 1')).toHaveLength(1);
      await ms.request('GET', '/healthz'); // a request after that one is over checks again
      expect(query.mock.calls.filter(([sql]) => sql === 'select 1')).toHaveLength(2);
    } finally {
      query.mockRestore();
    }
  });

  it('says 503 and which part is unreachable while Redis is down, within the check time limit, and 200 once it is back', async () => {
    await redis.halt();
    const started = Date.now();
    const down = await ms.request('GET', '/healthz');
    expect(down).toMatchObject({ status: 503, body: { status: 'unavailable', redis: 'unreachable', database: 'ok' } });
    expect(Date.now() - started).toBeLessThan(10_000);
    await redis.restart();
    // The connection comes back on its own reconnect schedule.
    const up = await waitFor('a healthy answer', async () => {
      const res = await ms.request('GET', '/healthz');
      return res.status === 200 ? res : undefined;
    });
    expect(up.body).toMatchObject({ status: 'ok', redis: 'ok', database: 'ok' });
  });
});
