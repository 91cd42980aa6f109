// The pull protocol's routes against a real meta-server (real Redis, real database): a pull
// server is registered without a URL, its setup check waits for the agent's answer to the
// sample article, leased articles are answered and stored once, and hostile or late
// requests get a 4xx in the project's error shape with nothing stored.
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueName } from '../../src/dispatch/queues.ts';
import { annotate } from '../../src/sample/annotator.ts';
import { ADMIN_TOKEN, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';

let ms: TestMetaserver;
let token: string;
let other: string;

beforeAll(async () => {
  ms = await startTestMetaserver({
    config: {
      publicUrlsOnly: true,
      maxAnswerBytes: 64 * 1024,
      leasePollIntervalMs: 50,
      leaseSweepIntervalMs: 100,
      leaseRequestsPerMinute: 60,
    },
  });
  await ms.challenge('pl', { name: 'Pull', tasks: ['ACT', 'INT', 'MENTION'], timeoutSeconds: 2, retryDelaySeconds: 0, maxAttempts: 3 });
  token = (await ms.team('Pullers')).token;
  other = (await ms.team('Others')).token;
});
afterAll(async () => {
  await ms?.stop();
});

const lease = (id: number, tok = token, wait = '0.3') => ms.request('POST', `/api/servers/${id}/leases?wait=${wait}`, undefined, tok);
const answerOf = (text: string) => annotate(text);

/** Each test its own challenge: articles loaded go to every active server of theirs. */
async function register(name: string, extra: Record<string, unknown> = {}) {
  await ms.challenge(name, { tasks: ['ACT', 'INT', 'MENTION'], timeoutSeconds: 2, retryDelaySeconds: 0, maxAttempts: 3 });
  return await ms.server(name, token, { name, tasks: ['ACT', 'INT', 'MENTION'], protocol: 'pull', ...extra });
}

/** Takes the setup lease and answers it validly, so the queue's articles come next. */
async function passSetup(id: number) {
  const setup = await lease(id);
  expect(setup.status).toBe(200);
  const res = await ms.request('POST', `/api/leases/${setup.body.lease}/answer`, answerOf(setup.body.article.text), token);
  expect(res.status).toBe(200);
}

describe('registering a pull server', () => {
  it('refuses a URL, and a URL-less server of another protocol, saying why', async () => {
    const withUrl = await ms.request(
      'POST',
      '/api/challenges/pl/servers',
      { name: 'u', url: 'https://example.org/x', tasks: ['ACT'], protocol: 'pull' },
      token,
    );
    expect(withUrl.status).toBe(400);
    expect(withUrl.body.error.message).toMatch(/has no URL/);
    const noUrl = await ms.request('POST', '/api/challenges/pl/servers', { name: 'n', tasks: ['ACT'] }, token);
    expect(noUrl.status).toBe(400);
    expect(noUrl.body.error.message).toMatch(/"url" is needed.*pull/);
  });

  it('waits for the agent, then judges the sample article it answers', async () => {
    const server = await register('setup');
    expect(server.check.outcome).toBe('waiting');
    const setup = await lease(server.id);
    expect(setup.status).toBe(200);
    expect(setup.body.article.tasks).toEqual(['ACT', 'INT', 'MENTION']);
    // One setup lease at a time: a second agent gets nothing while the server is paused.
    expect((await lease(server.id)).status).toBe(204);
    const res = await ms.request('POST', `/api/leases/${setup.body.lease}/answer`, answerOf(setup.body.article.text), token);
    expect(res.status).toBe(200);
    expect(res.body.outcome).toBe('ok');
    const status = await ms.request('GET', `/api/servers/${server.id}`, undefined, token);
    expect(status.body.check).toMatchObject({ ok: true, outcome: 'ok' });
  });
});

describe('leases', () => {
  it('store an answer once; the answered lease and forged ids are refused with 409', async () => {
    const server = await register('main', { concurrency: 2 });
    await passSetup(server.id);
    const ids = (await ms.articles('main', [{ id: 'A1', text: 'BRCA1 (P38398) binds TP53 (P04637).' }])).ids;
    await ms.startServer(server.id, token);
    const got = await lease(server.id, token, '5');
    expect(got.status).toBe(200);
    expect(got.body.lease).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(got.body.article).toEqual({ text: 'BRCA1 (P38398) binds TP53 (P04637).', tasks: ['ACT', 'INT', 'MENTION'] });
    // Another team may not answer it, nor lease for the server.
    expect((await ms.request('POST', `/api/leases/${got.body.lease}/answer`, answerOf(got.body.article.text), other)).status).toBe(404);
    const foreign = await lease(server.id, other);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    const stored = await ms.request('POST', `/api/leases/${got.body.lease}/answer`, answerOf(got.body.article.text), token);
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ stored: true, outcome: 'ok', attempt: 1 });
    const again = await ms.request('POST', `/api/leases/${got.body.lease}/answer`, answerOf(got.body.article.text), token);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('lease_gone');
    const forged = await ms.request('POST', `/api/leases/${'A'.repeat(32)}/answer`, answerOf('x'), token);
    expect(forged.status).toBe(409);
    expect(forged.body.error.code).toBe('lease_gone');
    const article = await ms.request('GET', `/api/articles/${ids.A1}`, undefined, ADMIN_TOKEN);
    expect(article.body.servers).toHaveLength(1);
    expect(article.body.servers[0].result.MENTION.length).toBeGreaterThan(0);
    // Nothing left to lease: 204 after the wait asked for.
    expect((await lease(server.id)).status).toBe(204);
  });

  it('refuse a late answer: the lease timed out, the article is offered again and stored once', async () => {
    const server = await register('late');
    await passSetup(server.id);
    const ids = (await ms.articles('late', [{ id: 'L1', text: 'IL2R (P01589) here.' }])).ids;
    await ms.startServer(server.id, token);
    const first = await lease(server.id, token, '5');
    expect(first.status).toBe(200);
    // The challenge's timeout is 2 s; the sweeper settles the lease as a timeout.
    const second = await waitFor(
      'the article offered again',
      async () => {
        const res = await lease(server.id, token, '1');
        return res.status === 200 ? res : undefined;
      },
      10_000,
    );
    const late = await ms.request('POST', `/api/leases/${first.body.lease}/answer`, answerOf(first.body.article.text), token);
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('lease_gone');
    expect((await ms.request('POST', `/api/leases/${second.body.lease}/answer`, answerOf(second.body.article.text), token)).status).toBe(
      200,
    );
    const response = await ms.request('GET', `/api/articles/${ids.L1}/responses/${server.id}`, undefined, ADMIN_TOKEN);
    expect(response.body.attempts.map((a: { outcome: string }) => a.outcome)).toEqual(['timeout', 'ok']);
  });

  it('refuse an invalid answer with 422 and its errors, a huge one with 413, and store neither', async () => {
    const server = await register('bad', { concurrency: 2 });
    await passSetup(server.id);
    const ids = (await ms.articles('bad', [{ id: 'B1', text: 'Nothing here at all.' }])).ids;
    await ms.startServer(server.id, token);
    const got = await lease(server.id, token, '5');
    const huge = await ms.request('POST', `/api/leases/${got.body.lease}/answer`, { mentions: 'x'.repeat(100 * 1024) }, token);
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('body_too_large');
    const invalid = await ms.request(
      'POST',
      `/api/leases/${got.body.lease}/answer`,
      { mentions: [{ offset: 999, mention: 'nope' }] },
      token,
    );
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.code).toBe('answer_refused');
    expect(invalid.body.error.details).toMatchObject({ stored: false, outcome: 'invalid', final: false });
    expect(invalid.body.error.details.errorCount).toBeGreaterThan(0);
    const article = await ms.request('GET', `/api/articles/${ids.B1}`, undefined, ADMIN_TOKEN);
    expect(article.body.servers[0].result ?? null).toBeNull();
  });

  it('hand the next lease with a stored answer when asked (next=1), within the concurrency, under a new id', async () => {
    const server = await register('next', { concurrency: 1 });
    await passSetup(server.id);
    const texts = ['N1 BRCA1 (P38398).', 'N2 TP53 (P04637).', 'N3 IL2R (P01589).'];
    const ids = (
      await ms.articles(
        'next',
        texts.map((text, i) => ({ id: `N${i + 1}`, text })),
      )
    ).ids;
    await ms.startServer(server.id, token);
    const first = await ms.request('POST', `/api/servers/${server.id}/leases?wait=5&keepAlive=1`, undefined, token);
    expect(first.status).toBe(200);
    const connection = new Redis(ms.redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue(queueName(server.id), { connection, prefix: ms.config.queuePrefix });
    try {
      await waitFor('the other articles queued', async () => (await queue.getWaitingCount()) === 2 || undefined, 10_000);
    } finally {
      await queue.close();
      connection.disconnect();
    }
    const url = (l: string, next: boolean) => `/api/leases/${l}/answer${next ? '?next=1' : ''}`;
    const answered = await ms.request('POST', url(first.body.lease, true), answerOf(first.body.article.text), token);
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ stored: true, outcome: 'ok' });
    const second = answered.body.next;
    expect(second.lease).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(second.lease).not.toBe(first.body.lease);
    expect(second.keepAliveSeconds).toBe(first.body.keepAliveSeconds);
    expect(texts).toContain(second.article.text);
    expect(second.article.text).not.toBe(first.body.article.text);
    // The server's concurrency (1) is held by the next lease: a lease request gets nothing.
    expect((await lease(server.id, token, '0.2')).status).toBe(204);
    // The answered lease's id is gone: a repeated answer reaches neither its article nor the next lease.
    const repeated = await ms.request('POST', url(first.body.lease, true), answerOf(first.body.article.text), token);
    expect(repeated.status).toBe(409);
    // Without next=1, a receipt as before.
    const plain = await ms.request('POST', url(second.lease, false), answerOf(second.article.text), token);
    expect(plain.status).toBe(200);
    expect(plain.body.next).toBeUndefined();
    const third = await lease(server.id, token, '5');
    expect(third.status).toBe(200);
    // The queue is empty now: stored, and no next lease.
    const last = await ms.request('POST', url(third.body.lease, true), answerOf(third.body.article.text), token);
    expect(last.status).toBe(200);
    expect(last.body.next).toBeUndefined();
    expect(new Set([first.body.article.text, second.article.text, third.body.article.text])).toEqual(new Set(texts));
    for (const id of Object.values(ids)) {
      const response = await ms.request('GET', `/api/articles/${id}/responses/${server.id}`, undefined, ADMIN_TOKEN);
      expect(response.body.attempts.map((x: { outcome: string }) => x.outcome)).toEqual(['ok']);
    }
  });

  it('refuse a flood of lease requests with 429 and Retry-After, in the error shape, leasing nothing', async () => {
    const flooder = (await ms.team('Flood')).token;
    await ms.challenge('flood', { tasks: ['ACT'] });
    const server = await ms.server('flood', flooder, { name: 'f', protocol: 'pull', tasks: ['ACT'] });
    const answers = await Promise.all(
      Array.from({ length: 70 }, () =>
        ms.app!.inject({ method: 'POST', url: `/api/servers/${server.id}/leases?wait=0`, headers: { authorization: `Bearer ${flooder}` } }),
      ),
    );
    // Past the per-minute limit: rate_limited (those at once beyond the server's waiting polls get too_many_polls, test/pull/poll-bounds.test.ts).
    const limited = answers.filter((r) => r.statusCode === 429 && r.json().error.code === 'rate_limited');
    expect(limited.length).toBeGreaterThanOrEqual(10);
    expect(limited[0].headers['retry-after']).toBeDefined();
    // At most the setup article was leased, once.
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
  });
});
