// Test doubles for the on-demand tests: an annotation server that disagrees with the
// samples (and answers late), and a loopback receiver for completion callbacks.
import { createServer, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { XmlRpcValue } from '../../src/xmlrpc/codec.ts';

export const DISAGREEING_DELAY_MS = 1500;

const cpIndex = (text: string, word: string) => Array.from(text.slice(0, text.indexOf(word))).length;

/**
 * Not relevant; INT P04637 then P12345; one pair; the first "BRCA1" (as the samples) and
 * the word "protein" (which the samples never tag). Empty lists for texts without them
 * (the registration check's sample article).
 */
export async function disagreeingAnswer(text: string): Promise<XmlRpcValue> {
  await new Promise((r) => setTimeout(r, text.includes('P38398') ? DISAGREEING_DELAY_MS : 0));
  const mentions: XmlRpcValue[] = [];
  if (text.includes('BRCA1')) mentions.push({ offset: cpIndex(text, 'BRCA1'), mention: 'BRCA1', type: 'protein', confidence: 0.7 });
  if (text.includes('protein')) mentions.push({ offset: cpIndex(text, 'protein'), mention: 'protein', type: 'protein', confidence: 0.2 });
  return {
    interaction: [false, 0.9],
    normalizations: [
      { dbid: 'P04637', dbname: 'UniProt', rank: 1, confidence: 0.8 },
      { dbid: 'P12345', dbname: 'UniProt', rank: 2, confidence: 0.4 },
    ],
    pairs: [{ a: 'P12345', b: 'P04637', rank: 1, confidence: 0.5 }],
    mentions,
  };
}

export interface Receiver {
  url: string;
  /** Parsed JSON bodies of the POSTs answered 2xx, in arrival order. */
  bodies: any[];
  /** Every POST, whatever was answered. */
  requests: number;
  close(): Promise<void>;
}

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Answers the first `failures` POSTs with 503, the rest with 204. */
export async function startReceiver(failures = 0): Promise<Receiver> {
  const sockets = new Set<Socket>();
  const state = { bodies: [] as any[], requests: 0 };
  const server = createServer((req, res) => {
    read(req).then(
      (body) => {
        state.requests += 1;
        if (state.requests <= failures) {
          res.writeHead(503).end('not now');
          return;
        }
        state.bodies.push(JSON.parse(body));
        res.writeHead(204).end();
      },
      () => res.destroy(),
    );
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/callback`,
    get bodies() {
      return state.bodies;
    },
    get requests() {
      return state.requests;
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}
