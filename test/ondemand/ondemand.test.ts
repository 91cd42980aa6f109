// On-demand completion end to end: three live servers (TypeScript sample, Python sample, a
// third that disagrees and answers late), a JATS article with a callbackUrl, the status
// going 202 → 200, the voting consensus against a hand-computed expectation, and exactly
// one callback.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSampleServer, type SampleServer } from '../../src/sample/server.ts';
import { callbackJobId, CALLBACK_QUEUE } from '../../src/callbacks/service.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { startPythonServer, type PythonServer } from '../support/python-server.ts';
import { startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';
import { DISAGREEING_DELAY_MS, disagreeingAnswer, startReceiver, type Receiver } from './helpers.ts';

const NXML = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'jats', 'consensus.nxml'), 'utf8');
const TASKS = ['ACT', 'INT', 'IPT', 'MENTION'];

describe('on-demand article: consensus and callback', () => {
  let ms: TestMetaserver;
  let sample: SampleServer;
  let python: PythonServer;
  let third: FaultyServer;
  let receiver: Receiver;
  let connection: Redis;
  let queue: Queue;
  const ids: number[] = [];

  beforeAll(async () => {
    ms = await startTestMetaserver({ config: { callbackRetryDelayMs: 50 } });
    [sample, python, third, receiver] = await Promise.all([
      startSampleServer({ port: 0 }),
      startPythonServer(),
      startFaultyServer({ kind: 'custom', handler: disagreeingAnswer }),
      startReceiver(),
    ]);
    for (const [i, url] of [sample.url, python.url, third.url].entries()) {
      const team = await ms.team(`Team ${i}`);
      const server = await ms.server('live', team.token, { name: `s${i}`, url, tasks: TASKS });
      await ms.startServer(server.id, team.token);
      ids.push(server.id);
    }
    connection = new Redis(ms.redis.url, { maxRetriesPerRequest: null });
    queue = new Queue(CALLBACK_QUEUE, { connection, prefix: ms.config.queuePrefix });
  });
  afterAll(async () => {
    await queue?.close();
    connection?.disconnect();
    await ms?.stop();
    await Promise.all([sample?.close(), third?.close(), receiver?.close()]);
    python?.stop();
  });

  it('answers 202 then 200 with the consensus, and posts the callback exactly once', async () => {
    const submitted = await ms.request('POST', '/api/articles', { xml: NXML, callbackUrl: receiver.url });
    expect(submitted.status).toBe(202);
    const articleId = submitted.body.id as string;
    const [typescriptId, pythonId, thirdId] = ids;

    // The two samples answer at once, the third only after a delay: a running article
    // already carries the consensus of the two.
    const early = await waitFor(
      'two answers while the third server still works',
      async () => {
        const res = await ms.request('GET', `/api/articles/${articleId}`);
        expect(res.status).toBe(202);
        return res.body.servers.filter((s: { result?: unknown }) => s.result).length === 2 ? res.body : undefined;
      },
      DISAGREEING_DELAY_MS,
    );
    expect(early.status).toBe('running');
    expect(early.consensus.servers).toEqual([typescriptId, pythonId]);
    expect(early.consensus.ACT).toMatchObject({ relevant: true, confidence: 1 });

    const done = await waitFor('the article to be done', async () => {
      const res = await ms.request('GET', `/api/articles/${articleId}`);
      return res.status === 200 ? res.body : undefined;
    });
    expect(done.status).toBe('done');
    expect(done.sourceFormat).toBe('jats');
    const text: string = done.text;
    expect(text.startsWith('BRCA1 interacts with TP53\n\nThe 𝛼-helical BRCA1')).toBe(true);
    // The code-point offset of a word's first occurrence from a UTF-16 index on.
    const at = (word: string, from = 0) => Array.from(text.slice(0, text.indexOf(word, from))).length;

    // Hand-computed, weights 1 each, threshold 0.5 (total 3, an item needs support ≥ 1.5).
    // ACT: the samples say relevant (3 cue words → 0.75), the third says not → relevant, 2/3.
    const c = done.consensus;
    expect(c.method).toBe('vote');
    expect(c.servers).toEqual([typescriptId, pythonId, thirdId]);
    expect(c.ACT.relevant).toBe(true);
    expect(c.ACT.confidence).toBeCloseTo(2 / 3, 12);
    expect(c.ACT.support).toEqual({ relevant: 2, irrelevant: 1 });
    // INT: samples rank P38398, P04637, Q06609 (1, 2, 3); the third P04637 (1), P12345 (2).
    // P04637 has support 3 and comes first; P38398 and Q06609 have 2, ordered by mean
    // reciprocal rank (1 vs 1/3); P12345 (support 1) is dropped.
    expect(c.INT.total).toBe(3);
    expect(c.INT.items.map((i: { accession: string; rank: number; support: number }) => [i.accession, i.rank, i.support])).toEqual([
      ['P04637', 1, 3],
      ['P38398', 2, 2],
      ['Q06609', 3, 2],
    ]);
    expect(c.INT.items[0].meanReciprocalRank).toBeCloseTo((1 / 2 + 1 / 2 + 1) / 3, 12);
    expect(c.INT.items[1].confidence).toBeCloseTo(2 / 3, 12);
    // IPT: the samples' two consecutive pairs (support 2 each, rank 1 before rank 2); the third's pair is dropped.
    expect(c.IPT.items.map((i: { a: string; b: string; rank: number }) => [i.a, i.b, i.rank])).toEqual([
      ['P04637', 'P38398', 1],
      ['P04637', 'Q06609', 2],
    ]);
    // MENTION: the samples' five spans (the first BRCA1 also from the third: support 3);
    // the third's lone "protein" span is dropped.
    expect(c.MENTION.items.map((m: { start: number; text: string; support: number }) => [m.start, m.text, m.support])).toEqual([
      [0, 'BRCA1', 3],
      [21, 'TP53', 2],
      [at('BRCA1', 30), 'BRCA1', 2],
      [at('TP53', 30), 'TP53', 2],
      [at('RAD51'), 'RAD51', 2],
    ]);
    expect(at('BRCA1', 30)).toBe(41); // a code point before it lies outside the BMP: UTF-16 would say 42

    // Weights move the vote: the third server at 3 (total 5, an item needs 2.5): ACT goes
    // its way (3 of 5), its P12345 (3) passes, the samples' own items (2) do not.
    const weighted = await ms.request('GET', `/api/articles/${articleId}?weights=${thirdId}:3`);
    expect(weighted.body.consensus.ACT).toMatchObject({ relevant: false, confidence: 0.6 });
    expect(weighted.body.consensus.INT.items.map((i: { accession: string }) => i.accession)).toEqual(['P04637', 'P12345']);
    const only = await ms.request('GET', `/api/articles/${articleId}/consensus?weights=${thirdId}:3&threshold=0.4`);
    expect(only.status).toBe(200);
    // threshold 0.4 of 5 → 2: P12345 (3) now passes, and so do the samples' 2-support items.
    expect(only.body.consensus.INT.items.map((i: { accession: string }) => i.accession)).toEqual(['P04637', 'P12345', 'P38398', 'Q06609']);

    // Exactly one callback: wait until its job has completed, then for any duplicate.
    await waitFor('the callback job to complete', async () =>
      (await queue.getJobState(callbackJobId(articleId))) === 'completed' ? true : undefined,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.bodies).toHaveLength(1);
    const posted = receiver.bodies[0]!;
    expect(posted).toEqual(JSON.parse(JSON.stringify(done)));
    const record = await ms.database.db.query<{ state: string; attempts: number; last_status: number }>(
      'select state, attempts, last_status from callback_deliveries where article_id = $1',
      [articleId],
    );
    expect(record).toEqual([{ state: 'delivered', attempts: 1, last_status: 204 }]);
  });

  it('retries a failing callback with back-off and records the outcome', async () => {
    const flaky = await startReceiver(2);
    try {
      const submitted = await ms.request('POST', '/api/articles', { text: 'TP53 binds MDM2 (Q00987).', callbackUrl: flaky.url });
      const articleId = submitted.body.id as string;
      await waitFor('the callback job to complete', async () =>
        (await queue.getJobState(callbackJobId(articleId))) === 'completed' ? true : undefined,
      );
      expect(flaky.requests).toBe(3);
      expect(flaky.bodies).toHaveLength(1);
      expect(flaky.bodies[0]).toMatchObject({ id: articleId, status: 'done' });
      const record = await ms.database.db.query<{ state: string; attempts: number }>(
        'select state, attempts from callback_deliveries where article_id = $1',
        [articleId],
      );
      expect(record).toEqual([{ state: 'delivered', attempts: 3 }]);
      // A late duplicate enqueue (another worker settling the same article) changes nothing.
      const job = await queue.getJob(callbackJobId(articleId));
      await queue.add('callback', { articleId }, { jobId: callbackJobId(articleId) });
      expect((await queue.getJob(callbackJobId(articleId)))?.timestamp).toBe(job?.timestamp);
    } finally {
      await flaky.close();
    }
  });

  it('refuses nonsense weights and thresholds with 400', async () => {
    const submitted = await ms.request('POST', '/api/articles', { text: 'BRCA1 binds TP53 (P04637).' });
    const id = submitted.body.id as string;
    for (const query of ['weights=abc', 'weights=1:-2', 'weights=1:2,1:3', 'threshold=1.5', 'threshold=x', 'weights=1:Infinity']) {
      const res = await ms.request('GET', `/api/articles/${id}?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.message).toMatch(/weights|threshold/);
    }
    const ensemble = await ms.request('GET', `/api/articles/${id}/consensus?method=ensemble`);
    expect(ensemble.status).toBe(400);
    const missing = await ms.request('GET', `/api/articles/${id}/consensus?method=ensemble&model=999`);
    expect(missing.status).toBe(404);
  });
});
