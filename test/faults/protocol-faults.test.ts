// Every failure kind, for the JSON and PubAnnotation protocols (synchronous and
// asynchronous), produced by a real misbehaving loopback server and recorded as dispatch
// records it for XML-RPC (server-faults.test.ts): the right outcome on each attempt, the
// right detail (with the protocol's hint where a usual mistake explains it), one request
// per attempt. Deadlines are short and configured: 1 s where a timeout is the point, 4 s
// (and 4 s for the setup check) where an exchange of several requests must end otherwise,
// so a loaded machine cannot turn it into a timeout; 4 s too where the timeout is the
// point but its detail says how far the polls went (a loaded machine must get to them). No outcome hinges on a race: the
// servers that are too slow never answer, and a Retry-After longer than the deadline is
// one the meta-server must not wait out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultyJsonServer, type FaultyJsonServer, type JsonBehaviour, type JsonProtocol } from '../support/faulty-json-servers.ts';
import { refusedPort, startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';
import { queueEmptied } from '../support/finished-jobs.ts';
import { FaultBench } from './harness.ts';

const MAX_ATTEMPTS = 2;
const ARTICLE = { id: 'F1', text: 'BRCA1 (P38398) binds TP53 and SNCA in yeast.' };
let ms: TestMetaserver;
let bench: FaultBench;
const servers: Array<FaultyJsonServer | FaultyServer> = [];

beforeAll(async () => {
  ms = await startTestMetaserver({ config: { checkTimeoutSeconds: 4, maxAnswerBytes: 4096 } });
  bench = new FaultBench(ms);
  await bench.team('Protocol fault injectors');
  await bench.challenge('ptimeout', { timeoutSeconds: 1, maxAttempts: MAX_ATTEMPTS, retryDelaySeconds: 0 }, [ARTICLE]);
  await bench.challenge('pfaults', { timeoutSeconds: 4, maxAttempts: MAX_ATTEMPTS, retryDelaySeconds: 0 }, [ARTICLE]);
  await bench.challenge('pasync', { timeoutSeconds: 2, maxAttempts: MAX_ATTEMPTS, retryDelaySeconds: 0 }, [ARTICLE]);
  await bench.challenge('pgood', { timeoutSeconds: 4, maxAttempts: MAX_ATTEMPTS, retryDelaySeconds: 0 }, [ARTICLE]);
});
afterAll(async () => {
  await ms?.stop();
  await bench?.close();
  await Promise.all(servers.map((s) => s.close()));
});

async function faulty(protocol: JsonProtocol, behaviour: JsonBehaviour): Promise<FaultyJsonServer> {
  const s = await startFaultyJsonServer(protocol, behaviour);
  servers.push(s);
  return s;
}

const INVALID: Record<JsonProtocol, { body: unknown; detail: RegExp }> = {
  json: {
    body: { mentions: [{ offset: 3, mention: 'XXXX' }] },
    detail: /failed validation: mentions\[0\]\.mention: "XXXX" differs from the text at offset 3/,
  },
  pubannotation: {
    body: {
      denotations: [
        { id: 'T1', span: { begin: 0, end: 5 }, obj: 'protein' },
        { id: 'T2', span: { begin: 40, end: 999 }, obj: 'protein' },
      ],
    },
    detail:
      /failed validation: denotations\[1\]\.span: the span \[40, 999\) runs past the end of the text \(\d+ characters, counted as code points\)/,
  },
};

type Case = {
  name: string;
  protocol: JsonProtocol;
  behaviour: JsonBehaviour;
  kind: string;
  detail: RegExp;
  polls?: boolean;
  /** A timeout whose detail counts the polls: on the 2 s challenge (its polls need more than ptimeout's 1 s on a loaded machine). */
  polledTimeout?: boolean;
};

const cases: Case[] = (['json', 'pubannotation'] as const).flatMap((protocol): Case[] => [
  {
    name: `${protocol}: never answers`,
    protocol,
    behaviour: { kind: 'hang' },
    kind: 'timeout',
    detail: /deadline of [14] s \(no response headers received\)/,
  },
  {
    name: `${protocol}: closes before headers`,
    protocol,
    behaviour: { kind: 'closeBeforeHeaders' },
    kind: 'connection',
    detail: /closed the connection before sending response headers|reset/,
  },
  {
    name: `${protocol}: HTTP 500`,
    protocol,
    behaviour: { kind: 'http', status: 500 },
    kind: 'http',
    detail:
      /^HTTP 500 Internal Server Error: Error 500 the annotation backend is unavailable \(a (JSON|PubAnnotation) answer needs status 200/,
  },
  {
    name: `${protocol}: HTTP 415, with the hint`,
    protocol,
    behaviour: { kind: 'http', status: 415 },
    kind: 'http',
    detail:
      /^HTTP 415 .* — the meta-server POSTs (Content-Type: application\/json|Content-Type: application\/json \{"text": …\} with Accept)/,
  },
  {
    name: `${protocol}: 200 with HTML`,
    protocol,
    behaviour: { kind: 'html' },
    kind: 'protocol',
    detail: /^the answer is XML or HTML, not JSON: is the server registered with the right protocol/,
  },
  {
    name: `${protocol}: truncated JSON`,
    protocol,
    behaviour: { kind: 'truncated' },
    kind: 'protocol',
    detail: /^the answer is not valid JSON/,
  },
  {
    name: `${protocol}: over the size cap`,
    protocol,
    behaviour: { kind: 'oversize', bytes: 10_000 },
    kind: 'protocol',
    detail: /cap of 4096 bytes \(it announced/,
  },
  {
    name: `${protocol}: an invalid answer`,
    protocol,
    behaviour: { kind: 'body', body: INVALID[protocol].body },
    kind: 'invalid',
    detail: INVALID[protocol].detail,
  },
]);
cases.push(
  {
    name: 'json: the fault object',
    protocol: 'json',
    behaviour: { kind: 'body', body: { error: { code: 7, message: 'tagger crashed' } } },
    kind: 'fault',
    detail: /^fault 7: tagger crashed$/,
  },
  {
    name: 'pubannotation: 503 busy, with the hint',
    protocol: 'pubannotation',
    behaviour: { kind: 'http', status: 503, headers: { 'retry-after': '30' } },
    kind: 'http',
    detail: /^HTTP 503 Service Unavailable.* — the server says it is busy/,
  },
  // Asynchronous: the article is POSTed, answered 303 See Other, and polled (GET) at its Location.
  {
    name: 'async: the result is gone (410)',
    protocol: 'pubannotation',
    behaviour: { kind: 'async', retryAfter: '0', poll: 'gone' },
    kind: 'fault',
    detail: /^the result at http:\/\/127\.0\.0\.1:\d+\/results\/1 is gone \(410 Gone\): the server removed it before it was fetched/,
    polls: true,
  },
  {
    name: 'async: the poll never answers',
    protocol: 'pubannotation',
    behaviour: { kind: 'async', retryAfter: '0', poll: 'hang' },
    kind: 'timeout',
    detail:
      /deadline of [124] s \(the answer was asynchronous: polling http:\/\/127\.0\.0\.1:\d+\/results\/1; 0 polls answered "not ready" so far\)/,
    polls: true,
    polledTimeout: true,
  },
  {
    name: 'async: never ready',
    protocol: 'pubannotation',
    behaviour: { kind: 'async', retryAfter: '0', poll: 'notReadyForever' },
    kind: 'timeout',
    detail:
      /the answer was asynchronous: (waiting to poll|polling) http:\/\/127\.0\.0\.1:\d+\/results\/1; [1-9]\d* polls? answered "not ready" so far/,
    polls: true,
    polledTimeout: true,
  },
  {
    name: 'async: Retry-After beyond the deadline',
    protocol: 'pubannotation',
    behaviour: { kind: 'async', retryAfter: '5', poll: 'good' },
    kind: 'timeout',
    detail: /the answer was asynchronous: waiting to poll http:\/\/127\.0\.0\.1:\d+\/results\/1; 0 polls/,
  },
  {
    name: 'async: 303 without a Location',
    protocol: 'pubannotation',
    behaviour: { kind: 'async', location: null, poll: 'good' },
    kind: 'protocol',
    detail: /answered 303 See Other without a Location header/,
  },
  {
    name: 'async: an invalid result',
    protocol: 'pubannotation',
    behaviour: { kind: 'async', retryAfter: '0', poll: { body: INVALID.pubannotation.body } },
    kind: 'invalid',
    detail: INVALID.pubannotation.detail,
    polls: true,
  },
  {
    name: 'async: a result that is not JSON',
    protocol: 'pubannotation',
    behaviour: { kind: 'async', retryAfter: '0', poll: { body: 'x' } },
    kind: 'invalid',
    detail: /\(answer\): expected a PubAnnotation JSON object/,
    polls: true,
  },
);

describe.concurrent('misbehaving JSON and PubAnnotation servers', () => {
  it.each(cases)('$name → failed, $kind on each attempt', async ({ name, protocol, behaviour, kind, detail, polls, polledTimeout }) => {
    const server = await faulty(protocol, behaviour);
    const { id, check } = await ms.server(polledTimeout ? 'pasync' : kind === 'timeout' ? 'ptimeout' : 'pfaults', bench.token, {
      name,
      url: server.url,
      tasks: ['MENTION'],
      protocol,
    });
    expect(check).toMatchObject({ ok: false, outcome: kind });
    expect(check.detail).toMatch(detail);
    await bench.start(id);
    const s = await bench.settled(id);
    expect(s).toMatchObject({ state: 'failed', lastOutcome: kind, answers: 0 });
    expect(s.outcomes).toEqual(Array(MAX_ATTEMPTS).fill(kind));
    for (const d of s.details) expect(d).toMatch(detail);
    // the setup check, then one article sent per attempt; the polls are part of the attempt
    expect(server.posts).toBe(1 + MAX_ATTEMPTS);
    if (polls) expect(server.gets).toBeGreaterThanOrEqual(1 + MAX_ATTEMPTS);
    if (behaviour.kind === 'async' && behaviour.retryAfter === '5') expect(server.gets).toBe(0);
    await queueEmptied(ms, id); // finished: its outcome is in the database, its job gone from Redis
  });

  it('connection refused, for each protocol', async () => {
    for (const protocol of ['json', 'pubannotation']) {
      const port = await refusedPort();
      const { id, check } = await ms.server('pfaults', bench.token, {
        name: `refused ${protocol}`,
        url: `http://127.0.0.1:${port}/annotate`,
        tasks: ['MENTION'],
        protocol,
      });
      expect(check).toMatchObject({ ok: false, reachable: false, outcome: 'connection' });
      await bench.start(id);
      const s = await bench.settled(id);
      expect(s.outcomes).toEqual(Array(MAX_ATTEMPTS).fill('connection'));
      for (const d of s.details) expect(d).toMatch(/connection refused by 127\.0\.0\.1:\d+/);
    }
  });

  it('async: "not ready" twice, then the result: stored on attempt 1, the polls one attempt', async () => {
    const server = await faulty('pubannotation', { kind: 'async', retryAfter: '0', notReady: 2, poll: 'good' });
    const { id, check } = await ms.server('pgood', bench.token, {
      name: 'not ready twice',
      url: server.url,
      tasks: ['MENTION'],
      protocol: 'pubannotation',
    });
    expect(check).toMatchObject({ ok: true, outcome: 'ok' });
    expect(server.gets).toBe(3);
    await bench.start(id);
    const s = await bench.settled(id);
    expect(s).toMatchObject({ state: 'done', lastOutcome: 'ok', outcomes: ['ok'], answers: 1, answerAttempt: 1 });
    expect(server.posts).toBe(2);
    expect(server.gets).toBe(6);
    expect(server.received.at(-1)).toEqual({ text: ARTICLE.text });
  });

  it('async: the size cap is on the answer, not on the "not ready" bodies before it', async () => {
    // Three "not ready" bodies of ~2 KB each: together past the 4096-byte cap, the answer alone under it.
    const server = await faulty('pubannotation', { kind: 'async', retryAfter: '0', notReady: 3, notReadyBytes: 2000, poll: 'good' });
    const { id, check } = await ms.server('pgood', bench.token, {
      name: 'big not-ready bodies',
      url: server.url,
      tasks: ['MENTION'],
      protocol: 'pubannotation',
    });
    expect(check).toMatchObject({ ok: true, outcome: 'ok' });
    await bench.start(id);
    const s = await bench.settled(id);
    expect(s).toMatchObject({ state: 'done', lastOutcome: 'ok', outcomes: ['ok'], answers: 1 });
  });

  it('a server registered with the wrong protocol: the detail says which to use', async () => {
    // A JSON server registered as XML-RPC…
    const json = await faulty('json', { kind: 'good' });
    const asXmlRpc = await ms.server('pfaults', bench.token, {
      name: 'json as xmlrpc',
      url: json.url,
      tasks: ['MENTION'],
      protocol: 'xmlrpc',
    });
    expect(asXmlRpc.check.outcome).toBe('protocol');
    expect(asXmlRpc.check.detail).toMatch(
      /the answer is JSON, not an XML-RPC methodResponse: a server that answers JSON is registered with protocol "json" or "pubannotation"/,
    );
    // …and an XML-RPC server registered as JSON.
    const xmlrpc = await startFaultyServer({ kind: 'good' });
    servers.push(xmlrpc);
    const asJson = await ms.server('pfaults', bench.token, {
      name: 'xmlrpc as json',
      url: xmlrpc.url,
      tasks: ['MENTION'],
      protocol: 'json',
    });
    expect(asJson.check.outcome).toBe('protocol');
    expect(asJson.check.detail).toMatch(
      /the answer is XML \(an XML-RPC answer\?\), not JSON: is the server registered with the right protocol \(this one is "json"; XML-RPC servers are "xmlrpc"\)/,
    );
    // An asynchronous server registered as JSON: the 303 is an unexpected status, with the hint.
    const async = await faulty('pubannotation', { kind: 'async', retryAfter: '0', poll: 'good' });
    const asyncAsJson = await ms.server('pfaults', bench.token, {
      name: 'async as json',
      url: async.url,
      tasks: ['MENTION'],
      protocol: 'json',
    });
    expect(asyncAsJson.check).toMatchObject({ outcome: 'http' });
    expect(asyncAsJson.check.detail).toMatch(/^HTTP 303 See Other .*registered with protocol "pubannotation"/);
  });
});
