// Batches over XML-RPC (a server registered with batchSize > 1) against the real stacks of
// the interop matrix: system.multicall is served by some libraries themselves and not by
// others. Where it is served, each article of one multicall gets exactly the answer a call
// of its own gets; where it is not, the whole call is one fault, and the hint says what to
// do. Called through the annotator client, the code path dispatch and the setup check use.
import { connect } from 'node:net';
import { Agent } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { textAsSent } from '../../src/articles/input.ts';
import { AnnotatorClient } from '../../src/dispatch/annotators/client.ts';
import { judgeCall } from '../../src/dispatch/judge.ts';
import { AnswerReader } from '../../src/dispatch/answer-reader.ts';
import { STACKS, type RunningStack } from './stacks.ts';

/** Whether the library serves system.multicall without being asked (as the stacks' servers are written). */
const SERVES_MULTICALL: Record<string, boolean> = {
  // Written with no_default: RPC::XML's own system.* methods, multicall among them, are off.
  'RPC::XML': false,
  Frontier: false,
  'XMLRPC::Lite': false,
  // XMLRPC::Server serves it only after add_multicall.
  'ruby-xmlrpc': false,
  'xmlrpc-c': true,
  // SimpleXMLRPCServer serves it only after register_multicall_functions (test/dispatch/batches.test.ts has one that does).
  Python: false,
};

/** Resolves once something accepts connections at the URL's port (a server may print its ready line just before it listens). */
async function listening(url: string): Promise<void> {
  const { hostname, port } = new URL(url);
  for (let tries = 0; ; tries++) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(Number(port), hostname, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (tries > 200) throw new Error(`nothing listens at ${url}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const TEXTS = [
  'BRCA1 interacts with p53 in yeast.',
  'The p53 protein binds BRCA1 (P38398).',
  'Nothing here at all; then Müller and p53.',
].map((t) => textAsSent(t));

const reader = new AnswerReader();
const client = new AnnotatorClient({ answers: reader, maxAnswerBytes: 1 << 20 });
const dispatcher = new Agent();
const running: RunningStack[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  await reader.close();
});

const articles = TEXTS.map((text, k) => ({ id: `m${k}`, organiserId: `m${k}`, text, given: '' }));
const contexts = TEXTS.map((text) => ({ tasks: ['ACT' as const, 'MENTION' as const], text }));

describe.each(STACKS.filter((s) => s.name in SERVES_MULTICALL))('system.multicall with $name ($library)', (stack) => {
  it(
    SERVES_MULTICALL[stack.name] ? 'answers each article as a call of its own would' : 'is one fault for the whole call, with the hint',
    async () => {
      const server = await stack.start();
      running.push(server);
      await listening(server.url);
      const base = { url: server.url, method: 'Annotator.getAnnotation', tasks: ['ACT' as const, 'MENTION' as const], sendMetadata: false };
      const batch = await client.callBatch({ ...base, batchSize: 3 }, articles, contexts, { deadlineMs: 20_000, dispatcher });
      if (SERVES_MULTICALL[stack.name]) {
        const alone = await Promise.all(articles.map((a, k) => client.call(base, a, contexts[k], { deadlineMs: 20_000, dispatcher })));
        expect(alone.every((o) => o.ok)).toBe(true);
        batch.forEach((o, k) => {
          expect(o.ok, o.ok ? '' : o.detail).toBe(true);
          if (o.ok && alone[k].ok) expect(o.value.result).toBe((alone[k] as { value: { result: string } }).value.result);
        });
      } else {
        for (const o of batch) {
          expect(o.ok).toBe(false);
          const verdict = judgeCall(o, { ...base, batchSize: 3, protocol: 'xmlrpc' });
          expect(verdict.outcome).toBe('fault');
          if (verdict.outcome !== 'ok')
            expect(verdict.detail).toMatch(
              /system\.multicall; serve it \(Python: server\.register_multicall_functions\(\)\), or register without batchSize/,
            );
        }
      }
    },
    60_000,
  );
});
