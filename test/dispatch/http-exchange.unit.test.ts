// The steps of the HTTP exchange every protocol shares (src/dispatch/annotators/http-exchange/),
// pinned where a rule was only implicit in the one function they came from: the wait
// before a poll is never under the rules' minimum, the one deadline covers the waits and
// polls of an asynchronous answer, "not ready" and "gone" mean something only from a poll,
// a Location is resolved against the URL that gave it, and a protocol's own codec error is
// a `protocol` failure through the protocol (not through the shared exchange). Each against
// a real loopback HTTP server scripted request by request.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  callHttp,
  createServerAgent,
  pollWaitMs,
  type HttpCallRequest,
  type PollingRules,
} from '../../src/dispatch/annotators/http-call.ts';
import { withFormatErrors, type CallOutcome, type Decoded } from '../../src/dispatch/annotators/outcome.ts';
import { xmlrpc } from '../../src/dispatch/annotators/xmlrpc.ts';
import { listenOnLoopback, type OnLoopback } from '../support/loopback.ts';

/** One scripted answer: status, headers, body. */
type Reply = { status: number; headers?: Record<string, string>; body?: string };
interface Seen {
  method: string;
  path: string;
  at: number;
}

const RULES: PollingRules = {
  notReady: [404],
  defaultWaitMs: 1_000,
  minWaitMs: 120,
  gone: { status: 410, kind: 'fault', detail: (at) => `gone: ${at}` },
};
const NOT_READY: Reply = { status: 404, headers: { 'retry-after': '0' }, body: 'not ready' };
const ANSWER: Reply = { status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' };

const servers: OnLoopback[] = [];
const agent = createServerAgent({ connections: 4 });
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await agent.close();
});

/** A server answering each request with the next reply of the script (its last one once the script runs out). */
async function scripted(script: Reply[]): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      seen.push({ method: req.method ?? '', path: req.url ?? '', at: performance.now() });
      const reply = script[Math.min(seen.length, script.length) - 1];
      res.writeHead(reply.status, { 'content-length': Buffer.byteLength(reply.body ?? ''), ...reply.headers });
      res.end(reply.body ?? '');
    });
  });
  const loopback = await listenOnLoopback(server);
  servers.push(loopback);
  return { url: `http://127.0.0.1:${loopback.port}/annotate`, seen };
}

function call(url: string, opts: Partial<HttpCallRequest<unknown>> = {}): Promise<CallOutcome<unknown>> {
  return callHttp(
    {
      url,
      body: '{"text":"BRCA1"}',
      contentType: 'application/json',
      deadlineMs: 4_000,
      maxResponseBytes: 100_000,
      expects: 'an answer needs status 200',
      polling: RULES,
      decode: (body) => ({ kind: 'value', value: JSON.parse(body.toString('utf8')) as unknown }),
      ...opts,
    },
    agent,
  );
}

describe('the wait before a poll', () => {
  it('is what Retry-After says, the default when it says nothing, never under the minimum', () => {
    expect(pollWaitMs('2', RULES)).toBe(2_000);
    expect(pollWaitMs(undefined, RULES)).toBe(RULES.defaultWaitMs);
    expect(pollWaitMs('soon', RULES)).toBe(RULES.defaultWaitMs);
    expect(pollWaitMs('0', RULES)).toBe(RULES.minWaitMs);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(pollWaitMs('Tue, 31 Dec 2024 00:00:00 GMT', RULES, now)).toBe(RULES.minWaitMs);
  });

  it('over the wire: "Retry-After: 0" is no busy loop, each poll comes the minimum after the answer before it', async () => {
    const server = await scripted([{ status: 303, headers: { location: '/results/1', 'retry-after': '0' } }, NOT_READY, NOT_READY, ANSWER]);
    expect(await call(server.url)).toMatchObject({ ok: true, value: { ok: true } });
    expect(server.seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      'POST /annotate',
      'GET /results/1',
      'GET /results/1',
      'GET /results/1',
    ]);
    for (let i = 1; i < server.seen.length; i++) {
      // 2 ms for the two clocks' rounding: a timer never fires early
      expect(server.seen[i].at - server.seen[i - 1].at).toBeGreaterThanOrEqual(RULES.minWaitMs - 2);
    }
  });
});

describe('the one deadline of an asynchronous answer', () => {
  it('covers the waits and the polls: a result never ready ends at the deadline, with the polls counted', async () => {
    const server = await scripted([{ status: 303, headers: { location: '/results/1', 'retry-after': '0' } }, NOT_READY]);
    const outcome = await call(server.url, { deadlineMs: 500 });
    expect(outcome).toMatchObject({ ok: false, kind: 'timeout' });
    if (outcome.ok) return;
    const polls = server.seen.length - 1;
    expect(polls).toBeGreaterThanOrEqual(1);
    expect(polls).toBeLessThanOrEqual(500 / RULES.minWaitMs + 1);
    expect(outcome.detail).toMatch(
      new RegExp(
        `^no complete answer within the deadline of 0\\.5 s \\(the answer was asynchronous: (waiting to poll|polling) http://127\\.0\\.0\\.1:\\d+/results/1; \\d+ polls? answered "not ready" so far\\)$`,
      ),
    );
    expect(outcome.ms).toBeGreaterThanOrEqual(490);
    expect(outcome.ms).toBeLessThan(3_000);
    expect(outcome.bytesSent).toBe(Buffer.byteLength('{"text":"BRCA1"}'));
  });

  it('a Retry-After beyond the deadline is not waited out: no poll is made', async () => {
    const server = await scripted([{ status: 303, headers: { location: '/results/1', 'retry-after': '60' } }, ANSWER]);
    const outcome = await call(server.url, { deadlineMs: 300 });
    expect(outcome).toMatchObject({
      ok: false,
      kind: 'timeout',
      detail: expect.stringMatching(/waiting to poll .*\/results\/1; 0 polls answered "not ready" so far/),
    });
    expect(server.seen).toHaveLength(1);
  });
});

describe('what a status means depends on where it comes from', () => {
  it('"not ready" and "gone" only from a poll: to the POST they are plain HTTP failures, and nothing is polled', async () => {
    for (const status of [404, 410]) {
      const server = await scripted([{ status, body: 'no such thing' }]);
      expect(await call(server.url)).toMatchObject({
        ok: false,
        kind: 'http',
        httpStatus: status,
        detail: expect.stringMatching(new RegExp(`^HTTP ${status} .*: no such thing \\(an answer needs status 200\\)$`)),
      });
      expect(server.seen).toHaveLength(1);
    }
  });

  it('from a poll, "gone" is the rules\' failure naming the Location; an HTTP failure of a poll names where it polled', async () => {
    const gone = await scripted([{ status: 303, headers: { location: '/results/7', 'retry-after': '0' } }, { status: 410 }]);
    expect(await call(gone.url)).toMatchObject({
      ok: false,
      kind: 'fault',
      httpStatus: 410,
      detail: expect.stringMatching(/^gone: http:\/\/127\.0\.0\.1:\d+\/results\/7$/),
    });
    const failing = await scripted([
      { status: 303, headers: { location: '/results/7', 'retry-after': '0' } },
      { status: 500, body: 'crashed' },
    ]);
    expect(await call(failing.url)).toMatchObject({
      ok: false,
      kind: 'http',
      httpStatus: 500,
      detail: expect.stringMatching(/^HTTP 500 Internal Server Error when polling http:\/\/127\.0\.0\.1:\d+\/results\/7: crashed/),
    });
  });

  it('a Location is resolved against the URL that gave it, and a 303 from a poll is followed too', async () => {
    const server = await scripted([
      { status: 303, headers: { location: 'jobs/1', 'retry-after': '0' } },
      NOT_READY,
      { status: 303, headers: { location: 'result', 'retry-after': '0' } },
      ANSWER,
    ]);
    expect(await call(server.url)).toMatchObject({ ok: true, value: { ok: true } });
    expect(server.seen.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /annotate', 'GET /jobs/1', 'GET /jobs/1', 'GET /jobs/result']);
  });

  it("a synchronous call (no polling rules) takes a 303 as the answer's status", async () => {
    const server = await scripted([{ status: 303, headers: { location: '/results/1' } }, ANSWER]);
    expect(await call(server.url, { polling: undefined })).toMatchObject({ ok: false, kind: 'http', httpStatus: 303 });
    expect(server.seen).toHaveLength(1);
  });
});

describe("a protocol's own codec error", () => {
  it("is a protocol failure with the codec's message once the protocol maps it, and is not the shared exchange's to know", async () => {
    const server = await scripted([
      { status: 200, headers: { 'content-type': 'text/xml' }, body: '<methodResponse><params><param><value><string>cut' },
    ]);
    const decodeXmlRpc = (body: Buffer, charset: string | undefined): Decoded<unknown> => xmlrpc.decode(body, charset, 'BRCA1');
    const mapped = await call(server.url, { polling: undefined, decode: withFormatErrors(decodeXmlRpc, xmlrpc.formatErrorOf) });
    expect(mapped).toMatchObject({ ok: false, kind: 'protocol', detail: expect.stringMatching(/malformed XML at line \d+, column \d+/) });
    // Unmapped, the exchange cannot tell it from any other error: not an answer format it knows.
    const unmapped = await call(server.url, { polling: undefined, decode: decodeXmlRpc });
    expect(unmapped.ok).toBe(false);
    expect(!unmapped.ok && unmapped.kind).not.toBe('protocol');
  });
});
