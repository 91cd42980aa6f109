// Dispatch throughput and added latency in one process (API + workers), against an instant
// loopback annotation server (a fixed answer buffer), next to floors measured in the same run:
// direct XML-RPC calls (one at a time, and at the same total concurrency, before and after
// the dispatch run) and BullMQ alone. With local services it also reads the CPU the database
// and Redis spent (Linux /proc), since on a small machine they share the cores.
//   node --import tsx bench/dispatch.ts [servers=10] [articles=300] [concurrency=5] [sequential=50]
// BENCH_PROTOCOL=json: the servers are registered with, and answer in, the JSON protocol
// (the floors stay XML-RPC calls).
// PGlite in memory by default; PostgreSQL (a schema of its own, dropped after) with DATABASE_URL.
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { bullmqFloor, callBodies, directCalls, roundTrips } from './support/floors.ts';
import {
  ADMIN,
  fmt,
  printSqlStats,
  startProfile,
  stopProfile,
  machine,
  pct,
  setupChallenge,
  startAll,
  startBench,
  TASKS,
  waitDeliveries,
  type Bench,
} from './support/harness.ts';
import { startInstantServer, type InstantServer } from './support/instant-server.ts';
import { serviceCpu, serviceCpuSince } from './support/service-cpu.ts';

const SERVERS = Number(process.argv[2] ?? 10);
const ARTICLES = Number(process.argv[3] ?? 300);
const CONCURRENCY = Number(process.argv[4] ?? 5);
const SEQUENTIAL = Number(process.argv[5] ?? 50);
const TOTAL = SERVERS * ARTICLES;
const PROTOCOL = process.env.BENCH_PROTOCOL === 'json' ? 'json' : 'xmlrpc';

/** Per completed job: BullMQ processedOn→finishedOn minus the call's own ms (what the worker adds). */
async function addedPerJob(bench: Bench, serverIds: number[]): Promise<number[]> {
  const rows = await bench.database.db.query<{ article_id: string; server_id: number; ms: number }>(
    `select article_id, server_id, ms from attempts where server_id = any($1::int[]) and outcome = 'ok'`,
    [serverIds],
  );
  const callMs = new Map(rows.map((r) => [`${r.server_id}/${r.article_id}`, Number(r.ms)]));
  const added: number[] = [];
  for (const id of serverIds) {
    const jobs = await bench.runtime.ctx.dispatch.queues.queue(id).getJobs(['completed'], 0, -1);
    for (const job of jobs) {
      const ms = callMs.get(`${id}/${job.data.articleId}`);
      if (ms !== undefined && job.processedOn && job.finishedOn) added.push(job.finishedOn - job.processedOn - ms);
    }
  }
  return added;
}

/**
 * One live article at a time: submit → answer stored (database clock), and, per job, from the
 * moment it was queued to the moment it finished minus the call's own ms (BullMQ's
 * timestamps, whole ms): what the meta-server adds to each request when nothing queues.
 */
async function sequential(bench: Bench, instant: InstantServer, n: number): Promise<{ stored: number[]; added: number[] }> {
  const team = (await bench.call('POST', '/api/teams', { name: 'seq', contact: 'seq@example.org' })).body;
  const server = (
    await bench.call(
      'POST',
      '/api/challenges/live/servers',
      { name: 'seq', url: instant.url(999), tasks: TASKS, protocol: PROTOCOL },
      team.token,
    )
  ).body;
  await bench.call('POST', `/api/servers/${server.id}/start`, undefined, team.token);
  await new Promise((r) => setTimeout(r, 500)); // let the worker pool pick the new server up
  const { db } = bench.database;
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const submitted = await bench.call('POST', '/api/articles', { text: `${i} `.repeat(10) + 'x'.repeat(100_000) });
    const id = submitted.body.id as string;
    for (;;) {
      const rows = await db.query<{ ms: number }>(
        `select extract(epoch from (an.stored_at - ar.created_at)) * 1000 as ms from answers an join articles ar on ar.id = an.article_id where an.article_id = $1`,
        [id],
      );
      if (rows.length > 0) {
        ms.push(Number(rows[0].ms));
        break;
      }
      // The figure comes from the database clock; polling more often only loads the one thread.
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  const warm = Math.min(5, n - 1); // the first few warm the JIT
  const calls = await db.query<{ article_id: string; ms: number }>(
    `select article_id, ms from attempts where server_id = $1 and outcome = 'ok'`,
    [server.id],
  );
  const callMs = new Map(calls.map((r) => [r.article_id, Number(r.ms)]));
  const jobs = (await bench.runtime.ctx.dispatch.queues.queue(server.id).getJobs(['completed'], 0, -1)).sort(
    (a, b) => a.timestamp - b.timestamp,
  );
  const added = jobs.slice(warm).flatMap((job) => {
    const call = callMs.get(job.data.articleId);
    return call !== undefined && job.finishedOn ? [job.finishedOn - job.timestamp - call] : [];
  });
  return { stored: ms.slice(warm), added };
}

const instant = await startInstantServer({ protocol: PROTOCOL });
const floorServer = PROTOCOL === 'xmlrpc' ? instant : await startInstantServer();
const bench = await startBench();
console.log(machine());
console.log(
  `database: ${bench.database.kind}; ${SERVERS} servers × ${ARTICLES} articles of 100 KB, concurrency ${CONCURRENCY} per server (${SERVERS * CONCURRENCY} in total); protocol ${PROTOCOL}`,
);

// Floors first, while nothing else runs in this process.
const bodies = callBodies(Math.min(ARTICLES, 50));
const one = await directCalls(floorServer.url(998), bodies, 300, 1);
const many = await directCalls(floorServer.url(998), bodies, Math.min(TOTAL, 3000), SERVERS * CONCURRENCY);
const bull = await bullmqFloor(bench.runtime.redis.url, `${bench.config.queuePrefix}floor`, 5000, SERVERS * CONCURRENCY);
const trips = await roundTrips(bench.runtime.redis.url, bench.database.db);

const setup = await setupChallenge(bench, {
  servers: SERVERS,
  articles: ARTICLES,
  concurrency: CONCURRENCY,
  urls: (k) => instant.url(k),
  protocol: PROTOCOL,
});
await startProfile();
const services0 = serviceCpu();
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const wall0 = Date.now();
await startAll(bench, setup);
// Polled rarely: the rate comes from the last answer's stored_at, and polling loads the thread it measures.
await waitDeliveries(bench.database.db, setup.serverIds, TOTAL, 600_000, 100);
const elapsed = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const services = serviceCpuSince(services0);
await stopProfile();
const { db } = bench.database;
const lastStored = Number(
  (
    await db.query<{ t: number }>(`select extract(epoch from max(stored_at)) * 1000 as t from answers where server_id = any($1::int[])`, [
      setup.serverIds,
    ])
  )[0].t,
);
const storedElapsed = (lastStored - wall0) / 1000;
const counts = (
  await db.query<{ answers: string; attempts: string; done: string }>(
    `select (select count(*) from answers where server_id = any($1::int[])) as answers,
          (select count(*) from attempts where server_id = any($1::int[])) as attempts,
          (select count(*) from deliveries where server_id = any($1::int[]) and state = 'done') as done`,
    [setup.serverIds],
  )
)[0];
const added = await addedPerJob(bench, setup.serverIds);
// The floor again, now that the JIT is warm and the machine has run the same work: runs of
// the first floor alone ranged ×3 on one machine, so the ratio is taken to the better one.
const manyAfter = await directCalls(floorServer.url(998), bodies, Math.min(TOTAL, 3000), SERVERS * CONCURRENCY);
const floor = manyAfter.perSecond > many.perSecond ? manyAfter : many;
const maxSeen = Math.max(...setup.serverIds.map((_, k) => instant.maxInFlight[k]));
const seq = SEQUENTIAL > 0 ? await sequential(bench, instant, SEQUENTIAL) : { stored: [], added: [] };
void ADMIN;

const rate = TOTAL / Math.min(elapsed, storedElapsed > 0 ? storedElapsed : elapsed);
console.log(`floor  BullMQ alone, no-op jobs:                ${fmt(bull, 0)} jobs/s`);
console.log(
  `floor  round trips, p50: Redis PING ${fmt(trips.redis)} ms, database \`select 1\` ${fmt(trips.database)} ms (a job crosses at least two of each)`,
);
console.log(
  `floor  direct calls one at a time:              ${fmt(one.perSecond, 0)} calls/s  p50 ${fmt(one.p50)} ms  p99 ${fmt(one.p99)} ms`,
);
for (const [when, f] of [
  ['before', many],
  ['after', manyAfter],
] as const) {
  console.log(
    `floor  direct calls at concurrency ${SERVERS * CONCURRENCY}, ${when.padEnd(6)}:   ${fmt(f.perSecond, 0)} calls/s  p50 ${fmt(f.p50)} ms  p99 ${fmt(f.p99)} ms  (${fmt(f.perCpuSecond, 0)} per CPU-second)`,
  );
}
const processCpu = (cpu.user + cpu.system) / 1e6;
console.log(
  `dispatch end to end (call, decode, validate, store): ${fmt(rate, 0)} answers/s  (${TOTAL} in ${fmt(elapsed)} s; CPU ${fmt(processCpu)} s = ${fmt(TOTAL / processCpu, 0)} answers per CPU-second)`,
);
console.log(
  `  ratio to direct calls at the same concurrency (the better floor): ${fmt(rate / floor.perSecond)}×; to BullMQ alone: ${fmt(rate / bull)}×`,
);
if (services) {
  // The floor's process does everything its calls cost (the instant server runs in it too);
  // the meta-server's answers also cost the database's and Redis's CPU, on the same cores.
  // PGlite runs inside this process: a local PostgreSQL server's time is not this bench's.
  const database = bench.database.kind === 'postgres' ? services.postgres : 0;
  const machineCpu = processCpu + database + services.redis;
  const databaseText = bench.database.kind === 'postgres' ? `PostgreSQL ${fmt(database)} s` : 'PGlite in this process';
  console.log(
    `  CPU of the whole phase: this process ${fmt(processCpu)} s, ${databaseText}, Redis ${fmt(services.redis)} s = ${fmt(machineCpu / elapsed)} of ${cpus().length} cores busy; ${fmt(TOTAL / machineCpu, 0)} answers per CPU-second of them all (${fmt(TOTAL / machineCpu / floor.perCpuSecond)}× the floor's calls per CPU-second)`,
  );
}
console.log(
  `  added per job (processedOn→finishedOn − call ms): p50 ${fmt(pct(added, 50))} ms  p99 ${fmt(pct(added, 99))} ms  (${added.length} jobs)`,
);
console.log(
  `  stored exactly once: answers ${counts.answers}, attempts ${counts.attempts}, deliveries done ${counts.done} of ${TOTAL}; most in flight at one server ${maxSeen} (limit ${CONCURRENCY})`,
);
if (seq.stored.length > 0) {
  console.log(
    `one at a time: submit → stored p50 ${fmt(pct(seq.stored, 50))} ms  p99 ${fmt(pct(seq.stored, 99))} ms; minus a direct call (p50 ${fmt(one.p50)} ms): added p50 ${fmt(pct(seq.stored, 50) - one.p50)} ms`,
  );
  console.log(
    `  per request, queued → finished minus the call's own ms: p50 ${fmt(pct(seq.added, 50))} ms  p99 ${fmt(pct(seq.added, 99))} ms  (${seq.added.length} jobs); two round trips to each of Redis and the database alone: ${fmt(2 * trips.redis + 2 * trips.database)} ms`,
  );
}
if (Number(counts.answers) !== TOTAL || Number(counts.attempts) !== TOTAL || maxSeen > CONCURRENCY) {
  console.log('CHECK FAILED: answers, attempts or the concurrency limit are off');
  process.exitCode = 1;
}
printSqlStats();
await bench.stop();
await instant.close();
if (floorServer !== instant) await floorServer.close();
process.exit();
