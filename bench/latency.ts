// End-to-end latency of one on-demand article through the meta-server and the TypeScript
// sample server, one article at a time, next to a direct XML-RPC call to the same server
// (the floor) measured in the same run. PGlite by default, PostgreSQL with DATABASE_URL.
//   node --import tsx bench/latency.ts [articles=50]
import { performance } from 'node:perf_hooks';
import { startSampleServer } from '../src/sample/server.ts';
import { callXmlRpc } from '../src/dispatch/annotators/xmlrpc-call.ts';
import { encodeMethodCall } from '../src/xmlrpc/codec.ts';
import { articleText, machine, pct, startBench } from './support/harness.ts';

const N = Number(process.argv[2] ?? 50);
const BYTES = 1800;
const text = (i: number) => articleText(i, BYTES);

const bench = await startBench();
const sample = await startSampleServer({ port: 0 });
try {
  const team = (await bench.call('POST', '/api/teams', { name: 'latency', contact: 'b@example.org' })).body;
  const server = (
    await bench.call(
      'POST',
      '/api/challenges/live/servers',
      { name: 'sample', url: sample.url, tasks: ['ACT', 'INT', 'IPT', 'MENTION'] },
      team.token,
    )
  ).body;
  await bench.call('POST', `/api/servers/${server.id}/start`, undefined, team.token);

  const direct: number[] = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    const out = await callXmlRpc({
      url: sample.url,
      body: encodeMethodCall('Annotator.getAnnotation', [text(i)]),
      deadlineMs: 10_000,
      maxResponseBytes: 1 << 24,
    });
    if (!out.ok) throw new Error(out.detail);
    direct.push(performance.now() - t0);
  }

  const endToEnd: number[] = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    const submitted = await bench.call('POST', '/api/articles', { text: text(i) });
    if (submitted.status !== 202) throw new Error(`submission refused: ${JSON.stringify(submitted.body)}`);
    while ((await bench.call('GET', `/api/articles/${submitted.body.id}?text=false`)).status !== 200) {
      await new Promise((r) => setImmediate(r));
    }
    endToEnd.push(performance.now() - t0);
  }
  const stored = (
    await bench.database.db.query<{ ms: number }>(
      'select extract(epoch from (an.stored_at - ar.created_at)) * 1000 as ms from answers an join articles ar on ar.id = an.article_id',
    )
  ).map((r) => Number(r.ms));

  const f = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(1)} ms  p95 ${pct(xs, 95).toFixed(1)} ms`;
  console.log(machine());
  console.log(`articles: ${N}, ${BYTES} bytes each, one at a time, ${bench.database.kind}`);
  console.log(`direct XML-RPC call (floor):       ${f(direct)}`);
  console.log(`submit → answer stored (DB clock): ${f(stored)}`);
  console.log(`submit → GET says done (HTTP):     ${f(endToEnd)}`);
  console.log(`ratio end-to-end / direct (p50):   ${(pct(endToEnd, 50) / pct(direct, 50)).toFixed(1)}×`);
} finally {
  await bench.stop();
  await sample.close();
}
process.exit(0);
