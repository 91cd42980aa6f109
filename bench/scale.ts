// Scale-out: the dispatch benchmark with 1, 2 and 4 `metaserver worker` processes sharing
// Redis and PostgreSQL (this process runs the API only). For each: answers per second, how
// the work spread over the processes (their own debug log lines "answer stored", counted
// here — nothing added to the code), whether the per-server concurrency limits held (the
// instant server counts requests in flight per server), and answers per CPU-second of the
// worker processes (/proc/<pid>/stat, from "taking jobs" to the end), against the
// one-process figure of the same run.
// Each round first dispatches a warm-up run (BENCH_WARMUP_ARTICLES per process, default 200)
// through the same processes, so that CPU is measured on compiled code.
//   DATABASE_URL=postgres://… node --import tsx bench/scale.ts [servers=10] [articles=300] [concurrency=5] [processes=1,2,4]
//   BENCH_DELAY_MS=100: the servers answer after 100 ms (the rate capped below saturation)
//   BENCH_WEAK=1: `servers` per process (the same work and rate per process as the single one)
import { performance } from 'node:perf_hooks';
import { fmt, machine, setupChallenge, startAll, startBench, waitDeliveries, type Bench } from './support/harness.ts';
import { cpuSeconds, startWorker } from './support/worker-process.ts';
import { startInstantServer, type InstantServer } from './support/instant-server.ts';

if (!process.env.DATABASE_URL) {
  console.error('bench/scale.ts needs DATABASE_URL (worker processes share one PostgreSQL)');
  process.exit(2);
}
const SERVERS = Number(process.argv[2] ?? 10);
const ARTICLES = Number(process.argv[3] ?? 300);
const CONCURRENCY = Number(process.argv[4] ?? 5);
const PROCESSES = (process.argv[5] ?? '1,2,4').split(',').map(Number);
/** Warm-up articles per worker process (× SERVERS jobs each), dispatched before the measured run. */
const WARMUP = Number(process.env.BENCH_WARMUP_ARTICLES ?? 200);
/**
 * BENCH_WEAK=1: `servers` per process (10 servers with one process, 40 with four), so that
 * every process has the same work at the same rate as the single one — what stays is only
 * what more processes cost by themselves. Default: the same work shared by all processes.
 */
const WEAK = process.env.BENCH_WEAK === '1';
/** The instant server's slots a round uses: its measured servers, then its warm-up servers. */
const MOST_SERVERS = WEAK ? SERVERS * Math.max(...PROCESSES) : SERVERS;
async function round(bench: Bench, instant: InstantServer, processes: number, offset: number) {
  const servers = WEAK ? SERVERS * processes : SERVERS;
  const total = servers * ARTICLES;
  const setup = await setupChallenge(bench, {
    servers,
    articles: ARTICLES,
    concurrency: CONCURRENCY,
    urls: (k) => instant.url(offset + k),
  });
  const workers = await Promise.all(Array.from({ length: processes }, () => startWorker(bench)));
  if (WARMUP > 0) {
    // The same work on other servers and articles first, so that every process has compiled
    // its hot code before the measured run (a process runs its first few thousand jobs
    // partly in V8's interpreter and compiles on helper threads: a cost paid once per
    // process, which would count against more processes, each doing fewer jobs).
    const warm = await setupChallenge(bench, {
      servers: SERVERS,
      articles: WARMUP * processes,
      concurrency: CONCURRENCY,
      urls: (k) => instant.url(offset + MOST_SERVERS + k),
    });
    await startAll(bench, warm);
    await waitDeliveries(bench.database.db, warm.serverIds, SERVERS * WARMUP * processes, 900_000, 50);
    for (const w of workers) w.cpuAtReady = cpuSeconds(w.pid);
    for (const w of workers) w.stored = 0;
  }
  const t0 = performance.now();
  await startAll(bench, setup);
  await waitDeliveries(bench.database.db, setup.serverIds, total, 900_000, 50);
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = workers.map((w) => cpuSeconds(w.pid) - w.cpuAtReady);
  await new Promise((r) => setTimeout(r, 300)); // the last log lines
  for (const w of workers) w.stop();
  await Promise.all(workers.map((w) => w.exited));
  const answers = Number(
    (
      await bench.database.db.query<{ n: string }>(`select count(*) as n from answers where server_id = any($1::int[])`, [setup.serverIds])
    )[0].n,
  );
  const maxInFlight = Math.max(...setup.serverIds.map((_, k) => instant.maxInFlight[offset + k]));
  const cpuTotal = cpu.reduce((a, b) => a + b, 0);
  return {
    processes,
    total,
    elapsed,
    rate: total / elapsed,
    perCpu: total / cpuTotal,
    cpuTotal,
    counts: workers.map((w) => w.stored),
    answers,
    maxInFlight,
  };
}

// BENCH_DELAY_MS: the annotation servers answer after that long (setup checks at once), which
// caps the rate at servers × concurrency / delay: below what the machine can do, the worker
// processes are measured without fighting each other, PostgreSQL and Redis for two cores.
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 0);
const instant = await startInstantServer({ delayMs: DELAY_MS, fastBelowBytes: 10_000 });
const bench = await startBench({ workers: false });
console.log(machine());
console.log(
  `database: ${bench.database.kind}; ${SERVERS} servers × ${ARTICLES} articles of 100 KB, concurrency ${CONCURRENCY} per server; API in this process, workers in ${PROCESSES.join(', ')} processes; ` +
    (WEAK ? `(× processes: the same work per process); ` : '') +
    (DELAY_MS > 0
      ? `servers answer after ${DELAY_MS} ms (at most ${fmt((SERVERS * CONCURRENCY * 1000) / DELAY_MS, 0)} answers/s)`
      : 'servers answer at once') +
    `; warm-up ${WARMUP} articles per process`,
);
const results = [];
for (const [i, p] of PROCESSES.entries()) {
  const r = await round(bench, instant, p, i * (MOST_SERVERS + SERVERS));
  results.push(r);
  const base = results[0];
  console.log(
    `${p} process${p === 1 ? '' : 'es'}: ${fmt(r.rate, 0)} answers/s (${fmt(r.elapsed)} s); per process ${r.counts.join(' / ')} (logged); ` +
      `answers ${r.answers} of ${r.total}; most in flight at one server ${r.maxInFlight} (limit ${CONCURRENCY}); ` +
      `${fmt(r.perCpu, 0)} answers per worker CPU-second (${fmt(r.cpuTotal)} s), ×${fmt(r.perCpu / base.perCpu)} of ${base.processes} process`,
  );
  if (r.answers !== r.total || r.maxInFlight > CONCURRENCY) process.exitCode = 1;
}
await bench.stop();
await instant.close();
process.exit();
