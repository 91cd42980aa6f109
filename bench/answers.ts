// Reading big answers: decode + validate of a MENTION answer (100,000 mentions, ~17 MB by
// default), in MB/s of XML, next to a bare SAX parse of the same bytes with saxes (the floor:
// the parser the decoder is built on, doing nothing with what it reads), measured in the same
// run. Then what the event loop sees: the longest stall while the answer is read on the main
// thread (as before) and through the answer reader (a reading thread), from a 1 ms timer probe
// and perf_hooks' event-loop delay histogram.
//   node --import tsx bench/answers.ts [mentions=100000] [rounds=5]
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { SaxesParser } from 'saxes';
import { AnswerReader, INLINE_BELOW_BYTES } from '../src/dispatch/answer-reader.ts';
import { readAnswerNow, type AnswerContext } from '../src/dispatch/decode-and-validate.ts';
import { bigMentionAnswer } from '../test/support/big-answer.ts';

/** No release indexes: accession patterns only. */
const NO_INDEXES = { accessions: null, lookups: {} };
import { fmt, machine, pct } from './support/harness.ts';

const mentions = Number(process.argv[2] ?? 100_000);
const rounds = Number(process.argv[3] ?? 5);
const { text, body } = bigMentionAnswer(mentions);
const context: AnswerContext = { tasks: ['MENTION'], text };
const mb = body.length / 1e6;

function bareSax(bytes: Buffer): number {
  const parser = new SaxesParser();
  let elements = 0;
  parser.on('opentag', () => elements++);
  parser.on('text', () => {});
  parser.write(bytes.toString('utf8')).close();
  return elements;
}

/** Runs fn while a 1 ms timer and the event-loop histogram watch; returns fn's time and the longest stall. */
async function probed<T>(fn: () => Promise<T>): Promise<{ ms: number; stallMs: number; p99Ms: number; value: T }> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  const t0 = performance.now();
  const value = await fn();
  const ms = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 5));
  clearInterval(timer);
  histogram.disable();
  return { ms, stallMs: Math.max(longest, histogram.max / 1e6), p99Ms: histogram.percentile(99) / 1e6, value };
}

console.log(machine());
console.log(
  `answer: ${mentions} mentions, ${fmt(mb, 1)} MB of XML-RPC; article ${text.length} characters; ${rounds} rounds, median (best)`,
);

const sax: number[] = [];
const inline: number[] = [];
for (let r = 0; r < rounds; r++) {
  let t0 = performance.now();
  bareSax(body);
  sax.push(performance.now() - t0);
  t0 = performance.now();
  const read = readAnswerNow(body, undefined, context, NO_INDEXES);
  inline.push(performance.now() - t0);
  if (read.kind !== 'value' || read.value.errorCount !== 0) throw new Error('the answer should be valid');
}
const rate = (ms: number[]) => `${fmt(mb / (pct(ms, 50) / 1000), 1)} MB/s (${fmt(mb / (Math.min(...ms) / 1000), 1)})`;
console.log(`bare SAX parse (saxes):            ${fmt(pct(sax, 50), 0)} ms, ${rate(sax)}`);
console.log(
  `decode + validate (main thread):   ${fmt(pct(inline, 50), 0)} ms, ${rate(inline)}; ${fmt(pct(sax, 50) / pct(inline, 50), 2)}x the bare parse's rate`,
);

const reader = new AnswerReader({ threads: 1 });
await reader.read(Buffer.from(body), undefined, context); // start the thread and warm it up (the reader moves the bytes it is given)
const stalls = { inline: [] as number[], thread: [] as number[], threadMs: [] as number[], threadP99: [] as number[] };
for (let r = 0; r < rounds; r++) {
  const before = await probed(async () => readAnswerNow(body, undefined, context, NO_INDEXES));
  stalls.inline.push(before.stallMs);
  const copy = Buffer.from(body); // the reader moves the bytes it is given
  const after = await probed(() => reader.read(copy, undefined, context));
  stalls.thread.push(after.stallMs);
  stalls.threadMs.push(after.ms);
  stalls.threadP99.push(after.p99Ms);
}
await reader.close();
console.log(
  `decode + validate (reading thread): ${fmt(pct(stalls.threadMs, 50), 0)} ms from hand-over to result, ${rate(stalls.threadMs)}`,
);
console.log(
  `longest event-loop stall while the answer is read: main thread ${fmt(pct(stalls.inline, 50), 0)} ms (best ${fmt(Math.min(...stalls.inline), 0)}), ` +
    `reading thread ${fmt(pct(stalls.thread, 50), 1)} ms (worst ${fmt(Math.max(...stalls.thread), 1)}; p99 of the delay ${fmt(pct(stalls.threadP99, 50), 1)} ms)`,
);
console.log(
  `answers under ${INLINE_BELOW_BYTES / 1024} KiB are read on the main thread: at the rate above, at most ${fmt((INLINE_BELOW_BYTES / 1e6 / (mb / (pct(inline, 50) / 1000))) * 1000, 1)} ms each`,
);
