// A mini challenge on one machine under fire. Installation A: 20 loopback annotation
// servers with mixed behaviours, SOAK_ARTICLES articles, short deadlines, two `metaserver
// worker` processes of which one is killed (SIGKILL) every few seconds and started again,
// and a `metaserver api` process. Installation B: a second meta-server (its own database
// schema, default settings) sharing the same Redis, dispatching at the same time. Events on
// A, by progress:
//   15%  Redis stopped; the last quarter of the articles loaded and the phase changed
//        through the API process (each answer timed), which is then killed (SIGKILL);
//        Redis started again after SOAK_REDIS_DOWN_MS, a new API process;
//   35%  Redis restarted (its append-only file keeps the queues);
//   55%  the challenge closed through the API process, which is killed at once; closed for
//        SOAK_CLOSED_MS; reopened ({"reopen": true}) through a new one.
// Prints, per installation, requests, outcomes, lost, duplicated and stuck pairs (all must
// be 0), attempts begun and answers stored while closed (0), the request times while Redis
// was down, wall time and the machine.
//   DATABASE_URL=postgres://… node --import tsx bench/soak.ts
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.ts';
import type { Database } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { createLogger } from '../src/log.ts';
import { freePort } from '../src/queue/redis-launcher.ts';
import { createRuntime, type Runtime } from '../src/runtime.ts';
import { annotate } from '../src/sample/annotator.ts';
import { mulberry32 } from '../src/shared/prng.ts';
import { startFaultyServer, type Behaviour, type FaultyServer } from '../test/support/faulty-servers.ts';
import { startPrivateRedis } from '../test/support/private-redis.ts';
import { closedViolations, soakCounts } from './support/soak-counts.ts';

const ARTICLES = Number(process.env.SOAK_ARTICLES ?? 600);
const KILL_EVERY_MS = Number(process.env.SOAK_KILL_EVERY_MS ?? 4000);
const REDIS_DOWN_MS = Number(process.env.SOAK_REDIS_DOWN_MS ?? 5000);
const CLOSED_MS = Number(process.env.SOAK_CLOSED_MS ?? 5000);
const LIMIT_MS = Number(process.env.SOAK_LIMIT_MS ?? 20 * 60_000);
const ADMIN = `soak-admin-${randomBytes(8).toString('hex')}`;
const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'metaserver.js');
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  process.stderr.write('bench/soak.ts needs DATABASE_URL (PostgreSQL shared by the worker processes)\n');
  process.exit(2);
}

const random = mulberry32(Number(process.env.SOAK_SEED ?? 7));
const sometimesBroken = (p: number): Behaviour => ({
  kind: 'custom',
  handler: (text, given) => {
    if (random() < p) throw new Error('injected crash'); // the loopback server drops the connection
    return annotate(text, given);
  },
});
const BEHAVIOURS: Array<[string, Behaviour]> = [
  ...Array.from({ length: 6 }, (_, i): [string, Behaviour] => [`good-${i}`, { kind: 'good' }]),
  ...Array.from({ length: 3 }, (_, i): [string, Behaviour] => [`slow-${i}`, { kind: 'delayed', ms: 150 + 100 * i }]),
  ...Array.from({ length: 3 }, (_, i): [string, Behaviour] => [`flaky-${i}`, sometimesBroken(0.2 + 0.1 * i)]),
  ['http-500', { kind: 'http', status: 500 }],
  ['http-502', { kind: 'http', status: 502 }],
  ['hang', { kind: 'hang' }],
  ['fault', { kind: 'fault' }],
  ['wrong-types', { kind: 'wrongTypes' }],
  ['truncated', { kind: 'truncated' }],
  ['reset', { kind: 'reset' }],
  ['html', { kind: 'html' }],
];
// The processes run from the bundle, as `npm start` and a deployment run them (built now if the sources changed).
await ((await import(new URL('../scripts/bundle.mjs', import.meta.url).href)) as { ensureBundle(): Promise<void> }).ensureBundle();
const TIMING = { lockDurationMs: 2000, stalledIntervalMs: 1000, serverSyncIntervalMs: 500, reconcileIntervalMs: 2000 };
const redis = await startPrivateRedis();

/** One installation: its own schema, an in-process API (set-up and read-outs) with the default key prefix. */
interface Installation {
  name: string;
  schema: string;
  url: string;
  db: Database;
  runtime: Runtime;
  call(method: string, path: string, body?: unknown, token?: string): Promise<any>;
}

async function installation(name: string): Promise<Installation> {
  const schema = `soak_${name}_${randomBytes(4).toString('hex')}`;
  const url = new URL(databaseUrl!);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const db = await openPostgres({ url: databaseUrl!, schema });
  await migrate(db);
  const config = loadConfig(
    {},
    {
      redisUrl: redis.url,
      databaseUrl: url.toString(),
      adminToken: ADMIN,
      logLevel: 'silent',
      queuePrefix: '',
      checkTimeoutSeconds: 1,
      ...TIMING,
    },
  );
  const runtime = await createRuntime({ config, log: createLogger(config), db, api: true, workers: false });
  const call = async (method: string, path: string, body?: unknown, token = ADMIN) => {
    const res = await runtime.app!.inject({
      method: method as 'GET',
      url: path,
      payload: body as object,
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.statusCode >= 400) throw new Error(`${name}: ${method} ${path}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  return { name, schema, url: url.toString(), db, runtime, call };
}

/** A `metaserver worker` or `api` process of the installation; resolves once it is ready. */
async function service(inst: Installation, mode: 'worker' | 'api', port = 0): Promise<ChildProcess> {
  const env = {
    ...process.env,
    DATABASE_URL: inst.url,
    REDIS_URL: redis.url,
    METASERVER_QUEUE_PREFIX: '',
    METASERVER_ADMIN_TOKEN: ADMIN,
    LOG_LEVEL: 'info',
    METASERVER_LOCK_DURATION_MS: String(TIMING.lockDurationMs),
    METASERVER_STALLED_INTERVAL_MS: String(TIMING.stalledIntervalMs),
    METASERVER_SERVER_SYNC_INTERVAL_MS: String(TIMING.serverSyncIntervalMs),
    METASERVER_RECONCILE_INTERVAL_MS: String(TIMING.reconcileIntervalMs),
    PORT: String(port),
    HOST: '127.0.0.1',
  };
  const child = spawn(process.execPath, [BIN, mode], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  const ready = mode === 'api' ? 'metaserver is serving on' : 'metaserver worker is taking jobs';
  await new Promise<void>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      if (line.includes(ready)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`${inst.name}: a ${mode} process exited with ${code} before it was ready`)));
  });
  child.stdout.resume();
  return child;
}

/** A request to an API process; never waits more than 10 s. */
async function http(base: string, method: string, path: string, body?: unknown) {
  const started = Date.now();
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` },
    });
    await res.arrayBuffer();
    return { status: res.status, ms: Date.now() - started };
  } catch (err) {
    return { status: 0, ms: Date.now() - started, error: (err as Error).message };
  }
}

const killed = async (child: ChildProcess) => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const A = await installation('a');
const B = await installation('b');
const servers: FaultyServer[] = [];
const children: ChildProcess[] = [];
process.once('SIGINT', () => {
  for (const c of children) c.kill('SIGKILL');
  process.exit(130);
});
const started = Date.now();

/** A challenge with articles and servers, started; returns the challenge id and the servers' ids. */
async function challenge(inst: Installation, behaviours: Array<[string, Behaviour]>, articles: Array<{ id: string; text: string }>) {
  const c = await inst.call('POST', '/api/challenges', {
    slug: 'soak',
    name: 'Soak',
    tasks: ['INT', 'MENTION'],
    timeoutSeconds: 1,
    maxAttempts: 3,
    retryDelaySeconds: 1,
    serversPerTeam: 20,
  });
  await inst.call('POST', '/api/challenges/soak/articles', { articles });
  const team = await inst.call('POST', '/api/teams', { name: `Soak team ${inst.name}`, contact: 'soak@example.org' });
  const ids: number[] = [];
  for (const [name, behaviour] of behaviours) {
    const s = await startFaultyServer(behaviour);
    servers.push(s);
    // Timeouts take the whole deadline: more connections in flight keep the run short.
    const concurrency = behaviour.kind === 'hang' ? 40 : 8;
    ids.push(
      (await inst.call('POST', '/api/challenges/soak/servers', { name, url: s.url, tasks: ['INT', 'MENTION'], concurrency }, team.token))
        .id,
    );
  }
  for (const id of ids) await inst.call('POST', `/api/servers/${id}/start`, undefined, team.token);
  return { id: c.id as number, servers: ids };
}

const articleList = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `${prefix}${i}`,
    text: `Article ${i}: BRCA1 (P38398) binds TP53; SNCA (P37840) ${'x'.repeat(i % 50)}.`,
  }));
const all = articleList('S', ARTICLES);
const later = all.splice(Math.floor(ARTICLES * 0.75)); // loaded while Redis is down
const a = await challenge(A, BEHAVIOURS, all);
const b = await challenge(
  B,
  BEHAVIOURS.filter(([n]) => /^(good|flaky)-[01]$/.test(n)),
  articleList('B', Math.ceil(ARTICLES / 4)),
);

const workersA = [await service(A, 'worker'), await service(A, 'worker')];
const workerB = await service(B, 'worker');
children.push(...workersA, workerB);
const apiPort = await freePort();
let api = await service(A, 'api', apiPort);
children.push(api);
const apiUrl = `http://127.0.0.1:${apiPort}`;
const newApi = async () => {
  api = await service(A, 'api', apiPort);
  children.push(api);
};

let kills = 0;
const killer = setInterval(() => {
  const i = Math.floor(random() * workersA.length);
  void killed(workersA[i]);
  void service(A, 'worker').then(
    (w) => {
      workersA[i] = w;
      children.push(w);
    },
    () => {},
  );
  kills++;
}, KILL_EVERY_MS);

const settled = async (inst: Installation) =>
  Number((await inst.db.query<{ n: number }>(`select count(*)::int as n from deliveries where state in ('done', 'failed')`))[0].n);
const queuesEmpty = async (inst: Installation, ids: number[]) => {
  for (const id of ids) {
    const c = await inst.runtime.ctx.dispatch.queues.counts(id);
    if (c.active + c.waiting + c.delayed + c.prioritized > 0) return false;
  }
  return true;
};
const totalA = a.servers.length * ARTICLES;
const totalB = b.servers.length * Math.ceil(ARTICLES / 4);
const events: Record<string, unknown> = {};
const say = (what: string) => process.stderr.write(`${((Date.now() - started) / 1000).toFixed(1)} s: ${what}\n`);

for (;;) {
  const n = await settled(A);
  if (!events.redisDown && n >= totalA * 0.15) {
    await redis.halt();
    const load = await http(apiUrl, 'POST', '/api/challenges/soak/articles', { articles: later });
    const phase = await http(apiUrl, 'PATCH', '/api/challenges/soak', { phase: 'test' });
    await killed(api);
    events.redisDown = { atSettled: n, load, phase, downMs: REDIS_DOWN_MS };
    say(
      `Redis stopped at ${n}/${totalA}; ${later.length} articles loaded (${load.status} in ${load.ms} ms), phase (${phase.status} in ${phase.ms} ms); API killed`,
    );
    await sleep(REDIS_DOWN_MS);
    await redis.restart();
    await newApi();
    say('Redis and the API process back');
  } else if (events.redisDown && !events.redisRestart && n >= totalA * 0.35) {
    await redis.restart();
    events.redisRestart = { atSettled: n };
    say(`Redis restarted at ${n}/${totalA}`);
  } else if (events.redisRestart && !events.closed && n >= totalA * 0.55) {
    const close = await http(apiUrl, 'PATCH', '/api/challenges/soak', { phase: 'closed' });
    await killed(api);
    say(`closed at ${n}/${totalA} (${close.status} in ${close.ms} ms); API killed`);
    await sleep(CLOSED_MS);
    await newApi();
    const reopen = await http(apiUrl, 'PATCH', '/api/challenges/soak', { phase: 'test', reopen: true });
    events.closed = { atSettled: n, close, closedMs: CLOSED_MS, reopen };
    say(`reopened (${reopen.status} in ${reopen.ms} ms)`);
  }
  if (
    events.closed &&
    n === totalA &&
    (await settled(B)) === totalB &&
    (await queuesEmpty(A, a.servers)) &&
    (await queuesEmpty(B, b.servers))
  )
    break;
  if (Date.now() - started > LIMIT_MS) {
    say(`gave up after ${LIMIT_MS / 1000} s with ${n}/${totalA} settled`);
    break;
  }
  await sleep(1000);
}
clearInterval(killer);
const wallSeconds = (Date.now() - started) / 1000;

const summary = {
  a: {
    prefix: A.runtime.ctx.config.queuePrefix,
    ...(await soakCounts(A.db, A.runtime.ctx.dispatch.queues, a.id)),
    whileClosed: await closedViolations(A.db, a.id),
  },
  b: { prefix: B.runtime.ctx.config.queuePrefix, ...(await soakCounts(B.db, B.runtime.ctx.dispatch.queues, b.id)) },
  events,
  workerKills: kills,
  wallSeconds,
  machine: `${cpus().length} × ${cpus()[0]?.model.trim()}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
};
process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);

for (const c of children) await killed(c);
for (const inst of [A, B]) {
  await inst.runtime.close();
  await inst.db.query(`drop schema "${inst.schema}" cascade`);
  await inst.db.close();
}
await Promise.all(servers.map((s) => s.close()));
await redis.stop();
const bad =
  [summary.a, summary.b].some((s) => s.lost + s.duplicated + s.stuck > 0) ||
  summary.a.whileClosed.attemptsBegun + summary.a.whileClosed.answersStored > 0;
process.exit(bad ? 1 : 0);
