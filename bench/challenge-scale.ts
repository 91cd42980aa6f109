// A challenge at BioCreative II.5's scale, as an installation runs it: one `metaserver api`
// and two `metaserver worker` processes on PostgreSQL, 595 articles of 20–120 KB × 20
// servers answering after small random delays, one of them dead (every request's connection
// reset) and one flaky (a tenth of its requests fail: reset, HTTP 500 or an XML-RPC fault).
// Before it, a smaller challenge of the same 20 servers runs to the end and is closed, so the
// glance has a closed challenge to fold and Redis shows what a finished challenge leaves.
// Figures: time to settle every pair, answers per second, resident memory of each process
// (most seen), Redis keys and their memory (MEMORY USAGE summed over the installation's
// prefix) before and after, the database's size, and the organiser's glance
// (GET /fragments/organiser, fetched back to back from this process) p50/p95 during dispatch
// and idle after it — beside the floor, GET /healthz of the same api process fetched between
// glances (what any request gets from that process on this machine at that moment), as a ratio.
//   DATABASE_URL=postgres://… node --import tsx bench/challenge-scale.ts [articles=595] [servers=20] [concurrency=5]
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { ADMIN, fmt, machine, pct, setupChallenge, startAll, startBench, type Bench } from './support/harness.ts';
import { startInstantServer, type Reply } from './support/instant-server.ts';
import { startWorker, type WorkerProcess } from './support/worker-process.ts';
import { databaseBytes, redisFigures, rssMiB } from './support/storage-figures.ts';

if (!process.env.DATABASE_URL) {
  console.error('bench/challenge-scale.ts needs DATABASE_URL (the api and worker processes share one PostgreSQL)');
  process.exit(2);
}
const ARTICLES = Number(process.argv[2] ?? 595);
const SERVERS = Number(process.argv[3] ?? 20);
const CONCURRENCY = Number(process.argv[4] ?? 5);
const WARM_ARTICLES = 30;
const DEAD = 0;
const FLAKY = 1;

/** 20–120 KB, spread evenly over the articles (the same sizes every run). */
const articleBytes = (i: number) => 20_000 + ((i * 7919) % 101) * 1000;

function reply(k: number): Reply {
  const server = k % SERVERS; // the warm-up challenge's servers sit after the measured ones
  const delayMs = 5 + Math.floor(Math.random() * 45);
  if (server === DEAD) return { delayMs: 1, failure: 'reset' };
  if (server === FLAKY && Math.random() < 0.1)
    return { delayMs, failure: (['reset', 'http', 'fault'] as const)[Math.floor(Math.random() * 3)] };
  return { delayMs };
}

async function settled(bench: Bench, serverIds: number[]): Promise<{ settled: number; answers: number }> {
  const rows = await bench.database.db.query<{ settled: string; answers: string }>(
    `select (select count(*) from deliveries where server_id = any($1::int[]) and state in ('done', 'failed')) as settled,
            (select count(*) from answers where server_id = any($1::int[])) as answers`,
    [serverIds],
  );
  return { settled: Number(rows[0].settled), answers: Number(rows[0].answers) };
}

/** One GET, timed (ms); throws on anything but 200. */
async function timedGet(url: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${ADMIN}` } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
  return performance.now() - t0;
}
const glance = (base: string) => timedGet(`${base}/fragments/organiser`);
const floor = (base: string) => timedGet(`${base}/healthz`);

const MiB = (b: number) => fmt(b / 2 ** 20, 1);

const instant = await startInstantServer({ fastBelowBytes: 10_000, reply });
const bench = await startBench({ workers: false });
const redis = new Redis(bench.runtime.redis.url, { maxRetriesPerRequest: null });
const prefix = bench.config.queuePrefix;
console.log(machine());
console.log(
  `database: ${bench.database.kind}; ${SERVERS} servers × ${ARTICLES} articles of 20–120 KB, concurrency ${CONCURRENCY} per server, 3 attempts; ` +
    `servers answer after 5–50 ms, server ${DEAD} resets every connection, server ${FLAKY} fails 10%; one api and two worker processes (from the bundle, log level info)`,
);
const info = { LOG_LEVEL: 'info' };
const processes: Array<{ name: string; w: WorkerProcess; rss: number }> = [];
try {
  const api = await startWorker(bench, { command: 'api', env: info });
  processes.push({ name: 'api', w: api, rss: 0 });
  for (const n of [1, 2]) processes.push({ name: `worker ${n}`, w: await startWorker(bench, { command: 'worker', env: info }), rss: 0 });
  const sample = () => {
    for (const p of processes) p.rss = Math.max(p.rss, rssMiB(p.w.pid));
  };
  const base = api.address!;

  // A finished, closed challenge first (the same number of servers, few articles).
  const warm = await setupChallenge(bench, {
    servers: SERVERS,
    articles: WARM_ARTICLES,
    concurrency: CONCURRENCY,
    urls: (k) => instant.url(SERVERS + k),
    articleBytes,
  });
  await startAll(bench, warm);
  for (;;) {
    if ((await settled(bench, warm.serverIds)).settled >= SERVERS * WARM_ARTICLES) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const closed = await bench.call('PATCH', `/api/challenges/${warm.slug}`, { phase: 'closed' }, ADMIN);
  if (closed.status !== 200) throw new Error(`closing the warm-up challenge: HTTP ${closed.status}`);
  await new Promise((r) => setTimeout(r, 1000)); // jobs removed as they settle, or not at all
  const afterWarm = await redisFigures(redis, prefix);
  console.log(`after a closed ${SERVERS} × ${WARM_ARTICLES} challenge: Redis ${afterWarm.keys} keys, ${MiB(afterWarm.bytes)} MiB`);

  const setup = await setupChallenge(bench, {
    servers: SERVERS,
    articles: ARTICLES,
    concurrency: CONCURRENCY,
    urls: (k) => instant.url(k),
    articleBytes,
  });
  const before = await redisFigures(redis, prefix);
  const dbBefore = await databaseBytes(bench.database.db);
  const total = SERVERS * ARTICLES;
  const t0 = performance.now();
  await startAll(bench, setup);
  const busy: number[] = [];
  const busyFloor: number[] = [];
  let state = { settled: 0, answers: 0 };
  let checked = 0;
  while (state.settled < total) {
    busy.push(await glance(base));
    busyFloor.push(await floor(base));
    sample();
    if (performance.now() - checked > 500) {
      checked = performance.now();
      state = await settled(bench, setup.serverIds);
    }
    if (performance.now() - t0 > 900_000) throw new Error(`only ${state.settled} of ${total} pairs settled in 15 minutes`);
  }
  const elapsed = (performance.now() - t0) / 1000;
  const after = await redisFigures(redis, prefix);
  const dbAfter = await databaseBytes(bench.database.db);
  const idle: number[] = [];
  const idleFloor: number[] = [];
  for (let i = 0; i < 40; i++) {
    idle.push(await glance(base));
    idleFloor.push(await floor(base));
  }
  sample();
  const failed = total - state.answers;
  console.log(
    `settled ${total} pairs in ${fmt(elapsed, 1)} s: ${state.answers} answers (${fmt(state.answers / elapsed, 0)} answers/s), ${failed} failed for good`,
  );
  console.log(`resident memory, most seen: ${processes.map((p) => `${p.name} ${fmt(p.rss, 0)} MiB`).join(', ')}`);
  console.log(
    `Redis (prefix's keys): before dispatch ${before.keys} keys, ${MiB(before.bytes)} MiB; settled ${after.keys} keys, ${MiB(after.bytes)} MiB`,
  );
  console.log(`database: ${MiB(dbBefore)} MiB before dispatch, ${MiB(dbAfter)} MiB settled`);
  const ratio = (xs: number[], fs: number[]) => `×${fmt(pct(xs, 95) / Math.max(pct(fs, 95), 0.1), 1)} the floor's p95`;
  console.log(
    `glance during dispatch: ${busy.length} fetches, p50 ${fmt(pct(busy, 50), 0)} ms, p95 ${fmt(pct(busy, 95), 0)} ms, max ${fmt(Math.max(...busy), 0)} ms; floor (GET /healthz) p50 ${fmt(pct(busyFloor, 50), 0)} ms, p95 ${fmt(pct(busyFloor, 95), 0)} ms; ${ratio(busy, busyFloor)}`,
  );
  console.log(
    `glance idle after:      ${idle.length} fetches, p50 ${fmt(pct(idle, 50), 0)} ms, p95 ${fmt(pct(idle, 95), 0)} ms; floor p50 ${fmt(pct(idleFloor, 50), 0)} ms, p95 ${fmt(pct(idleFloor, 95), 0)} ms; ${ratio(idle, idleFloor)}`,
  );
  console.log(machine());
} finally {
  for (const p of processes) p.w.stop();
  await Promise.all(processes.map((p) => p.w.exited));
  redis.disconnect();
  await bench.stop();
  await instant.close();
}
process.exit();
