// PubAnnotation answers in the forms real servers send, over HTTP on loopback, judged as
// dispatch judges them (`metaserver check-server` sends its hard articles): a multi-track
// answer with an untyped denotation and modifications is valid, with each dropped part
// named; an answer whose text came back with CR LF is invalid, the error saying CR is why.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheckServerCommand } from '../../src/cli/check-server.ts';
import { pubAnnotationOf } from '../../src/sample/protocols.ts';
import { listenOnLoopback, type OnLoopback } from '../support/loopback.ts';

type Answer = (text: string) => unknown;

/** The sample annotator's denotations split into two projects' tracks, the second's first one untyped, with a modification. */
const multiTrack: Answer = (text) => {
  const doc = pubAnnotationOf(text, {}) as { denotations: Array<Record<string, unknown>>; attributes: unknown[] };
  const [first, ...rest] = doc.denotations;
  return {
    text,
    tracks: [
      { project: 'sample', denotations: rest, attributes: doc.attributes },
      {
        project: 'dictionary',
        denotations: first ? [{ ...first, id: 'D1', obj: null }] : [],
        modifications: first ? [{ id: 'M1', pred: 'Speculation', obj: 'D1' }] : [],
      },
    ],
  };
};
/** The server's own copy of the text, with CR LF line ends. */
const withCrLf: Answer = (text) => ({ ...(pubAnnotationOf(text, {}) as object), text: text.replace(/\n/g, '\r\n') });

async function serve(answer: Answer): Promise<OnLoopback & { url: string }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { text } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { text: string };
      const body = Buffer.from(JSON.stringify(answer(text)));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    });
  });
  const loopback = await listenOnLoopback(server);
  return { ...loopback, url: `http://127.0.0.1:${loopback.port}/` };
}

async function check(url: string): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const code = await runCheckServerCommand([url, '--protocol', 'pubannotation'], (line) => lines.push(line));
  return { code, out: lines.join('\n') };
}

const servers: Array<OnLoopback & { url: string }> = [];
beforeAll(async () => {
  servers.push(await serve(multiTrack), await serve(withCrLf));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe('PubAnnotation answers over HTTP', () => {
  it('a multi-track answer with an untyped denotation is valid for every article; the untyped one and the modification are named', async () => {
    const { code, out } = await check(servers[0].url);
    expect(out).toMatch(/^7 of 7 answers valid/m);
    expect(out).toMatch(
      /warning: tracks\[1\]\.denotations\[0\]\.obj: 1 denotation without a type \("obj" null or absent: tracks\[1\]\.denotations\[0\]\) kept as untyped mentions/,
    );
    expect(out).toMatch(/warning: tracks\[1\]\.modifications: 1 modification in tracks\[1\] \(project "dictionary"\) ignored/);
    expect(code).toBe(0);
  });

  it('text sent back with CR LF: invalid where the article has line ends, the error naming CR as the only difference', async () => {
    const { code, out } = await check(servers[1].url);
    expect(out).toMatch(/^INVALID /m);
    expect(out).toMatch(
      /- text: the answer's text has \d+ carriage returns? \(CR\) and the text sent has none: the carriage returns are the only difference/,
    );
    expect(code).toBe(1);
  });
});
