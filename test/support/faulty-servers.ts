// Loopback annotation servers that misbehave in one precise, deterministic way each, for
// tests of the client, the dispatcher and the retry logic. Every server binds 127.0.0.1 on
// a free port; `close()` destroys open sockets and stops timers, so no test hangs on one.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { annotate } from '../../src/sample/annotator.ts';
import { decodeMethodCall, encodeFault, encodeMethodResponse, type XmlRpcValue } from '../../src/xmlrpc/codec.ts';
import { listenOnLoopback } from './loopback.ts';

export type Behaviour =
  | { kind: 'hang' } // reads the request, never answers
  | { kind: 'silent' } // accepts the TCP connection, never reads or answers
  | { kind: 'drip'; intervalMs?: number } // headers, then one byte of a good answer per interval (default 1 s)
  | { kind: 'reset'; afterBytes?: number } // 200 headers and part of the answer, then RST
  | { kind: 'closeBeforeHeaders' } // reads the request, closes without a byte
  | { kind: 'http'; status: number } // that status with a small HTML body
  | { kind: 'html' } // 200 text/html page
  | { kind: 'truncated' } // 200 with an XML-RPC answer cut in the middle (correctly framed)
  | { kind: 'fault'; code?: number; message?: string }
  | { kind: 'wrongTypes' } // valid XML-RPC, wrong types for the task keys
  | { kind: 'oversize'; bytes: number; chunked?: boolean } // valid answer larger than `bytes`
  | { kind: 'delayed'; ms: number } // good answer after `ms`
  | { kind: 'flaky'; failures: number } // 500 for the first `failures` requests, then good answers
  | { kind: 'good' } // the sample annotator's answer
  | { kind: 'custom'; handler: (text: string, given: string, params: XmlRpcValue[]) => XmlRpcValue | Promise<XmlRpcValue> }
  | { kind: 'body'; body: Buffer | string; contentType: string } // status 200 with exactly this body and Content-Type
  | { kind: 'raw'; bytes: Buffer | string }; // not HTTP: these bytes on the socket once the request starts, then close

export interface ReceivedCall {
  method: string;
  params: XmlRpcValue[];
  contentType: string | undefined;
}

export interface FaultyServer {
  url: string;
  port: number;
  /** Requests (for `silent`: connections) received so far. */
  readonly requests: number;
  /** The calls decoded so far (not for `silent`, or when the body was not XML-RPC). */
  readonly calls: ReceivedCall[];
  close(): Promise<void>;
}

/** A loopback port with nothing listening on it (bound, then released). */
export async function refusedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendXml(res: ServerResponse, xml: string, status = 200): void {
  const body = Buffer.from(xml, 'utf8');
  res.writeHead(status, { 'content-type': 'text/xml; charset=utf-8', 'content-length': body.length });
  res.end(body);
}

function goodAnswer(params: XmlRpcValue[]): string {
  const text = typeof params[0] === 'string' ? params[0] : '';
  const given = typeof params[1] === 'string' ? params[1] : '';
  return encodeMethodResponse(annotate(text, given));
}

/** opts.port: listen on that port (a server that "comes back" where connections were refused). */
export async function startFaultyServer(behaviour: Behaviour, opts: { port?: number } = {}): Promise<FaultyServer> {
  let requests = 0;
  const calls: ReceivedCall[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    requests += 1;
    const raw = await readBody(req);
    let params: XmlRpcValue[] = [];
    try {
      const call = decodeMethodCall(raw);
      params = call.params;
      calls.push({ method: call.method, params, contentType: req.headers['content-type'] });
    } catch {
      // a test may send anything; the behaviour decides the answer regardless
    }
    switch (behaviour.kind) {
      case 'hang':
      case 'silent':
        return; // never answer
      case 'closeBeforeHeaders':
        req.socket.destroy();
        return;
      case 'drip': {
        const body = Buffer.from(goodAnswer(params));
        res.writeHead(200, { 'content-type': 'text/xml', 'content-length': body.length });
        res.flushHeaders();
        let sent = 0;
        const next = (): void => {
          if (sent >= body.length || res.destroyed) return;
          res.write(body.subarray(sent, sent + 1));
          sent += 1;
          later(behaviour.intervalMs ?? 1000, next);
        };
        next();
        return;
      }
      case 'reset': {
        const body = Buffer.from(goodAnswer(params));
        const part = Math.min(behaviour.afterBytes ?? 20, body.length - 1);
        res.writeHead(200, { 'content-type': 'text/xml', 'content-length': body.length });
        res.write(body.subarray(0, part), () => later(20, () => req.socket.resetAndDestroy()));
        return;
      }
      case 'http':
        res.writeHead(behaviour.status, { 'content-type': 'text/html' });
        res.end(`<html><body><h1>Error ${behaviour.status}</h1><p>the annotation backend is unavailable</p></body></html>`);
        return;
      case 'html':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!DOCTYPE html>\n<html><head><title>Welcome</title></head><body><p>It works!</p></body></html>\n');
        return;
      case 'truncated': {
        const full = goodAnswer(params);
        const cut = Buffer.from(full.slice(0, Math.floor(full.length / 2)));
        res.writeHead(200, { 'content-type': 'text/xml', 'content-length': cut.length });
        res.end(cut);
        return;
      }
      case 'fault':
        sendXml(res, encodeFault(behaviour.code ?? 4, behaviour.message ?? 'annotator crashed: index out of range'));
        return;
      case 'wrongTypes':
        sendXml(res, encodeMethodResponse({ interaction: 'yes', mentions: [{ offset: '3', mention: 'BRCA1' }] }));
        return;
      case 'oversize': {
        const body = Buffer.from(encodeMethodResponse({ interaction: [true, 0.5], padding: 'x'.repeat(behaviour.bytes) }));
        if (behaviour.chunked) {
          res.writeHead(200, { 'content-type': 'text/xml' });
          for (let i = 0; i < body.length; i += 16_384) res.write(body.subarray(i, i + 16_384));
          res.end();
        } else {
          sendXml(res, body.toString('utf8'));
        }
        return;
      }
      case 'delayed':
        later(behaviour.ms, () => sendXml(res, goodAnswer(params)));
        return;
      case 'flaky':
        if (requests <= behaviour.failures) {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(`temporary failure ${requests} of ${behaviour.failures}`);
        } else {
          sendXml(res, goodAnswer(params));
        }
        return;
      case 'good':
        sendXml(res, goodAnswer(params));
        return;
      case 'body': {
        const body = Buffer.from(behaviour.body);
        res.writeHead(200, { 'content-type': behaviour.contentType, 'content-length': body.length });
        res.end(body);
        return;
      }
      case 'raw':
        return; // answered by the socket server below
      case 'custom': {
        const text = typeof params[0] === 'string' ? params[0] : '';
        const given = typeof params[1] === 'string' ? params[1] : '';
        sendXml(res, encodeMethodResponse(await behaviour.handler(text, given, params)));
        return;
      }
    }
  };

  let server: NetServer;
  if (behaviour.kind === 'raw') {
    const bytes = behaviour.bytes;
    server = createNetServer((socket) => {
      socket.on('error', () => {}); // the client may reset what it cannot parse
      socket.once('data', () => {
        requests += 1;
        socket.end(bytes);
      });
    });
  } else if (behaviour.kind === 'silent') {
    server = createNetServer({ pauseOnConnect: true }, () => {
      requests += 1;
    });
  } else {
    server = createHttpServer((req, res) => {
      handle(req, res).catch(() => res.destroy());
    });
    // the defaults (5 s keep-alive, 300 s request timeout) must not end a `hang` early
    (server as ReturnType<typeof createHttpServer>).requestTimeout = 0;
  }
  const listening = await listenOnLoopback(server, opts.port ?? 0);
  const port = listening.port;

  return {
    url: `http://127.0.0.1:${port}/RPC2`,
    port,
    get requests() {
      return requests;
    },
    get calls() {
      return calls;
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await listening.close();
    },
  };
}
