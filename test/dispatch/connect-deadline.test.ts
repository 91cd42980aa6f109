// A server whose host drops SYNs (a firewall, a NAT; here a loopback port whose accept queue
// is full, test/support/blackhole-port.ts): the connect never ends on its own before the
// kernel gives up (~130 s). The deadline must cover it, for every protocol and the batch
// form: the registration's setup check and each dispatch attempt end within their deadline
// (2 s here), as a `connection` failure saying the connection was not accepted, and the
// worker slot is free for the retries the normal policy makes.
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callHttp, createServerAgent } from '../../src/dispatch/annotators/http-call.ts';
import { listenOnLoopback } from '../support/loopback.ts';
import { startBlackholePort, type BlackholePort } from '../support/blackhole-port.ts';
import { startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';

const DEADLINE_S = 2;
/** The deadline plus a margin for the meta-server's own steps; without a connect deadline, ~130 s. */
const WITHIN_MS = DEADLINE_S * 1000 + 2000;

let ms: TestMetaserver;
let blackhole: BlackholePort;
let token: string;

beforeAll(async () => {
  [ms, blackhole] = await Promise.all([startTestMetaserver({ config: { checkTimeoutSeconds: DEADLINE_S } }), startBlackholePort('/RPC2')]);
  await ms.challenge('dropped', {
    name: 'Dropped SYNs',
    tasks: ['MENTION'],
    timeoutSeconds: DEADLINE_S,
    maxAttempts: 2,
    retryDelaySeconds: 0,
    serversPerTeam: 10,
  });
  token = (await ms.team('Behind NAT')).token;
  await ms.articles('dropped', [{ id: 'D1', text: 'BRCA1 binds TP53.' }]);
}, 20_000);
afterAll(async () => {
  await ms?.stop();
  blackhole?.close();
});

/** Every protocol the meta-server calls, and the batch form (XML-RPC system.multicall). */
const SERVERS = [
  { name: 'xmlrpc', protocol: 'xmlrpc', tasks: ['MENTION'] },
  { name: 'json', protocol: 'json', tasks: ['MENTION'] },
  { name: 'pubannotation', protocol: 'pubannotation', tasks: ['MENTION'] },
  { name: 'xmlrpc multicall', protocol: 'xmlrpc', tasks: ['MENTION'], batchSize: 2 },
];

const NOT_ACCEPTED = new RegExp(
  `^the server at 127\\.0\\.0\\.1:\\d+ did not accept a connection within the deadline of ${DEADLINE_S} s; nothing was sent`,
);

describe('a connect to a host that drops SYNs ends at the deadline', () => {
  it('registration: each setup check ends within its deadline, and says the connection was not accepted', async () => {
    const registered = await Promise.all(
      SERVERS.map(async (fields) => {
        const started = Date.now();
        const server = await ms.server('dropped', token, { ...fields, name: `checked ${fields.name}`, url: blackhole.url });
        return { server, took: Date.now() - started };
      }),
    );
    for (const { server, took } of registered) {
      expect(took).toBeLessThan(WITHIN_MS);
      expect(server.check).toMatchObject({ ok: false, reachable: false, outcome: 'connection' });
      expect(server.check.detail).toMatch(NOT_ACCEPTED);
    }
  }, 15_000);

  it('dispatch: each attempt ends at the deadline, and the retry follows in the freed slot', async () => {
    const servers = await Promise.all(
      SERVERS.map((fields) =>
        ms.server('dropped', token, { ...fields, name: `dispatched ${fields.name}`, url: blackhole.url }, { background: true }),
      ),
    );
    const started = Date.now();
    await Promise.all(servers.map((server) => ms.startServer(server.id, token)));
    const statuses = await Promise.all(
      servers.map((server) =>
        waitFor(
          `server ${server.id} to fail its article twice`,
          async () => {
            const { body } = await ms.request('GET', `/api/servers/${server.id}`, undefined, token);
            return body.progress.failed === 1 && body.progress.active === 0 && body.errors.length === 2 ? body : undefined;
          },
          4 * WITHIN_MS,
        ),
      ),
    );
    // Two attempts one after the other (maxAttempts 2, no retry delay), and the worker's
    // pick-up; before the connect had a deadline, the first attempt alone took ~130 s.
    expect(Date.now() - started).toBeLessThan(3 * WITHIN_MS);
    for (const status of statuses) {
      expect(status.errors.map((e: { attempt: number }) => e.attempt).sort()).toEqual([1, 2]);
      for (const error of status.errors) {
        expect(error).toMatchObject({ article: 'D1', kind: 'connection' });
        expect(error.detail).toMatch(NOT_ACCEPTED);
      }
    }
  }, 20_000);
});

describe('the Location of an asynchronous answer on a host that drops SYNs', () => {
  it("its poll ends at the call's one deadline, saying the connection was not accepted", async () => {
    // The server takes the article and points at its result on the black-holed host.
    const server = await listenOnLoopback(
      createServer((req, res) => {
        req.resume();
        req.on('end', () => res.writeHead(303, { location: `http://127.0.0.1:${blackhole.port}/results/1` }).end());
      }),
    );
    const agent = createServerAgent({ connections: 2, connectTimeoutMs: 1_000 });
    try {
      const started = Date.now();
      const outcome = await callHttp(
        {
          url: `http://127.0.0.1:${server.port}/annotate`,
          body: '{}',
          contentType: 'application/json',
          deadlineMs: 1_000,
          maxResponseBytes: 1024,
          decode: () => ({ kind: 'value', value: null }),
          expects: 'a JSON answer needs status 200',
          polling: { notReady: [404], defaultWaitMs: 100, minWaitMs: 50 },
        },
        agent,
      );
      expect(Date.now() - started).toBeLessThan(2_500);
      expect(outcome).toMatchObject({ ok: false, kind: 'connection' });
      expect(!outcome.ok && outcome.detail).toMatch(
        /^the server at 127\.0\.0\.1:\d+ did not accept a connection within the deadline of 1 s \(when polling http:\/\/127\.0\.0\.1:\d+\/results\/1 for the asynchronous answer\); the poll was not sent/,
      );
    } finally {
      await Promise.all([agent.close(), server.close()]);
    }
  });
});
