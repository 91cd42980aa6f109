// API latency under load: GET /api/articles/:id (with and without the text),
// GET /api/servers/:id and GET /healthz at a fixed rate, first with nothing else running (the
// floor, same run), then while dispatch runs. The load generator (loadtest at a steady rate:
// support/paced-load.mjs), the annotation server and the meta-server run in processes of
// their own, so the event loop
// measured is the meta-server's alone; the meta-server runs from the bundle, at log level
// info, as deployed. Two layouts (with DATABASE_URL, which child processes need to share the
// database):
//   one process  — `metaserver serve`: API and workers together (what `npm start` runs);
//   split        — `metaserver api` and `metaserver worker` (the scaled-out layout).
// Without DATABASE_URL: one process, the bench's own (sources through tsx, PGlite).
// The bench process itself only sets up challenges and counts answers.
// Each route is measured during a dispatch run of its own (fresh articles), so dispatch is
// busy the whole time; the line says how many answers were stored meanwhile.
// The floor, measured the same way beside the routes: a bare node:http server in a process
// of its own answering a small constant JSON body — what the load generator and this machine's
// scheduling give any server, idle and while dispatch keeps the cores busy.
//   node --import tsx bench/api.ts [rate=500] [seconds=5] [servers=10] [articles=1000]
//   BENCH_LAYOUTS=split   (default with DATABASE_URL: one,split)
import { execFile, fork, spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ADMIN, fmt, machine, setupChallenge, startAll, startBench, waitDeliveries, type Bench } from './support/harness.ts';
import { startWorker, type WorkerProcess } from './support/worker-process.ts';

const RATE = Number(process.argv[2] ?? 500);
const SECONDS = Number(process.argv[3] ?? 5);
const SERVERS = Number(process.argv[4] ?? 10);
const ARTICLES = Number(process.argv[5] ?? 1000);
const LAYOUTS = (process.env.BENCH_LAYOUTS ?? 'one,split').split(',');
const here = dirname(fileURLToPath(import.meta.url));
const PACED_LOAD = join(here, 'support', 'paced-load.mjs');

interface Load {
  rate: number;
  p50: number;
  p99: number;
  max: number;
  failed: number;
}

/** A steady `RATE` requests per second for `SECONDS` to url, from a process of its own. */
async function load(url: string): Promise<Load> {
  const { stdout } = await promisify(execFile)(process.execPath, [PACED_LOAD, url, String(RATE), String(SECONDS), `Bearer ${ADMIN}`], {
    maxBuffer: 1 << 24,
  });
  return JSON.parse(stdout) as Load;
}

/** The instant annotation server, in a child process (answers at once). */
async function startServerProcess(): Promise<{ base: string; close(): void }> {
  const child = fork(join(here, 'support', 'inflight-children.ts'), ['server'], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, DELAY_MS: '0' },
  });
  const base = await new Promise<string>((resolve) => child.once('message', (m: { url: string }) => resolve(m.url)));
  return { base, close: () => child.send({ close: true }) };
}

/** The floor: a bare node:http server (plain node, nothing else) answering a constant JSON body. */
const BARE_SERVER = `
const body = Buffer.from(JSON.stringify({ status: 'ok', redis: 'ok', database: 'ok', uniprot: null }));
const server = require('node:http').createServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.stdin.on('end', () => process.exit(0)).resume();`;

async function startBareServer(): Promise<{ base: string; close(): void }> {
  const child = spawn(process.execPath, ['-e', BARE_SERVER], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim())));
  return { base: `http://127.0.0.1:${port}`, close: () => child.stdin.end() };
}

const line = (name: string, r: Load) =>
  `${name.padEnd(36)} ${fmt(r.rate, 0).padStart(5)} req/s  p50 ${fmt(r.p50, 1)} ms  p99 ${fmt(r.p99, 1)} ms  max ${fmt(r.max, 0)} ms` +
  (r.failed > 0 ? `  (${r.failed} failed)` : '');

const answersOf = async (bench: Bench, serverIds: number[]) =>
  Number(
    (await bench.database.db.query<{ n: string }>(`select count(*) as n from answers where server_id = any($1::int[])`, [serverIds]))[0].n,
  );

type Layout = 'one process' | 'split' | 'one process, in the bench';

async function measure(layout: Layout, annotation: { base: string }, bare: { base: string }): Promise<void> {
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
      if (layout === 'split') {
        const worker = await startWorker(bench, { command: 'worker', env: info });
        if (process.env.BENCH_WORKER_NICE) setPriority(worker.pid, Number(process.env.BENCH_WORKER_NICE));
        children.push(worker);
      }
      base = api.address!;
    }
    let offset = 0;
    const urls = (k: number) => `${annotation.base}${offset + k}`;
    // A finished article (every server answered) to read, and a server to look at.
    const done = await setupChallenge(bench, { servers: 3, articles: 1, concurrency: 1, urls });
    await startAll(bench, done);
    await waitDeliveries(bench.database.db, done.serverIds, 3, 60_000);
    const routes: Array<[string, string]> = [
      ['floor: bare node:http server', `${bare.base}/`],
      ['GET /api/articles/:id', `${base}/api/articles/${done.articleIds[0]}`],
      ['GET /api/articles/:id?text=false', `${base}/api/articles/${done.articleIds[0]}?text=false`],
      ['GET /api/servers/:id', `${base}/api/servers/${done.serverIds[0]}`],
      ['GET /healthz', `${base}/healthz`],
    ];
    console.log(`${layout}: ${bench.database.kind}; ${RATE} requests/s (steady) for ${SECONDS} s per route`);
    const idle = new Map<string, Load>();
    for (const [name, path] of routes) {
      const r = await load(path);
      idle.set(name, r);
      console.log(`  idle               ${line(name, r)}`);
    }
    for (const [name, path] of routes) {
      offset += 100;
      const run = await setupChallenge(bench, { servers: SERVERS, articles: ARTICLES, concurrency: 5, urls });
      await startAll(bench, run);
      const before = await answersOf(bench, run.serverIds);
      const r = await load(path);
      const after = await answersOf(bench, run.serverIds);
      const busy = after < SERVERS * ARTICLES ? 'still running at the end' : 'FINISHED before the end: use more articles';
      console.log(
        `  while dispatching  ${line(name, r)}  (idle p99 ×${fmt(r.p99 / Math.max(idle.get(name)!.p99, 0.1), 1)}; ${fmt((after - before) / SECONDS, 0)} answers/s stored meanwhile, ${busy})`,
      );
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
const bare = await startBareServer();
if (process.env.DATABASE_URL) {
  if (LAYOUTS.includes('one')) await measure('one process', annotation, bare);
  if (LAYOUTS.includes('split')) await measure('split', annotation, bare);
} else {
  await measure('one process, in the bench', annotation, bare);
}
annotation.close();
bare.close();
process.exit();
