// API latency under load: GET /api/articles/:id and GET /api/servers/:id at a fixed rate
// (autocannon, default 500 requests/s for 10 s each), first with the process idle (the
// floor, same run), then while dispatch runs in the same process (API + workers, instant
// annotation server, 100 KB articles).
//   node --import tsx bench/api.ts [rate=500] [seconds=10] [servers=10] [articles=300]
import { createRequire } from 'node:module';
import { ADMIN, fmt, machine, setupChallenge, startAll, startBench, waitDeliveries } from './support/harness.ts';
import { startInstantServer } from './support/instant-server.ts';

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Cannon = (opts: Record<string, unknown>) => Promise<CannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Cannon;

const RATE = Number(process.argv[2] ?? 500);
const SECONDS = Number(process.argv[3] ?? 10);
const SERVERS = Number(process.argv[4] ?? 10);
const ARTICLES = Number(process.argv[5] ?? 300);

const instant = await startInstantServer();
const bench = await startBench();
const app = bench.runtime.app!;
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
console.log(machine());

// A finished article (every server answered) to read, and the servers of a dispatch run.
const done = await setupChallenge(bench, { servers: 3, articles: 1, concurrency: 1, urls: (k) => instant.url(k) });
await startAll(bench, done);
await waitDeliveries(bench.database.db, done.serverIds, 3, 60_000);
const run = await setupChallenge(bench, { servers: SERVERS, articles: ARTICLES, concurrency: 5, urls: (k) => instant.url(100 + k) });

const routes: Array<[string, string]> = [
  ['GET /api/articles/:id', `/api/articles/${done.articleIds[0]}`],
  ['GET /api/articles/:id?text=false', `/api/articles/${done.articleIds[0]}?text=false`],
  ['GET /api/servers/:id', `/api/servers/${done.serverIds[0]}`],
  ['GET /healthz', '/healthz'],
];

async function load(path: string): Promise<CannonResult> {
  return await autocannon({
    url: `${base}${path}`,
    connections: 20,
    overallRate: RATE,
    duration: SECONDS,
    headers: { authorization: `Bearer ${ADMIN}` },
  });
}

const line = (name: string, r: CannonResult) =>
  `${name.padEnd(36)} ${fmt(r.requests.average, 0).padStart(5)} req/s  p50 ${fmt(r.latency.p50, 1)} ms  p99 ${fmt(r.latency.p99, 1)} ms  max ${fmt(r.latency.max, 0)} ms` +
  (r.non2xx + r.errors + r.timeouts > 0 ? `  (non-2xx ${r.non2xx}, errors ${r.errors}, timeouts ${r.timeouts})` : '');

console.log(`database: ${bench.database.kind}; ${RATE} requests/s for ${SECONDS} s per route, 20 connections`);
console.log('idle (floor, same run):');
const idle = new Map<string, CannonResult>();
for (const [name, path] of routes) {
  const r = await load(path);
  idle.set(name, r);
  console.log(`  ${line(name, r)}`);
}

console.log(`while dispatching ${SERVERS} servers × ${ARTICLES} articles of 100 KB:`);
await startAll(bench, run);
for (const [name, path] of routes) {
  const before = Number((await bench.database.db.query<{ n: string }>(`select count(*) as n from answers where server_id = any($1::int[])`, [run.serverIds]))[0]!.n);
  const r = await load(path);
  const after = Number((await bench.database.db.query<{ n: string }>(`select count(*) as n from answers where server_id = any($1::int[])`, [run.serverIds]))[0]!.n);
  const floorP99 = idle.get(name)!.latency.p99;
  console.log(`  ${line(name, r)}  (idle p99 ×${fmt(r.latency.p99 / Math.max(floorP99, 0.1), 1)}; ${after - before} answers stored meanwhile${after >= SERVERS * ARTICLES ? ', dispatch finished' : ''})`);
}
await app.close();
await bench.stop();
await instant.close();
process.exit();
