// In-flight capacity: servers that answer only after a long delay, so that every request of
// the run is held open at once (100 articles × 100 servers = 10,000 by default). Prints the
// process's RSS, heap and event-loop delay while they are held, and checks they all complete.
// The floor, measured in the same run: the same calls made directly (no queue, no database)
// in a process of its own, with shared bodies.
//   node --import tsx bench/inflight.ts [articles=100] [servers=100] [delaySeconds=20]
import { execFileSync, fork } from 'node:child_process';
import { writeHeapSnapshot } from 'node:v8';
import { dirname, join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { fmt, machine, setupChallenge, startAll, startBench, waitDeliveries } from './support/harness.ts';

const ARTICLES = Number(process.argv[2] ?? 100);
const SERVERS = Number(process.argv[3] ?? 100);
const DELAY_S = Number(process.argv[4] ?? 20);
const TOTAL = ARTICLES * SERVERS;
const here = dirname(fileURLToPath(import.meta.url));
const MB = (b: number) => `${fmt(b / 2 ** 20, 0)} MB`;

// The slow server lives in its own process: the memory measured here is the meta-server's.
const child = fork(join(here, 'support', 'inflight-children.ts'), ['server'], { execArgv: ['--import', 'tsx'], env: { ...process.env, DELAY_MS: String(DELAY_S * 1000) } });
const baseUrl = await new Promise<string>((resolve) => child.once('message', (m: { url: string }) => resolve(m.url)));
const stats = () =>
  new Promise<{ requests: number; inFlight: number; maxInFlight: number[] }>((resolve) => {
    child.once('message', resolve as never);
    child.send({ stats: true });
  });

console.log(machine());
const floorOut = execFileSync(process.execPath, ['--import', 'tsx', join(here, 'support', 'inflight-children.ts'), 'floor', baseUrl, String(TOTAL), String(ARTICLES), String(DELAY_S * 1000)], { encoding: 'utf8', maxBuffer: 1 << 20 });
const floor = JSON.parse(floorOut.trim().split('\n').pop()!) as { rssBefore: number; rssHeld: number; heapHeld: number; ok: number };

const bench = await startBench({ config: { lockDurationMs: Math.max(30_000, DELAY_S * 3000) } });
console.log(`database: ${bench.database.kind}; ${ARTICLES} articles of 100 KB × ${SERVERS} servers = ${TOTAL} requests, answered after ${DELAY_S} s`);
const setup = await setupChallenge(bench, { servers: SERVERS, articles: ARTICLES, concurrency: Math.min(100, ARTICLES), urls: (k) => `${baseUrl}${k}`, timeoutSeconds: DELAY_S * 4 });
global.gc?.();
const idle = process.memoryUsage();

const t0 = performance.now();
await startAll(bench, setup);
const loop = monitorEventLoopDelay({ resolution: 10 });
let maxRss = 0;
for (;;) {
  const s = await stats();
  maxRss = Math.max(maxRss, process.memoryUsage().rss);
  if (s.inFlight >= TOTAL) break;
  if (performance.now() - t0 > DELAY_S * 1000 * 0.8) {
    console.log(`only ${s.inFlight} of ${TOTAL} requests in flight after ${fmt((performance.now() - t0) / 1000)} s`);
    break;
  }
  await new Promise((r) => setTimeout(r, 250));
}
const allInFlight = (performance.now() - t0) / 1000;
loop.enable(); // while they are held: what is left of the loop's time for the API
await new Promise((r) => setTimeout(r, Math.max(1000, DELAY_S * 1000 - (performance.now() - t0) - 2000)));
loop.disable();
const held = process.memoryUsage();
// BENCH_HEAP_SNAPSHOT=file: a heap snapshot while the requests are held (what each one costs).
if (process.env.BENCH_HEAP_SNAPSHOT) writeHeapSnapshot(process.env.BENCH_HEAP_SNAPSHOT);
maxRss = Math.max(maxRss, held.rss);
await waitDeliveries(bench.database.db, setup.serverIds, TOTAL, DELAY_S * 8000 + 120_000, 250);
const elapsed = (performance.now() - t0) / 1000;
const s = await stats();
const answers = Number((await bench.database.db.query<{ n: string }>(`select count(*) as n from answers where server_id = any($1::int[])`, [setup.serverIds]))[0]!.n);

console.log(`floor  direct calls held (own process, shared bodies): RSS ${MB(floor.rssHeld)} (idle ${MB(floor.rssBefore)}, +${fmt((floor.rssHeld - floor.rssBefore) / TOTAL / 1024, 1)} KB/request), heap ${MB(floor.heapHeld)}; ${floor.ok} answered`);
console.log(`all ${TOTAL} in flight after ${fmt(allInFlight)} s; while held: RSS ${MB(held.rss)} (max ${MB(maxRss)}; idle runtime ${MB(idle.rss)}, +${fmt((held.rss - idle.rss) / TOTAL / 1024, 1)} KB/request), heap ${MB(held.heapUsed)}`);
console.log(`  ratio RSS to the floor: ${fmt(held.rss / floor.rssHeld)}×; event-loop delay p50 ${fmt(loop.percentile(50) / 1e6)} ms  p99 ${fmt(loop.percentile(99) / 1e6)} ms  max ${fmt(loop.max / 1e6)} ms`);
console.log(`  completed: ${answers} answers of ${TOTAL} in ${fmt(elapsed)} s; requests seen by the servers ${s.requests - SERVERS - floor.ok} (+${SERVERS} setup checks, +${floor.ok} floor calls); most in flight at one server ${Math.max(...s.maxInFlight)}`);
if (answers !== TOTAL) process.exitCode = 1;
child.send({ close: true });
await bench.stop();
process.exit();
