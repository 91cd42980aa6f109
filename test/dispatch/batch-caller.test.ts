// How the batch caller groups the articles of one server into calls, without timing: a
// loopback JSON server holds its first call open until the test lets it go, so what waits
// meanwhile is known exactly. Also what each article gets from a batch answer: its own
// answer, its own fault, or — for a batch answer holding the wrong number of answers —
// the call's protocol failure.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnnotatorClient } from '../../src/dispatch/annotators/client.ts';
import { AnswerReader } from '../../src/dispatch/answer-reader.ts';
import { BatchCaller } from '../../src/dispatch/batch-caller.ts';
import type { AnswerContext } from '../../src/dispatch/decode-and-validate.ts';

type Reply = (texts: string[]) => unknown;

let http: Server;
let url: string;
/** The texts of each request, in order. */
const seen: string[][] = [];
let reply: Reply = () => [];
let gate: Promise<void> = Promise.resolve();

beforeAll(async () => {
  http = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const texts = (JSON.parse(body) as Array<{ text: string }>).map((r) => r.text);
      seen.push(texts);
      void gate.then(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(reply(texts)));
      });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await new Promise((resolve) => http.close(resolve));
});

const reader = new AnswerReader();
const caller = new BatchCaller(new AnnotatorClient({ answers: reader, maxAnswerBytes: 1 << 20 }));
const dispatcher = new Agent();
const server = () => ({ id: 1, url, method: '', tasks: ['ACT' as const], sendMetadata: false, protocol: 'json', batchSize: 4 });
const article = (id: string) => ({ id, organiserId: id, text: `text ${id}`, given: '' });
const context = (id: string): AnswerContext => ({ tasks: ['ACT'], text: `text ${id}` });
/** An ACT answer whose confidence tells which article it answers. */
const actFor = (text: string) => ({ interaction: [true, Number(text.slice(5)) / 100] });

function send(ids: string[]) {
  return ids.map((id) => caller.call(server(), article(id), context(id), { deadlineMs: 5000, dispatcher, slots: 1 }));
}

describe('the batch caller', () => {
  it('sends a lone article at once, then everything that waited meanwhile, batchSize at a time, each getting its own answer', async () => {
    seen.length = 0;
    reply = (texts) => texts.map(actFor);
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    const first = send(['1']);
    while (seen.length === 0) await new Promise((r) => setImmediate(r)); // the first call reached the server
    const rest = send(['2', '3', '4', '5', '6']);
    open();
    const outcomes = await Promise.all([...first, ...rest]);
    expect(seen).toEqual([['text 1'], ['text 2', 'text 3', 'text 4', 'text 5'], ['text 6']]);
    outcomes.forEach((o, k) => {
      expect(o.ok).toBe(true);
      if (o.ok) if (o.ok) expect(JSON.parse(o.value.result).ACT).toEqual({ relevant: true, confidence: (k + 1) / 100 });
    });
  });

  it("one article's fault in the answer array fails that article alone", async () => {
    seen.length = 0;
    gate = Promise.resolve();
    reply = (texts) => texts.map((t) => (t === 'text 8' ? { error: { code: 7, message: 'no tagger for this one' } } : actFor(t)));
    const outcomes = await Promise.all(send(['7', '8', '9']));
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
    expect(outcomes[1]).toMatchObject({ ok: false, kind: 'fault', faultCode: 7, detail: 'fault 7: no tagger for this one' });
  });

  it('{"error": …} in place of the array is the fault of every article in the call', async () => {
    seen.length = 0;
    reply = () => ({ error: { code: 3, message: 'the tagger is busy' } });
    const outcomes = await Promise.all(send(['12', '13']));
    for (const o of outcomes) expect(o).toMatchObject({ ok: false, kind: 'fault', faultCode: 3, detail: 'fault 3: the tagger is busy' });
  });

  it('an answer array of the wrong length is a protocol failure of every article in the call', async () => {
    seen.length = 0;
    reply = (texts) => texts.slice(1).map(actFor);
    const outcomes = await Promise.all(send(['10', '11']));
    for (const o of outcomes) {
      expect(o).toMatchObject({ ok: false, kind: 'protocol' });
      if (!o.ok) expect(o.detail).toMatch(/holds 1 answer for the 2 articles sent/);
    }
  });
});
