// CPU per call of the annotator client (dispatch/annotators/client.ts) — the request body,
// the HTTP exchange, decoding and validating the answer — one call at a time against an
// instant loopback server, for each synchronous protocol whose answer the instant server
// can give (XML-RPC, JSON). CPU time rather than wall time: on a shared machine it moves
// far less with the load. The whole dispatch path (queue, database) is bench/dispatch.ts.
//   node --import tsx bench/annotator-client.ts [calls=3000]
import { AnnotatorClient } from '../src/dispatch/annotators/client.ts';
import { createServerAgent } from '../src/dispatch/annotators/http-call.ts';
import { AnswerReader } from '../src/dispatch/answer-reader.ts';
import { RequestBodies } from '../src/dispatch/request-body.ts';
import { startInstantServer } from './support/instant-server.ts';

const CALLS = Number(process.argv[2] ?? 3000);
const TEXT = 'SNCA (P37840) interacts with BRCA1 (P38398). '.repeat(2000); // ~90 KB
const TASKS = ['ACT', 'INT', 'IPT'] as const;

async function measure(protocol: 'xmlrpc' | 'json'): Promise<number> {
  const instant = await startInstantServer({ protocol });
  const answers = new AnswerReader();
  const agent = createServerAgent({ connections: 1 });
  const client = new AnnotatorClient({ answers, maxAnswerBytes: 10_000_000, bodies: new RequestBodies() });
  const server = { url: instant.url(1), method: 'Annotator.getAnnotation', tasks: [...TASKS], sendMetadata: false, protocol };
  const context = { tasks: [...TASKS], text: TEXT, given: '' };
  const call = async (i: number): Promise<void> => {
    const outcome = await client.call(server, { id: `a${i % 50}`, organiserId: null, text: TEXT, given: '' }, context, {
      deadlineMs: 10_000,
      dispatcher: agent,
    });
    if (!outcome.ok) throw new Error(`call failed: ${outcome.kind}: ${outcome.detail}`);
  };
  try {
    for (let i = 0; i < 300; i++) await call(i); // warm the JIT and the kept bodies
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < CALLS; i++) await call(i);
    const cpu = process.cpuUsage(cpu0);
    return (cpu.user + cpu.system) / CALLS;
  } finally {
    await Promise.all([instant.close(), answers.close(), agent.close()]);
  }
}

for (const protocol of ['xmlrpc', 'json'] as const) {
  console.log(
    `${protocol.padEnd(7)} ${(await measure(protocol)).toFixed(1)} µs CPU per call (${CALLS} calls, ${Math.round(Buffer.byteLength(TEXT) / 1024)} KB article, ACT/INT/IPT answer)`,
  );
}
