// One team cannot stall the others: a valid answer of 100,000 mentions (~17 MB) is read —
// decoded and validated — without holding the event loop. An event-loop probe (perf_hooks'
// delay histogram at 5 ms resolution) runs while the answer is read. The bound is generous
// and checked against the same answer read on the main thread, in the same test: that takes
// the better part of a second here (several seconds on a loaded machine), and reading it
// through the answer reader must stall the loop far less than that.
import { createServer, type Server } from 'node:http';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerReader } from '../../src/dispatch/answer-reader.ts';
import { readAnswerNow, type AnswerContext } from '../../src/dispatch/decode-and-validate.ts';
import { encodeMethodResponse } from '../../src/xmlrpc/codec.ts';
import { bigMentionAnswer } from '../support/big-answer.ts';

/** No release indexes: accession patterns only. */
const NO_INDEXES = { accessions: null, lookups: {} };
import { startTestMetaserver, testDatabaseKinds, waitFor, type TestMetaserver } from '../support/runtime.ts';

/** The longest stall of the event loop while fn runs, in ms. */
async function longestStall<T>(fn: () => Promise<T>): Promise<{ stallMs: number; value: T }> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const value = await fn();
  await new Promise((r) => setTimeout(r, 20));
  histogram.disable();
  return { stallMs: histogram.max / 1e6, value };
}

const STALL_BOUND_MS = 250;
const big = bigMentionAnswer(100_000);
const context: AnswerContext = { tasks: ['MENTION'], text: big.text };

describe('a 100,000-mention answer', () => {
  it(`is read with the event loop never held for more than ${STALL_BOUND_MS} ms, and far less than reading it on the main thread holds it`, async () => {
    expect(big.body.length).toBeGreaterThan(15_000_000);
    const reader = new AnswerReader({ threads: 1 });
    try {
      const t0 = performance.now();
      const inline = readAnswerNow(big.body, undefined, context, NO_INDEXES); // the old way: all of it on the main thread
      const inlineMs = performance.now() - t0;

      const { stallMs, value } = await longestStall(() => reader.read(Buffer.from(big.body), undefined, context));
      expect(value).toEqual(inline); // the same outcome, byte for byte
      if (value.kind !== 'value') throw new Error('expected a value');
      expect(value.value.errorCount).toBe(0);
      expect(JSON.parse(value.value.result).MENTION).toHaveLength(100_000);
      expect(stallMs, `main thread ${inlineMs.toFixed(0)} ms`).toBeLessThan(STALL_BOUND_MS);
      expect(stallMs, `main thread ${inlineMs.toFixed(0)} ms`).toBeLessThan(inlineMs / 3);
    } finally {
      await reader.close();
    }
  }, 60_000);

  it("a broken big answer is a protocol failure with the parser's message, as on the main thread", async () => {
    const reader = new AnswerReader({ threads: 1 });
    try {
      const cut = big.body.subarray(0, big.body.length - 100);
      await expect(reader.read(Buffer.from(cut), undefined, context)).rejects.toMatchObject({ name: 'XmlRpcProtocolError' });
      let inlineMessage = '';
      try {
        readAnswerNow(cut, undefined, context, NO_INDEXES);
      } catch (err) {
        inlineMessage = (err as Error).message;
      }
      await expect(reader.read(Buffer.from(cut), undefined, context)).rejects.toThrow(inlineMessage);
    } finally {
      await reader.close();
    }
  }, 60_000);
});

describe.each(testDatabaseKinds())('dispatching a 100,000-mention answer (%s)', (databaseKind) => {
  let ms: TestMetaserver;
  let annotator: Server;
  let url: string;

  beforeAll(async () => {
    // A real HTTP server with the answer encoded beforehand: sending it costs this process nothing.
    const small = Buffer.from(encodeMethodResponse({ mentions: [] }));
    annotator = createServer((req, res) => {
      let size = 0;
      req.on('data', (c: Buffer) => (size += c.length));
      req.on('end', () => {
        const body = size > 100_000 ? big.body : small; // the setup check's sample article gets no mentions
        res.writeHead(200, { 'content-type': 'text/xml', 'content-length': body.length }).end(body);
      });
    });
    await new Promise<void>((r) => annotator.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(annotator.address() as { port: number }).port}/RPC2`;
    ms = await startTestMetaserver({ databaseKind });
  });
  afterAll(async () => {
    await ms?.stop();
    await new Promise((r) => annotator?.close(r));
  });

  it('stores it exactly as sent while the event loop keeps answering', async () => {
    await ms.challenge('big', { name: 'Big', tasks: ['MENTION'], timeoutSeconds: 60 });
    await ms.articles('big', [{ id: 'B1', text: big.text }]);
    const token = (await ms.team('Big team')).token;
    const server = await ms.server('big', token, { name: 'big', url, tasks: ['MENTION'] });
    expect(server.check.ok).toBe(true);
    const { stallMs } = await longestStall(async () => {
      await ms.startServer(server.id, token);
      await waitFor(
        'the answer stored',
        async () => ((await ms.database.db.query(`select 1 from answers`)).length === 1 ? true : undefined),
        60_000,
      );
    });
    const stored = await ms.database.db.query<{ n: number }>(`select jsonb_array_length(result->'MENTION') as n from answers`);
    expect(Number(stored[0].n)).toBe(100_000);
    if (databaseKind === 'postgres') {
      expect(stallMs).toBeLessThan(STALL_BOUND_MS);
      return;
    }
    // Decoding and validating are off the loop (held to by the reader's own test above and by
    // PostgreSQL's run); what remains is storing 8 MB of JSON, which embedded PGlite does on
    // this thread, at a cost that grows with the machine's load as decoding's does. So the
    // bound is 2 s or, on a machine loaded so that decoding the same answer on this thread
    // takes longer, three times that, measured now (quiet: stall ~0.8 s, decoding ~0.8 s).
    const t0 = performance.now();
    readAnswerNow(big.body, undefined, context, NO_INDEXES);
    const inlineMs = performance.now() - t0;
    expect(stallMs, `decoding on this thread ${inlineMs.toFixed(0)} ms`).toBeLessThan(Math.max(2000, 3 * inlineMs));
  }, 120_000);
});
