// Memory kept per accepted on-demand article, in the one-process layout of `npm start`
// (API and workers together, PGlite on disk under a fresh data directory; PostgreSQL with
// DATABASE_URL), with sample annotation servers as separate processes answering every
// article. After a warm-up of a few articles of the same size, `articles` more are
// submitted (each from its own client address), answered by every server, and each polled
// once plainly and once with ?weights=; then, after a full garbage collection, what the
// process keeps more than before is divided by the number of articles and compared with
// the article's size: the V8 heap, memory outside it (external, which includes every
// Buffer and ArrayBuffer), and the resident set.
//
// The resident set also holds memory the C library's allocator keeps after it was freed.
// glibc raises its mmap threshold after the first big block is freed, so later big blocks
// (answers, query buffers, responses of several MB) come from its heap, which it hardly
// ever gives back. The bench measures both allocator settings in the same run: the default,
// and MALLOC_MMAP_THRESHOLD_=131072 (fixed threshold: big blocks mapped on their own and
// unmapped when freed), which the Dockerfile sets.
//   node --import tsx bench/memory.ts [articles=20] [MiB=1] [servers=2] [warm-up=3]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { createRuntime } from '../src/runtime.ts';
import { startPrivateRedis } from '../test/support/private-redis.ts';
import { fmt, machine, openBenchDatabase } from './support/harness.ts';

const [articles = 20, mib = 1, servers = 2, warmUp = 3] = process.argv
  .slice(2)
  .filter((a) => !a.startsWith('--'))
  .map(Number);
const here = fileURLToPath(import.meta.url);
const root = join(here, '..', '..');

interface Figures {
  allocator: string;
  seconds: number;
  heapMiB: number;
  externalMiB: number;
  rssMiB: number;
  before: { heap: number; external: number; rss: number };
}

/** A sample annotation server in a process of its own; resolves with its URL. */
function startAnnotator(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(root, 'bin', 'metaserver.js'), 'sample-server', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /listening on (\S+)/.exec(out)?.[1];
      if (url) resolve({ url, child });
    });
    child.on('exit', (code) => reject(new Error(`sample server exited with ${code}`)));
  });
}

async function measure(): Promise<Figures> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const dataDir = mkdtempSync(join(tmpdir(), 'metaserver-memory-'));
  const redis = await startPrivateRedis();
  const bytes = mib * 1024 * 1024;
  const config = loadConfig(process.env, {
    redisUrl: redis.url,
    dataDir,
    logLevel: 'warn',
    adminToken: 'bench-admin-token-0123456789',
    queuePrefix: `mem${process.pid}`,
    maxOnDemandArticleBytes: Math.max(bytes, 1024),
    submitRateLimitPerMinute: 1_000_000,
    onDemandPendingTotal: 100_000,
  });
  // PostgreSQL in a schema of its own (dropped after), or PGlite on disk under dataDir as `npm start` runs it.
  const database = process.env.DATABASE_URL ? await openBenchDatabase() : null;
  const runtime = await createRuntime({
    config,
    log: createLogger(config),
    api: true,
    workers: true,
    ...(database ? { db: database.db } : {}),
  });
  const app = runtime.app!;
  const annotators = await Promise.all(Array.from({ length: servers }, startAnnotator));
  process.on('exit', () => annotators.forEach((a) => a.child.kill('SIGTERM'))); // also when a step below fails
  const team = (
    await app.inject({ method: 'POST', url: '/api/teams', payload: { name: `memory ${process.pid}`, contact: 'm@example.org' } })
  ).json().token as string;
  for (const [i, a] of annotators.entries()) {
    const auth = { authorization: `Bearer ${team}` };
    const server = (
      await app.inject({
        method: 'POST',
        url: '/api/challenges/live/servers',
        headers: auth,
        payload: { name: `s${i}`, url: a.url, tasks: ['MENTION', 'INT'] },
      })
    ).json();
    await app.inject({ method: 'POST', url: `/api/servers/${server.id}/start`, headers: auth });
  }
  const sentence = 'The 𝛼-synuclein (P37840) protein binds BRCA1 (P38398) and TP53 in the nucleus of human cells. ';
  const text = (i: number) => `${i} `.padEnd(12) + sentence.repeat(Math.floor((bytes - 12) / Buffer.byteLength(sentence)));
  const pending = async () =>
    Number((await runtime.db.query<{ n: string }>(`select count(*) as n from deliveries where state in ('queued', 'active')`))[0].n);
  async function round(from: number, n: number): Promise<void> {
    const ids: string[] = [];
    for (let i = from; i < from + n; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/articles',
        payload: { text: text(i) },
        remoteAddress: `10.${(i >> 8) & 255}.${i & 255}.1`,
      });
      if (res.statusCode !== 202) throw new Error(`submission ${i}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      ids.push(res.json().id);
    }
    while ((await pending()) > 0) await new Promise((r) => setTimeout(r, 200));
    for (const id of ids) {
      await app.inject({ method: 'GET', url: `/api/articles/${id}` });
      await app.inject({ method: 'GET', url: `/api/articles/${id}?weights=1:2` });
    }
  }
  const usage = () => {
    gc();
    gc();
    const m = process.memoryUsage();
    return { heap: m.heapUsed / 2 ** 20, external: m.external / 2 ** 20, rss: m.rss / 2 ** 20 };
  };
  const t0 = Date.now();
  await round(0, warmUp);
  await new Promise((r) => setTimeout(r, 500));
  const before = usage();
  await round(warmUp, articles);
  await new Promise((r) => setTimeout(r, 500));
  const after = usage();
  await runtime.close();
  await database?.drop();
  for (const a of annotators) a.child.kill('SIGTERM');
  await redis.stop();
  rmSync(dataDir, { recursive: true, force: true });
  return {
    allocator: process.env.MALLOC_MMAP_THRESHOLD_ ? `MALLOC_MMAP_THRESHOLD_=${process.env.MALLOC_MMAP_THRESHOLD_}` : 'glibc default',
    seconds: (Date.now() - t0) / 1000,
    heapMiB: (after.heap - before.heap) / articles,
    externalMiB: (after.external - before.external) / articles,
    rssMiB: (after.rss - before.rss) / articles,
    before,
  };
}

if (process.argv.includes('--measure')) {
  const figures = await measure();
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  process.exit(0);
}

/** One measuring process with the given environment; its figures. */
function run(env: NodeJS.ProcessEnv): Promise<Figures> {
  const child = spawn(process.execPath, ['--import', 'tsx', here, ...process.argv.slice(2), '--measure'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`measuring process exited with ${code}`)),
    ),
  );
}

console.log(machine());
console.log(
  `${articles} on-demand articles of ${mib} MiB after ${warmUp} to warm up, ${servers} sample servers (own processes) answering MENTION and INT, ` +
    `${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite on disk'}; kept per article after a full GC (ratio to the article's size)`,
);
const { MALLOC_MMAP_THRESHOLD_: _unset, ...plain } = process.env;
for (const env of [plain, { ...plain, MALLOC_MMAP_THRESHOLD_: '131072' }]) {
  const f = await run(env);
  const ratio = (x: number) => `${fmt(x, 2)} MiB (${fmt(x / mib, 2)}x)`;
  console.log(
    `${f.allocator.padEnd(30)} heap ${ratio(f.heapMiB)}, external ${ratio(f.externalMiB)}, heap + external ${ratio(f.heapMiB + f.externalMiB)}, ` +
      `resident ${ratio(f.rssMiB)}; before: resident ${fmt(f.before.rss, 0)} MiB; ${fmt(f.seconds, 0)} s`,
  );
}
