// Fault injection against real loopback servers, one per way an annotation server can
// misbehave. Each ends in the right recorded outcome after the right number of attempts,
// with no job left active, waiting or delayed in its BullMQ queue. Deadlines are short and
// configured (1 s; 4 s where a slow but correct answer must fit), back-off is 0 except where
// a server must come back between attempts; outcomes never hinge on a race.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusedPort, type Behaviour } from '../support/faulty-servers.ts';
import { startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';
import { queueEmptied } from '../support/finished-jobs.ts';
import { FaultBench } from './harness.ts';

const MAX_ATTEMPTS = 2;
const ARTICLE = { id: 'F1', text: 'BRCA1 (P38398) binds TP53 and SNCA in yeast.' };
let ms: TestMetaserver;
let bench: FaultBench;

beforeAll(async () => {
  ms = await startTestMetaserver({ config: { checkTimeoutSeconds: 1, maxAnswerBytes: 4096 } });
  bench = new FaultBench(ms);
  await bench.team('Fault injectors');
  await bench.challenge('faults', { timeoutSeconds: 1, maxAttempts: MAX_ATTEMPTS, retryDelaySeconds: 0 }, [ARTICLE]);
  // A correct answer after 1 s must fit a 4 s deadline with room to spare on a loaded machine.
  await bench.challenge('patient', { timeoutSeconds: 4, maxAttempts: MAX_ATTEMPTS, retryDelaySeconds: 0 }, [ARTICLE]);
  // Back-off 1 s, 2 s, 4 s, 8 s, 16 s: a server that comes back within ~30 s is reached.
  await bench.challenge('comeback', { timeoutSeconds: 1, maxAttempts: 6, retryDelaySeconds: 1 }, [ARTICLE]);
});
afterAll(async () => {
  await ms?.stop();
  await bench?.close();
});

const failing: Array<{ name: string; behaviour: Behaviour; kind: string; detail: RegExp }> = [
  { name: '(1) never answers', behaviour: { kind: 'hang' }, kind: 'timeout', detail: /deadline of 1 s \(no response headers received\)/ },
  {
    name: '(2) accepts, sends nothing',
    behaviour: { kind: 'silent' },
    kind: 'timeout',
    detail: /deadline of 1 s \(no response headers received\)/,
  },
  {
    name: '(3) drips one byte per 50 ms',
    behaviour: { kind: 'drip', intervalMs: 50 },
    kind: 'timeout',
    detail: /deadline of 1 s \(\d+ bytes? of the answer received so far\)/,
  },
  { name: '(4) resets mid-answer', behaviour: { kind: 'reset', afterBytes: 40 }, kind: 'connection', detail: /reset|closed/ },
  {
    name: '(5) closes before headers',
    behaviour: { kind: 'closeBeforeHeaders' },
    kind: 'connection',
    detail: /closed the connection before sending response headers|reset/,
  },
  { name: '(6a) HTTP 500', behaviour: { kind: 'http', status: 500 }, kind: 'http', detail: /^HTTP 500 Internal Server Error/ },
  { name: '(6b) HTTP 502', behaviour: { kind: 'http', status: 502 }, kind: 'http', detail: /^HTTP 502 Bad Gateway/ },
  { name: '(6c) HTTP 404', behaviour: { kind: 'http', status: 404 }, kind: 'http', detail: /^HTTP 404 Not Found/ },
  { name: '(7) 200 with HTML', behaviour: { kind: 'html' }, kind: 'protocol', detail: /./ },
  { name: '(8) truncated XML', behaviour: { kind: 'truncated' }, kind: 'protocol', detail: /./ },
  {
    name: '(9) XML-RPC fault',
    behaviour: { kind: 'fault', code: 7, message: 'tagger crashed' },
    kind: 'fault',
    detail: /^fault 7: tagger crashed/,
  },
  { name: '(10) wrong types', behaviour: { kind: 'wrongTypes' }, kind: 'invalid', detail: /failed validation.*mentions\[0\]\.offset/ },
  {
    name: '(11a) over the size cap (Content-Length)',
    behaviour: { kind: 'oversize', bytes: 10_000 },
    kind: 'protocol',
    detail: /cap of 4096 bytes \(it announced/,
  },
  {
    name: '(11b) over the size cap (chunked)',
    behaviour: { kind: 'oversize', bytes: 100_000, chunked: true },
    kind: 'protocol',
    detail: /cap of 4096 bytes and was cut off/,
  },
];

describe.concurrent('misbehaving annotation servers', () => {
  it.each(failing)('$name → failed, $kind on each of the attempts', async ({ name, behaviour, kind, detail }) => {
    const faulty = await bench.faulty(behaviour);
    const id = await bench.register('faults', name, faulty.url);
    await bench.start(id);
    const s = await bench.settled(id);
    expect(s).toMatchObject({ state: 'failed', lastOutcome: kind, answers: 0 });
    expect(s.outcomes).toEqual(Array(MAX_ATTEMPTS).fill(kind));
    for (const d of s.details) expect(d).toMatch(detail);
    // one setup check at registration, then exactly one request per attempt (a `silent`
    // server counts TCP connections, and the client may open more than one per call)
    if (behaviour.kind === 'silent') expect(faulty.requests).toBeGreaterThanOrEqual(1 + MAX_ATTEMPTS);
    else expect(faulty.requests).toBe(1 + MAX_ATTEMPTS);
    await queueEmptied(ms, id); // failed for good: recorded in the database, its job gone from Redis
  });

  it('(12) a correct answer after a long delay inside the deadline is stored on attempt 1', async () => {
    const faulty = await bench.faulty({ kind: 'delayed', ms: 1000 });
    const id = await bench.register('patient', 'slow but correct', faulty.url);
    await bench.start(id);
    const s = await bench.settled(id);
    expect(s).toMatchObject({ state: 'done', lastOutcome: 'ok', outcomes: ['ok'], answers: 1, answerAttempt: 1 });
    expect(faulty.requests).toBe(2);
    await queueEmptied(ms, id); // finished: its outcome is in the database, its job gone from Redis
  });

  it('(13) refuses connections, then comes back on the same port: stored on a later attempt', async () => {
    const port = await refusedPort();
    const id = await bench.register('comeback', 'comes back', `http://127.0.0.1:${port}/RPC2`);
    await bench.start(id);
    await waitFor('the first refused attempt', async () => {
      const rows = await ms.database.db.query(`select 1 from attempts where server_id = $1 and outcome = 'connection'`, [id]);
      return rows.length > 0 ? true : undefined;
    });
    const faulty = await bench.faulty({ kind: 'good' }, port);
    const s = await bench.settled(id);
    expect(s).toMatchObject({ state: 'done', lastOutcome: 'ok', answers: 1 });
    expect(s.outcomes.at(-1)).toBe('ok');
    const refused = s.outcomes.slice(0, -1);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused.every((o) => o === 'connection')).toBe(true);
    expect(s.details[0]).toMatch(/connection refused by 127\.0\.0\.1:\d+/);
    expect(s.answerAttempt).toBe(s.outcomes.length);
    expect(faulty.requests).toBe(1);
  });
});
