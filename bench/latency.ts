// End-to-end latency of one on-demand article through the meta-server and the TypeScript
// sample server, one article at a time, next to a direct XML-RPC call to the same server
// (the floor) measured in the same run.
//   node --import tsx bench/latency.ts [articles=50]
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import { openPglite } from '../src/db/pglite.ts';
import { createLogger } from '../src/log.ts';
import { createRuntime } from '../src/runtime.ts';
import { startSampleServer } from '../src/sample/server.ts';
import { callXmlRpc } from '../src/xmlrpc/client.ts';
import { encodeMethodCall } from '../src/xmlrpc/codec.ts';

const N = Number(process.argv[2] ?? 50);
const ADMIN = 'bench-admin-token';
const text = (i: number) => `Article ${i}: 𝛼-synuclein (P37840) interacts with BRCA1 (P38398) and binds TP53 in yeast. `.repeat(20);

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

const config = loadConfig(process.env, { adminToken: ADMIN, logLevel: 'warn', queuePrefix: `bench${Date.now()}`, submitRateLimitPerMinute: 1_000_000 });
const db = await openPglite();
await migrate(db);
const runtime = await createRuntime({ config, log: createLogger(config), db, api: true, workers: true });
const app = runtime.app!;
const sample = await startSampleServer({ port: 0 });
const call = async (method: string, url: string, body?: unknown, token?: string) => {
  const res = await app.inject({ method: method as 'GET', url, payload: body as object, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.statusCode, body: res.json() };
};

const team = (await call('POST', '/api/teams', { name: 'bench', contact: 'b@example.org' })).body;
const server = (await call('POST', '/api/challenges/live/servers', { name: 'sample', url: sample.url, tasks: ['ACT', 'INT', 'IPT', 'MENTION'] }, team.token)).body;
await call('POST', `/api/servers/${server.id}/start`, undefined, team.token);

const direct: number[] = [];
for (let i = 0; i < N; i++) {
  const t0 = performance.now();
  const out = await callXmlRpc({ url: sample.url, body: encodeMethodCall('Annotator.getAnnotation', [text(i)]), deadlineMs: 10_000, maxResponseBytes: 1 << 24 });
  if (!out.ok) throw new Error(out.detail);
  direct.push(performance.now() - t0);
}

const endToEnd: number[] = [];
for (let i = 0; i < N; i++) {
  const t0 = performance.now();
  const submitted = await call('POST', '/api/articles', { text: text(i) });
  if (submitted.status !== 202) throw new Error(`submission refused: ${JSON.stringify(submitted.body)}`);
  const { id } = submitted.body;
  for (;;) {
    const res = await call('GET', `/api/articles/${id}`);
    if (res.status === 200) break;
    await new Promise((r) => setImmediate(r));
  }
  endToEnd.push(performance.now() - t0);
}
const stored = await db.query<{ ms: number }>(
  `select extract(epoch from (an.stored_at - ar.created_at)) * 1000 as ms from answers an join articles ar on ar.id = an.article_id`,
);
const storeLatency = stored.map((r) => Number(r.ms));

console.log(`machine: ${cpus()[0]?.model} × ${cpus().length}, Node ${process.version}`);
console.log(`articles: ${N}, ${Buffer.byteLength(text(0))} bytes each, one at a time, PGlite in memory`);
console.log(`direct XML-RPC call (floor):      p50 ${pct(direct, 50).toFixed(1)} ms  p95 ${pct(direct, 95).toFixed(1)} ms`);
console.log(`submit → answer stored (DB clock): p50 ${pct(storeLatency, 50).toFixed(1)} ms  p95 ${pct(storeLatency, 95).toFixed(1)} ms`);
console.log(`submit → GET says done (HTTP):     p50 ${pct(endToEnd, 50).toFixed(1)} ms  p95 ${pct(endToEnd, 95).toFixed(1)} ms`);
console.log(`ratio end-to-end / direct (p50):   ${(pct(endToEnd, 50) / pct(direct, 50)).toFixed(1)}×`);

await runtime.close();
await db.close();
await sample.close();
process.exit(0);
