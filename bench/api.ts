// API latency under load: GET /api/articles/:id (with and without the text),
// GET /api/servers/:id and GET /healthz at a fixed rate, first with nothing else running (the
// floor, same run), then while dispatch runs. The load generator (autocannon's command line),
// the annotation server and the meta-server run in processes of their own, so the event loop
// measured is the meta-server's alone; the meta-server runs from the bundle, at log level
// info, as deployed. Two layouts (with DATABASE_URL, which child processes need to share the
// database):
//   one process  — `metaserver serve`: API and workers together (what `npm start` runs);
//   split        — `metaserver api` and `metaserver worker` (the scaled-out layout).
// Without DATABASE_URL: one process, the bench's own (sources through tsx, PGlite).
// The bench process itself only sets up challenges and counts answers.
// Each route is measured during a dispatch run of its own (fresh articles), so dispatch is
// busy the whole time; the line says how many answers were stored meanwhile.
//   node --import tsx bench/api.ts [rate=500] [seconds=5] [servers=10] [articles=600]
import { execFile, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ADMIN, fmt, machine, setupChallenge, startAll, startBench, waitDeliveries, type Bench } from './support/harness.ts';
import { startWorker, type WorkerProcess } from './support/worker-process.ts';

const RATE = Number(process.argv[2] ?? 500);
const SECONDS = Number(process.argv[3] ?? 5);
const SERVERS = Number(process.argv[4] ?? 10);
const ARTICLES = Number(process.argv[5] ?? 600);
const here = dirname(fileURLToPath(import.meta.url));
const AUTOCANNON = join(dirname(createRequire(import.meta.url).resolve('autocannon/package.json')), 'autocannon.js');

interface Load {
  rate: number;
  p50: number;
  p99: number;
  max: number;
  failed: number;
}

/** autocannon in its own process, at a fixed overall rate; its JSON summary. */
async function load(url: string): Promise<Load> {
  const { stdout } = await promisify(execFile)(process.execPath, [
    AUTOCANNON, '-c', '20', '-R', String(RATE), '-d', String(SECONDS), '-j', '-H', `authorization=Bearer ${ADMIN}`, url,
  ], { maxBuffer: 1 << 24 });
  const r = JSON.parse(stdout) as { requests: { average: number }; latency: { p50: number; p99: number; max: number }; non2xx: number; errors: number; timeouts: number };
  return { rate: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max, failed: r.non2xx + r.errors + r.timeouts };
}

/** The instant annotation server, in a child process (answers at once). */
async function startServerProcess(): Promise<{ base: string; close(): void }> {
  const child = fork(join(here, 'support', 'inflight-children.ts'), ['server'], { execArgv: ['--import', 'tsx'], env: { ...process.env, DELAY_MS: '0' } });
  const base = await new Promise<string>((resolve) => child.once('message', (m: { url: string }) => resolve(m.url)));
  return { base, close: () => child.send({ close: true }) };
}

const line = (name: string, r: Load) =>
  `${name.padEnd(36)} ${fmt(r.rate, 0).padStart(5)} req/s  p50 ${fmt(r.p50, 1)} ms  p99 ${fmt(r.p99, 1)} ms  max ${fmt(r.max, 0)} ms` +
  (r.failed > 0 ? `  (${r.failed} failed)` : '');

const answersOf = async (bench: Bench, serverIds: number[]) =>
  Number((await bench.database.db.query<{ n: string }>(`select count(*) as n from answers where server_id = any($1::int[])`, [serverIds]))[0]!.n);

type Layout = 'one process' | 'split' | 'one process, in the bench';

async function measure(layout: Layout, annotation: { base: string }): Promise<void> {
  const bench = await startBench({ workers: layout === 'one process, in the bench' });
  const children: WorkerProcess[] = [];
  try {
    const info = { LOG_LEVEL: 'info' }; // as deployed
    let base: string;
    if (layout === 'one process, in the bench') {
      await bench.runtime.app!.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(bench.runtime.app!.server.address() as { port: number }).port}`;
    } else {
      const api = await startWorker(bench, { command: layout === 'split' ? 'api' : 'serve', env: info });
      children.push(api);
      if (layout === 'split') children.push(await startWorker(bench, { command: 'worker', env: info }));
      base = api.address!;
    }
    let offset = 0;
    const urls = (k: number) => `${annotation.base}${offset + k}`;
    // A finished article (every server answered) to read, and a server to look at.
    const done = await setupChallenge(bench, { servers: 3, articles: 1, concurrency: 1, urls });
    await startAll(bench, done);
    await waitDeliveries(bench.database.db, done.serverIds, 3, 60_000);
    const routes: Array<[string, string]> = [
      ['GET /api/articles/:id', `/api/articles/${done.articleIds[0]}`],
      ['GET /api/articles/:id?text=false', `/api/articles/${done.articleIds[0]}?text=false`],
      ['GET /api/servers/:id', `/api/servers/${done.serverIds[0]}`],
      ['GET /healthz', '/healthz'],
    ];
    console.log(`${layout}: ${bench.database.kind}; ${RATE} requests/s for ${SECONDS} s per route, 20 connections`);
    const idle = new Map<string, Load>();
    for (const [name, path] of routes) {
      const r = await load(`${base}${path}`);
      idle.set(name, r);
      console.log(`  idle               ${line(name, r)}`);
    }
    for (const [name, path] of routes) {
      offset += 100;
      const run = await setupChallenge(bench, { servers: SERVERS, articles: ARTICLES, concurrency: 5, urls });
      await startAll(bench, run);
      const before = await answersOf(bench, run.serverIds);
      const r = await load(`${base}${path}`);
      const after = await answersOf(bench, run.serverIds);
      const busy = after < SERVERS * ARTICLES ? 'still running at the end' : 'FINISHED before the end: use more articles';
      console.log(`  while dispatching  ${line(name, r)}  (idle p99 ×${fmt(r.p99 / Math.max(idle.get(name)!.p99, 0.1), 1)}; ${fmt((after - before) / SECONDS, 0)} answers/s stored meanwhile, ${busy})`);
      // Paused: the next route gets a dispatch run of its own, not two at once.
      for (const id of run.serverIds) await bench.call('POST', `/api/servers/${id}/pause`, undefined, run.teamTokens[0]);
    }
  } finally {
    for (const child of children) child.stop();
    await Promise.all(children.map((c) => c.exited));
    await bench.stop();
  }
}

console.log(machine());
const annotation = await startServerProcess();
if (process.env.DATABASE_URL) {
  await measure('one process', annotation);
  await measure('split', annotation);
} else {
  await measure('one process, in the bench', annotation);
}
annotation.close();
process.exit();
