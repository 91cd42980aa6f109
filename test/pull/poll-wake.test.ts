// A waiting lease request is woken by its server's queue events (queue-events-watch.ts), not
// by the fallback interval (set here far beyond the polls' wait): the article loaded while
// it waits is leased to it. The watch reads only while polls wait and stops a second after
// the last one; a poll that waits after that starts it again and is woken the same way.
// Whether the watch reads is seen in Redis: its connection blocked in XREAD.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { annotate } from '../../src/sample/annotator.ts';
import { Redis } from 'ioredis';
import { startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';

let ms: TestMetaserver;
let token: string;
let redis: Redis;

/** Longer than any wait below: a poll answered 200 before its wait ran out was woken by the watch. */
const FALLBACK_MS = 60_000;
const WAIT_SECONDS = 20;

beforeAll(async () => {
  ms = await startTestMetaserver({ config: { leasePollIntervalMs: FALLBACK_MS, leaseSweepIntervalMs: 200 } });
  await ms.challenge('wake', { name: 'Wake', tasks: ['ACT', 'INT', 'MENTION'], timeoutSeconds: 30, retryDelaySeconds: 0 });
  token = (await ms.team('Wakers')).token;
  redis = new Redis(ms.redis.url);
});
afterAll(async () => {
  redis?.disconnect();
  await ms?.stop();
});

/** Whether this meta-server's queue-events watch is blocked in XREAD now (a poll waits). */
async function watchReads(): Promise<boolean> {
  const list = (await redis.client('LIST')) as string;
  return list
    .split('\n')
    .some((line) => line.includes(` name=${ms.config.queuePrefix}:pull-watch `) && / flags=b /.test(line) && / cmd=xread /.test(line));
}

const lease = (id: number, wait: number) => ms.request('POST', `/api/servers/${id}/leases?wait=${wait}`, undefined, token);
const answer = (l: { lease: string; article: { text: string } }) =>
  ms.request('POST', `/api/leases/${l.lease}/answer`, annotate(l.article.text), token);

describe('a waiting lease request', () => {
  it('is leased the article queued while it waits, the watch started anew after it stopped', async () => {
    const server = await ms.server('wake', token, { name: 'w', tasks: ['ACT', 'INT', 'MENTION'], protocol: 'pull' });
    const setup = await lease(server.id, 5);
    expect(setup.status).toBe(200);
    expect((await answer(setup.body)).status).toBe(200);
    await ms.startServer(server.id, token);
    expect(await watchReads()).toBe(false);
    for (const n of [1, 2]) {
      const started = Date.now();
      const waiting = lease(server.id, WAIT_SECONDS);
      await waitFor('the poll waits, watched', async () => (await watchReads()) || undefined, 10_000);
      await ms.articles('wake', [{ id: `W${n}`, text: `W${n}: BRCA1 (P38398) binds TP53 (P04637).` }]);
      const got = await waiting;
      expect(got.status).toBe(200);
      expect(got.body.article.text).toMatch(new RegExp(`^W${n}:`));
      expect(Date.now() - started).toBeLessThan(WAIT_SECONDS * 1000);
      expect((await answer(got.body)).status).toBe(200);
      // No poll waits now: the watch stops (a second after the last wait began, once its read returns).
      await waitFor('the watch stopped', async () => !(await watchReads()) || undefined, 10_000);
    }
  });
});
