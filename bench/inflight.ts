// In-flight capacity: servers that answer only after a long delay, so that every request of
// the run is held open at once (100 articles × 100 servers = 10,000 by default). Prints the
// RSS, heap and event-loop delay of the process holding them, and checks they all complete.
// Layouts, each with a challenge of its own:
//   serve — `metaserver serve` (API and workers in one process) from the bundle, as
//     `npm start` runs it, in a child process sharing this bench's Redis and PostgreSQL;
//   worker — a `metaserver worker` process from the bundle, as a scaled-out deployment runs
//     it (the API in the bench process);
//   one — API and workers in this bench process, from the sources through tsx (its RSS
//     includes tsx, ~100 MB, and the bench itself); the only layout without DATABASE_URL.
// The floor, measured in the same run: the same calls made directly (no queue, no database)
// in a process of its own on plain node, with shared bodies.
//   node --import tsx bench/inflight.ts [articles=100] [servers=100] [delaySeconds=20]
//   BENCH_LAYOUTS=serve,worker,one (default: serve,worker with DATABASE_URL, else one)
import { execFileSync, fork } from 'node:child_process';
import { writeHeapSnapshot } from 'node:v8';
import { dirname, join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { fmt, machine, setupChallenge, startAll, startBench, waitDeliveries, type Bench } from './support/harness.ts';
import { startWorker, type ProbeReading } from './support/worker-process.ts';
import { compiledScript } from './support/compiled-script.ts';

const ARTICLES = Number(process.argv[2] ?? 100);
const SERVERS = Number(process.argv[3] ?? 100);
const DELAY_S = Number(process.argv[4] ?? 20);
const TOTAL = ARTICLES * SERVERS;
const LAYOUTS = (process.env.BENCH_LAYOUTS ?? (process.env.DATABASE_URL ? 'serve,worker' : 'one')).split(',');
const here = dirname(fileURLToPath(import.meta.url));
const MB = (b: number) => `${fmt(b / 2 ** 20, 0)} MB`;

// The slow server lives in its own process: the memory measured is the meta-server's.
const child = fork(join(here, 'support', 'inflight-children.ts'), ['server'], {
  execArgv: ['--import', 'tsx'],
  env: { ...process.env, DELAY_MS: String(DELAY_S * 1000) },
});
const baseUrl = await new Promise<string>((resolve) => child.once('message', (m: { url: string }) => resolve(m.url)));
const stats = () =>
  new Promise<{ requests: number; inFlight: number; maxInFlight: number[] }>((resolve) => {
    child.once('message', resolve as never);
    child.send({ stats: true });
  });

/** What the process holding the requests reports about itself. */
interface Holder {
  name: string;
  memory(): Promise<{ rss: number; heapUsed: number }>;
  startLoopDelay(): void;
  loopDelay(): Promise<Pick<ProbeReading, 'p50' | 'p99' | 'max'>>;
  stop(): Promise<void>;
}

function thisProcess(): Holder {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  return {
    name: 'one process (API + workers in the bench process, sources through tsx)',
    memory: async () => process.memoryUsage(),
    startLoopDelay: () => loop.enable(),
    loopDelay: async () => {
      loop.disable();
      return { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 };
    },
    stop: async () => {},
  };
}

async function childProcess(bench: Bench, command: 'serve' | 'worker'): Promise<Holder> {
  const worker = await startWorker(bench, {
    command,
    probe: true,
    env: { LOG_LEVEL: 'info', METASERVER_LOCK_DURATION_MS: String(bench.config.lockDurationMs) },
  });
  const from = worker.fromBundle ? 'from the bundle' : 'from the sources: the bundle could not be built';
  return {
    name:
      command === 'serve'
        ? `\`metaserver serve\` ${from} (API and workers in one process)`
        : `\`metaserver worker\` ${from} (API in the bench process)`,
    memory: () => worker.readProbe(),
    startLoopDelay: () => worker.resetProbe(),
    loopDelay: () => worker.readProbe(),
    stop: async () => {
      worker.stop();
      await worker.exited;
    },
  };
}

async function measure(layout: string, offset: number): Promise<boolean> {
  const bench = await startBench({ workers: layout === 'one', config: { lockDurationMs: Math.max(30_000, DELAY_S * 3000) } });
  const setup = await setupChallenge(bench, {
    servers: SERVERS,
    articles: ARTICLES,
    concurrency: Math.min(100, ARTICLES),
    urls: (k) => `${baseUrl}${offset + k}`,
    timeoutSeconds: DELAY_S * 4,
  });
  const holder = layout === 'one' ? thisProcess() : await childProcess(bench, layout === 'serve' ? 'serve' : 'worker');
  global.gc?.();
  const idle = await holder.memory();
  const requestsBefore = (await stats()).requests;

  const t0 = performance.now();
  await startAll(bench, setup);
  let maxRss = 0;
  for (;;) {
    const s = await stats();
    maxRss = Math.max(maxRss, (await holder.memory()).rss);
    if (s.inFlight >= TOTAL) break;
    if (performance.now() - t0 > DELAY_S * 1000 * 0.8) {
      console.log(`only ${s.inFlight} of ${TOTAL} requests in flight after ${fmt((performance.now() - t0) / 1000)} s`);
      break;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const allInFlight = (performance.now() - t0) / 1000;
  holder.startLoopDelay(); // while they are held: what is left of the loop's time for the API
  await new Promise((r) => setTimeout(r, Math.max(1000, DELAY_S * 1000 - (performance.now() - t0) - 2000)));
  const loop = await holder.loopDelay();
  const held = await holder.memory();
  // BENCH_HEAP_SNAPSHOT=file: a heap snapshot of this process while the requests are held.
  if (process.env.BENCH_HEAP_SNAPSHOT && layout === 'one') writeHeapSnapshot(process.env.BENCH_HEAP_SNAPSHOT);
  maxRss = Math.max(maxRss, held.rss);
  await waitDeliveries(bench.database.db, setup.serverIds, TOTAL, DELAY_S * 8000 + 120_000, 250);
  const elapsed = (performance.now() - t0) / 1000;
  const s = await stats();
  const answers = Number(
    (
      await bench.database.db.query<{ n: string }>(`select count(*) as n from answers where server_id = any($1::int[])`, [setup.serverIds])
    )[0].n,
  );
  const most = Math.max(...s.maxInFlight.slice(offset, offset + SERVERS));

  console.log(`${holder.name}:`);
  console.log(
    `  all ${TOTAL} in flight after ${fmt(allInFlight)} s; while held: RSS ${MB(held.rss)} (max ${MB(maxRss)}; idle runtime ${MB(idle.rss)}, +${fmt((held.rss - idle.rss) / TOTAL / 1024, 1)} KB/request), heap ${MB(held.heapUsed)}`,
  );
  console.log(
    `  ratio RSS to the floor: ${fmt(held.rss / floorRss)}×; event-loop delay p50 ${fmt(loop.p50)} ms  p99 ${fmt(loop.p99)} ms  max ${fmt(loop.max)} ms`,
  );
  console.log(
    `  completed: ${answers} answers of ${TOTAL} in ${fmt(elapsed)} s; requests the servers saw ${s.requests - requestsBefore}; most in flight at one server ${most}`,
  );
  await holder.stop();
  await bench.stop();
  return answers === TOTAL;
}

console.log(machine());
// The floor runs on plain node (compiled): through tsx it would carry ~100 MB more RSS.
const floorScript = await compiledScript(join(here, 'support', 'inflight-children.ts'));
const floorOut = execFileSync(process.execPath, [floorScript, 'floor', baseUrl, String(TOTAL), String(ARTICLES), String(DELAY_S * 1000)], {
  encoding: 'utf8',
  maxBuffer: 1 << 20,
});
const floor = JSON.parse(floorOut.trim().split('\n').pop()!) as {
  rssBefore: number;
  rssHeld: number;
  heapHeld: number;
  ok: number;
  failures: Record<string, number>;
};
const floorRss = floor.rssHeld;
console.log(
  `database: ${process.env.DATABASE_URL ? 'postgres' : 'pglite'}; ${ARTICLES} articles of 100 KB × ${SERVERS} servers = ${TOTAL} requests, answered after ${DELAY_S} s`,
);
console.log(
  `floor  direct calls held (own process, plain node, shared bodies): RSS ${MB(floor.rssHeld)} (idle ${MB(floor.rssBefore)}, +${fmt((floor.rssHeld - floor.rssBefore) / TOTAL / 1024, 1)} KB/request), heap ${MB(floor.heapHeld)}; ${floor.ok} answered`,
);
for (const [why, n] of Object.entries(floor.failures)) console.log(`  floor call failed ×${n}: ${why}`);
for (const [i, layout] of LAYOUTS.entries()) {
  if (!['one', 'serve', 'worker'].includes(layout)) throw new Error(`BENCH_LAYOUTS: unknown layout ${layout} (one, serve, worker)`);
  if (layout !== 'one' && !process.env.DATABASE_URL) {
    console.log(`${layout}: skipped, a child process needs DATABASE_URL to share the database (PGlite belongs to one process)`);
    continue;
  }
  if (!(await measure(layout, i * SERVERS))) process.exitCode = 1;
}
child.send({ close: true });
process.exit();
