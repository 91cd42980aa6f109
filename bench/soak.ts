// A mini challenge on one machine: 20 loopback annotation servers with mixed behaviours,
// 600 articles, short deadlines, two `metaserver worker` processes of which one is killed
// (SIGKILL) every few seconds and started again, and Redis (a private redis-server with an
// append-only file) restarted once. Prints requests, outcomes by kind, lost and duplicated
// answers (both must be 0), wall time and the machine.
//   DATABASE_URL=postgres://… node --import tsx bench/soak.ts
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { createLogger } from '../src/log.ts';
import { createRuntime } from '../src/runtime.ts';
import { annotate } from '../src/sample/annotator.ts';
import { startFaultyServer, type Behaviour, type FaultyServer } from '../test/support/faulty-servers.ts';
import { startPrivateRedis } from '../test/support/private-redis.ts';

const ARTICLES = Number(process.env.SOAK_ARTICLES ?? 600);
const KILL_EVERY_MS = Number(process.env.SOAK_KILL_EVERY_MS ?? 4000);
const ADMIN = `soak-admin-${randomBytes(8).toString('hex')}`;
const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'metaserver.js');
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  process.stderr.write('bench/soak.ts needs DATABASE_URL (PostgreSQL shared by the worker processes)\n');
  process.exit(2);
}

// Seeded, so a run can be repeated: mulberry32.
let seed = Number(process.env.SOAK_SEED ?? 7);
const random = (): number => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
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
  ['http-500', { kind: 'http', status: 500 }], ['http-502', { kind: 'http', status: 502 }], ['hang', { kind: 'hang' }],
  ['fault', { kind: 'fault' }], ['wrong-types', { kind: 'wrongTypes' }], ['truncated', { kind: 'truncated' }],
  ['reset', { kind: 'reset' }], ['html', { kind: 'html' }],
];

const schema = `soak_${randomBytes(5).toString('hex')}`;
const schemaUrl = new URL(databaseUrl);
schemaUrl.searchParams.set('options', `-c search_path=${schema}`);
const db = await openPostgres({ url: databaseUrl, schema });
await migrate(db);
const redis = await startPrivateRedis();
const config = loadConfig({}, {
  redisUrl: redis.url, databaseUrl: schemaUrl.toString(), adminToken: ADMIN, logLevel: 'silent', queuePrefix: `soak${randomBytes(3).toString('hex')}`,
  lockDurationMs: 2000, stalledIntervalMs: 1000, serverSyncIntervalMs: 500, checkTimeoutSeconds: 1,
});
const api = await createRuntime({ config, log: createLogger(config), db, api: true, workers: false });
const call = async (method: string, url: string, body?: unknown, token = ADMIN) => {
  const res = await api.app!.inject({ method: method as 'GET', url, payload: body as object, headers: { authorization: `Bearer ${token}` } });
  if (res.statusCode >= 400) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
};

function startWorker(): ChildProcess {
  const env = {
    ...process.env, DATABASE_URL: schemaUrl.toString(), REDIS_URL: redis.url, METASERVER_QUEUE_PREFIX: config.queuePrefix, METASERVER_ADMIN_TOKEN: ADMIN,
    METASERVER_LOCK_DURATION_MS: '2000', METASERVER_STALLED_INTERVAL_MS: '1000', METASERVER_SERVER_SYNC_INTERVAL_MS: '500', LOG_LEVEL: 'warn',
  };
  return spawn(process.execPath, [BIN, 'worker'], { env, stdio: 'ignore' });
}

const servers: FaultyServer[] = [];
const started = Date.now();
await call('POST', '/api/challenges', { slug: 'soak', name: 'Soak', tasks: ['INT', 'MENTION'], timeoutSeconds: 1, maxAttempts: 3, retryDelaySeconds: 1, serversPerTeam: 20 });
const articles = Array.from({ length: ARTICLES }, (_, i) => ({ id: `S${i}`, text: `Article ${i}: BRCA1 (P38398) binds TP53; SNCA (P37840) ${'x'.repeat(i % 50)}.` }));
await call('POST', '/api/challenges/soak/articles', { articles });
const team = await call('POST', '/api/teams', { name: 'Soak team', contact: 'soak@example.org' });
const ids: number[] = [];
for (const [name, behaviour] of BEHAVIOURS) {
  const s = await startFaultyServer(behaviour);
  servers.push(s);
  // Timeouts take the whole deadline: more connections in flight keep the run short.
  const concurrency = behaviour.kind === 'hang' ? 40 : 8;
  ids.push((await call('POST', '/api/challenges/soak/servers', { name, url: s.url, tasks: ['INT', 'MENTION'], concurrency }, team.token)).id);
}
const workers = [startWorker(), startWorker()];
// Interrupted by hand: take the worker processes along.
process.once('SIGINT', () => {
  for (const w of workers) w.kill('SIGKILL');
  process.exit(130);
});
for (const id of ids) await call('POST', `/api/servers/${id}/start`, undefined, team.token);

let kills = 0;
let redisRestarted = false;
const killer = setInterval(() => {
  const i = Math.floor(random() * workers.length);
  workers[i]!.kill('SIGKILL');
  workers[i] = startWorker();
  kills++;
}, KILL_EVERY_MS);

const total = ids.length * ARTICLES;
const settled = async () => Number((await db.query<{ n: number }>(`select count(*)::int as n from deliveries where state in ('done', 'failed')`))[0]!.n);
const queuesEmpty = async () => {
  for (const id of ids) {
    const c = await api.ctx.dispatch.queues.counts(id);
    if (c.active + c.waiting + c.delayed + c.prioritized > 0) return false;
  }
  return true;
};
const LIMIT_MS = Number(process.env.SOAK_LIMIT_MS ?? 20 * 60_000);
for (;;) {
  const n = await settled();
  if (!redisRestarted && n >= total * 0.3) {
    await redis.restart();
    redisRestarted = true;
    process.stderr.write(`redis restarted at ${n}/${total} settled\n`);
  }
  if (n === total && (await queuesEmpty())) break;
  if (Date.now() - started > LIMIT_MS) {
    process.stderr.write(`gave up after ${LIMIT_MS / 1000} s with ${n}/${total} settled\n`);
    break;
  }
  await new Promise((r) => setTimeout(r, 1000));
}
clearInterval(killer);
const wallS = (Date.now() - started) / 1000;

const one = async (sql: string) => Number((await db.query<{ n: number }>(sql))[0]!.n);
const byKind = await db.query<{ outcome: string; n: number }>(`select coalesce(outcome, 'running') as outcome, count(*)::int as n from attempts group by 1 order by 2 desc`);
const summary = {
  servers: ids.length, articles: ARTICLES, pairs: total,
  requests: await one('select count(*)::int as n from attempts'),
  outcomes: Object.fromEntries(byKind.map((r) => [r.outcome, r.n])),
  done: await one(`select count(*)::int as n from deliveries where state = 'done'`),
  failed: await one(`select count(*)::int as n from deliveries where state = 'failed'`),
  // lost: a pair that never settled, a done pair without its answer, or an ok attempt whose answer is missing
  lost: (total - (await settled()))
    + (await one(`select count(*)::int as n from deliveries d where d.state = 'done' and not exists (select 1 from answers a where a.article_id = d.article_id and a.server_id = d.server_id)`))
    + (await one(`select count(*)::int as n from attempts t where t.outcome = 'ok' and not exists (select 1 from answers a where a.article_id = t.article_id and a.server_id = t.server_id)`)),
  duplicated: await one('select count(*)::int as n from (select 1 from answers group by article_id, server_id having count(*) > 1) x')
    + await one(`select count(*)::int as n from (select 1 from attempts where outcome = 'ok' group by article_id, server_id having count(*) > 1) x`),
  workerKills: kills, redisRestarts: redisRestarted ? 1 : 0, wallSeconds: wallS,
  machine: `${cpus().length} × ${cpus()[0]?.model.trim()}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`,
};
process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);

for (const w of workers) w.kill('SIGKILL');
await api.close();
await Promise.all(servers.map((s) => s.close()));
await db.query(`drop schema "${schema}" cascade`);
await db.close();
await redis.stop();
process.exit(summary.lost === 0 && summary.duplicated === 0 ? 0 : 1);
