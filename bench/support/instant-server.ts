// An annotation server that costs (almost) nothing: it drains the request and answers a
// precomputed byte buffer, optionally after a delay. One HTTP server stands in for many
// annotation servers (path /s/<k>), so it can count requests and the most requests in
// flight at once per annotation server, to check that concurrency limits hold.
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { annotate } from '../../src/sample/annotator.ts';
import { encodeFault, encodeMethodResponse } from '../../src/xmlrpc/codec.ts';

/**
 * What one annotation server does with one (full-size) request: answer after delayMs, or fail
 * after it — 'reset' closes the connection, 'http' answers 500, 'fault' an XML-RPC fault.
 */
export interface Reply {
  delayMs: number;
  failure?: 'reset' | 'http' | 'fault';
}

/** A valid ACT/INT/IPT answer for any text (no mentions, so no offsets to check), as XML-RPC or as the JSON protocol's object. */
export function fixedAnswer(protocol: 'xmlrpc' | 'json' = 'xmlrpc'): Buffer {
  const { mentions: _m, coref: _c, ...rest } = annotate('SNCA (P37840) interacts with BRCA1 (P38398) and binds TP53 (P04637).');
  return Buffer.from(protocol === 'json' ? JSON.stringify(rest) : encodeMethodResponse(rest));
}

/** The fixed answer, n times, in the protocol's batch form (system.multicall's array of one-element arrays; a JSON array). */
export function fixedBatchAnswer(protocol: 'xmlrpc' | 'json', n: number): Buffer {
  const { mentions: _m, coref: _c, ...rest } = annotate('SNCA (P37840) interacts with BRCA1 (P38398) and binds TP53 (P04637).');
  return Buffer.from(
    protocol === 'json'
      ? JSON.stringify(Array.from({ length: n }, () => rest))
      : encodeMethodResponse(Array.from({ length: n }, () => [rest])),
  );
}

/** What each article of a batch request holds once, and how a batch request begins. */
const BATCH_MARK = { xmlrpc: '<name>methodName</name>', json: '{"text":' } as const;
const BATCH_START = { xmlrpc: '<?xml version="1.0" encoding="UTF-8"?>\n<methodCall><methodName>system.multicall<', json: '[' } as const;

export interface InstantServer {
  url(k: number): string;
  readonly requests: number[];
  readonly maxInFlight: number[];
  readonly inFlight: number[];
  /** The first 4 KB of the last request body seen (for checks). */
  lastBodyHead: string;
  close(): Promise<void>;
}

/**
 * delayMs: answer after that long — except requests under fastBelowBytes (the setup check at
 * registration sends a short article), answered at once.
 */
export async function startInstantServer(
  opts: {
    delayMs?: number;
    servers?: number;
    fastBelowBytes?: number;
    protocol?: 'xmlrpc' | 'json';
    reply?: (k: number) => Reply;
    /** Answer batches (servers registered with batchSize > 1): as many answers as articles in the request. */
    batches?: boolean;
  } = {},
): Promise<InstantServer> {
  const protocol = opts.protocol ?? 'xmlrpc';
  const answer = fixedAnswer(protocol);
  const batchAnswers = new Map<number, Buffer>();
  const batchAnswer = (n: number): Buffer => {
    let body = batchAnswers.get(n);
    if (!body) batchAnswers.set(n, (body = fixedBatchAnswer(protocol, n)));
    return body;
  };
  const contentType = opts.protocol === 'json' ? 'application/json' : 'text/xml; charset=utf-8';
  const n = opts.servers ?? 1000;
  const requests = new Array<number>(n).fill(0);
  const inFlight = new Array<number>(n).fill(0);
  const maxInFlight = new Array<number>(n).fill(0);
  const sockets = new Set<Socket>();
  const state = { lastBodyHead: '' };
  const server: Server = createServer((req, res) => {
    const k = Number(/^\/s\/(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
    requests[k]++;
    inFlight[k]++;
    if (inFlight[k] > maxInFlight[k]) maxInFlight[k] = inFlight[k]!;
    let head = '';
    let bytes = 0;
    // A batch (system.multicall, or a JSON array): how many articles it holds, counted by a
    // marker each one's request has once — kept across chunk edges by the last few bytes.
    let articles = 0;
    let tail = '';
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (head.length < 4096) head += chunk.toString('latin1', 0, Math.min(chunk.length, 4096));
      if (opts.batches) {
        const text = tail + chunk.toString('latin1');
        articles += text.split(BATCH_MARK[protocol]).length - 1 - (tail.split(BATCH_MARK[protocol]).length - 1);
        tail = text.slice(-32);
      }
    });
    req.on('end', () => {
      state.lastBodyHead = head;
      const send = (): void => {
        inFlight[k]--;
        const body = opts.batches && head.startsWith(BATCH_START[protocol]) ? batchAnswer(articles) : answer;
        res.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
        res.end(body);
      };
      const full = bytes >= (opts.fastBelowBytes ?? 0);
      const planned = opts.reply && full ? opts.reply(k) : undefined;
      if (planned) {
        setTimeout(() => {
          if (planned.failure === undefined) return send();
          inFlight[k]--;
          if (planned.failure === 'reset') return void req.socket.destroy();
          const body = planned.failure === 'fault' ? Buffer.from(encodeFault(500, 'annotator broke')) : Buffer.from('broken');
          res.writeHead(planned.failure === 'fault' ? 200 : 500, { 'content-type': contentType, 'content-length': body.length });
          res.end(body);
        }, planned.delayMs);
      } else if (opts.delayMs && full) setTimeout(send, opts.delayMs);
      else send();
    });
  });
  server.keepAliveTimeout = 60_000;
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  server.maxConnections = 20_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  // A long accept queue: a floor opening 10,000 connections at once overflowed Node's default
  // of 511, and some of its calls were reset.
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, resolve));
  const port = (server.address() as { port: number }).port;
  return {
    // BENCH_SERVER_HOST=localhost: servers registered by name, as teams register them.
    url: (k) => `http://${process.env.BENCH_SERVER_HOST ?? '127.0.0.1'}:${port}/s/${k}`,
    requests,
    maxInFlight,
    inFlight,
    get lastBodyHead() {
      return state.lastBodyHead;
    },
    set lastBodyHead(v: string) {
      state.lastBodyHead = v;
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}
