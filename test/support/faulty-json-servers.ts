// Loopback annotation servers speaking JSON or PubAnnotation that misbehave in one precise,
// deterministic way each (the XML-RPC ones are in faulty-servers.ts). Every server binds
// 127.0.0.1 on a free port and counts the POSTs (articles sent) and GETs (polls) it gets;
// `close()` destroys open sockets, so no test hangs on one.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { annotate } from '../../src/sample/annotator.ts';
import { pubAnnotationOf } from '../../src/sample/protocols.ts';
import { listenOnLoopback } from './loopback.ts';

export type JsonProtocol = 'json' | 'pubannotation';

export type JsonBehaviour =
  | { kind: 'good' }
  | { kind: 'hang' } // reads the request, never answers
  | { kind: 'closeBeforeHeaders' }
  | { kind: 'http'; status: number; headers?: Record<string, string> }
  | { kind: 'html' } // 200 with an HTML page
  | { kind: 'truncated' } // 200 with the good answer cut in the middle (correctly framed)
  | { kind: 'oversize'; bytes: number }
  | { kind: 'body'; body: unknown } // 200 with this value as JSON
  // Asynchronous (PubAnnotation): the POST is answered 303 See Other → /results/1
  // notReadyBytes pads each "not ready" answer's body to about that many bytes.
  | {
      kind: 'async';
      retryAfter?: string;
      location?: string | null;
      notReady?: number;
      notReadyBytes?: number;
      poll: 'good' | 'hang' | 'gone' | 'notReadyForever' | { body: unknown };
    };

export interface FaultyJsonServer {
  url: string;
  readonly posts: number;
  readonly gets: number;
  /** The JSON bodies POSTed so far. */
  readonly received: unknown[];
  close(): Promise<void>;
}

function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const body = Buffer.from(JSON.stringify(value));
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': body.length, ...headers });
  res.end(body);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startFaultyJsonServer(protocol: JsonProtocol, behaviour: JsonBehaviour): Promise<FaultyJsonServer> {
  let posts = 0;
  let gets = 0;
  const received: unknown[] = [];
  let lastText = '';
  /** Polls since the last POST: "not ready" counts per article sent. */
  let polls = 0;
  const good = (text: string): unknown => (protocol === 'json' ? annotate(text) : pubAnnotationOf(text, {}));

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    if (req.method === 'GET') {
      gets += 1;
      polls += 1;
      if (behaviour.kind !== 'async') return sendJson(res, 405, { error: 'POST only' });
      if (behaviour.notReady !== undefined && polls <= behaviour.notReady) {
        return sendJson(
          res,
          404,
          { error: 'not ready', ...(behaviour.notReadyBytes ? { padding: 'x'.repeat(behaviour.notReadyBytes) } : {}) },
          { 'retry-after': '0' },
        );
      }
      const poll = behaviour.poll;
      if (poll === 'hang') return;
      if (poll === 'gone') return sendJson(res, 410, { error: 'removed' });
      if (poll === 'notReadyForever') return sendJson(res, 404, { error: 'not ready' }, { 'retry-after': '0' });
      return sendJson(res, 200, poll === 'good' ? good(lastText) : poll.body);
    }
    posts += 1;
    polls = 0;
    let text = '';
    try {
      const body = JSON.parse(raw) as { text?: unknown };
      received.push(body);
      if (typeof body.text === 'string') text = body.text;
    } catch {
      // the behaviour decides the answer regardless
    }
    lastText = text;
    switch (behaviour.kind) {
      case 'good':
        return sendJson(res, 200, good(text));
      case 'hang':
        return;
      case 'closeBeforeHeaders':
        req.socket.destroy();
        return;
      case 'http':
        res.writeHead(behaviour.status, { 'content-type': 'text/html', ...behaviour.headers });
        res.end(`<html><body><h1>Error ${behaviour.status}</h1><p>the annotation backend is unavailable</p></body></html>`);
        return;
      case 'html':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!DOCTYPE html>\n<html><head><title>Welcome</title></head><body><p>It works!</p></body></html>\n');
        return;
      case 'truncated': {
        const full = JSON.stringify(good(text));
        const cut = Buffer.from(full.slice(0, Math.floor(full.length / 2)));
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': cut.length });
        res.end(cut);
        return;
      }
      case 'oversize':
        return sendJson(res, 200, { ...(good(text) as object), padding: 'x'.repeat(behaviour.bytes) });
      case 'body':
        return sendJson(res, 200, behaviour.body);
      case 'async': {
        const headers: Record<string, string> = { 'content-length': '0' };
        if (behaviour.location !== null) headers.location = behaviour.location ?? '/results/1';
        if (behaviour.retryAfter !== undefined) headers['retry-after'] = behaviour.retryAfter;
        res.writeHead(303, headers);
        res.end();
        return;
      }
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.requestTimeout = 0; // a `hang` must not be ended by the server's own timeout
  const { port, close } = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}/annotate`,
    get posts() {
      return posts;
    },
    get gets() {
      return gets;
    },
    get received() {
      return received;
    },
    close,
  };
}
