// Shared pieces of the dispatch benchmarks: the machine line, a database (PGlite in memory,
// or PostgreSQL in a schema of its own when DATABASE_URL is set), an in-process runtime with
// a private queue prefix, and the setup every bench needs (a challenge, teams, servers,
// 100 KB articles). Everything goes through the public HTTP API (app.inject), as a real
// organiser and teams would.
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { loadConfig, type Config } from '../../src/config.ts';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import type { Database, Queryable } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { createLogger } from '../../src/log.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';

export const ADMIN = 'bench-admin-token-0123456789';

// Every bench stops by itself, even if something hangs (BENCH_TIME_LIMIT_S, default 20 minutes).
setTimeout(
  () => {
    console.error('bench: time limit reached; stopping');
    process.exit(3);
  },
  Number(process.env.BENCH_TIME_LIMIT_S ?? 1200) * 1000,
).unref();

export function machine(): string {
  const la = loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  return `machine: ${cpus()[0]?.model} × ${cpus().length}, Node ${process.version}, load average ${la}`;
}

export const pct = (xs: number[], p: number): number =>
  xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

export const fmt = (x: number, d = 2): string => (Number.isFinite(x) ? x.toFixed(d) : '—');

/** A distinct ~100 KB article (ASCII plus a character outside the BMP, as real articles have). */
export function articleText(i: number, bytes = 100_000): string {
  const unit = `Article ${i}: 𝛼-synuclein (P37840) interacts with BRCA1 (P38398) and binds TP53 in yeast cells. `;
  return unit.repeat(Math.ceil(bytes / Buffer.byteLength(unit))).slice(0, bytes);
}

export interface BenchDatabase {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** For child processes: a DATABASE_URL that reaches the same schema. */
  url?: string;
  drop(): Promise<void>;
}

/** With BENCH_SQL_STATS=1: time spent per SQL statement (first 70 characters), printed by printSqlStats. */
const sqlStats = new Map<string, { n: number; ms: number }>();

/** Runs fn and adds its time to the statement's line (the first 70 characters of sql). */
async function timing<T>(sql: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await fn();
  } finally {
    const key = sql.replace(/\s+/g, ' ').slice(0, 70);
    const s = sqlStats.get(key) ?? { n: 0, ms: 0 };
    s.n++;
    s.ms += performance.now() - t0;
    sqlStats.set(key, s);
  }
}

function timed(q: Queryable['query']): Queryable['query'] {
  return (sql, params) => timing(sql, () => q(sql, params));
}

function withSqlStats(db: Database): Database {
  if (process.env.BENCH_SQL_STATS !== '1') return db;
  return {
    kind: db.kind,
    query: timed(db.query.bind(db)),
    exec: db.exec.bind(db),
    transaction: (fn) => db.transaction((tx) => fn({ query: timed(tx.query.bind(tx)), exec: tx.exec.bind(tx) })),
    script: (sql) => timing(sql, () => db.script(sql)),
    close: () => db.close(),
  };
}

export function printSqlStats(): void {
  if (sqlStats.size === 0) return;
  console.log('SQL statements by total time (wall, includes waiting for the database):');
  for (const [sql, s] of [...sqlStats].sort((a, b) => b[1].ms - a[1].ms).slice(0, 15)) {
    console.log(`  ${s.ms.toFixed(0).padStart(7)} ms  ${String(s.n).padStart(6)}×  ${(s.ms / s.n).toFixed(2).padStart(6)} ms  ${sql}`);
  }
}

export async function openBenchDatabase(): Promise<BenchDatabase> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const db = withSqlStats(await openPglite());
    await migrate(db);
    return { db, kind: 'pglite', drop: () => db.close() };
  }
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const db = withSqlStats(await openPostgres({ url, schema }));
  await migrate(db);
  const schemaUrl = new URL(url);
  schemaUrl.searchParams.set('options', `-c search_path=${schema}`);
  return {
    db,
    kind: 'postgres',
    url: schemaUrl.toString(),
    async drop() {
      await db.query(`drop schema "${schema}" cascade`);
      await db.close();
    },
  };
}

export function benchConfig(overrides: Partial<Config> = {}): Config {
  return loadConfig(process.env, {
    adminToken: ADMIN,
    logLevel: 'warn',
    queuePrefix: `bench${randomBytes(4).toString('hex')}`,
    submitRateLimitPerMinute: 1_000_000,
    checkTimeoutSeconds: 5,
    bodyLimitBytes: 64 * 1024 * 1024,
    ...overrides,
  });
}

export interface Bench {
  runtime: Runtime;
  config: Config;
  database: BenchDatabase;
  call<T = any>(method: string, url: string, body?: unknown, token?: string): Promise<{ status: number; body: T }>;
  stop(): Promise<void>;
}

export async function startBench(opts: { workers?: boolean; config?: Partial<Config> } = {}): Promise<Bench> {
  const config = benchConfig(opts.config);
  const database = await openBenchDatabase();
  const runtime = await createRuntime({ config, log: createLogger(config), db: database.db, api: true, workers: opts.workers ?? true });
  const app = runtime.app!;
  return {
    runtime,
    config,
    database,
    async call(method, url, body, token) {
      const res = await app.inject({
        method: method as 'GET',
        url,
        payload: body === undefined ? undefined : (body as object),
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      return { status: res.statusCode, body: (res.body ? res.json() : undefined) as never };
    },
    async stop() {
      await runtime.close();
      await cleanQueueKeys(runtime, config.queuePrefix);
      await database.drop();
    },
  };
}

/** Removes every Redis key of this run's queue prefix (the bench shares Redis with others). */
export async function cleanQueueKeys(runtime: Runtime, prefix: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(runtime.redis.url, { maxRetriesPerRequest: null });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

function ok<T>(what: string, res: { status: number; body: T }, expected = [200, 201, 202]): T {
  if (!expected.includes(res.status)) throw new Error(`${what}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body;
}

export const TASKS = ['ACT', 'INT', 'IPT'];

export interface Setup {
  slug: string;
  serverIds: number[];
  teamTokens: string[];
  articleIds: string[];
}

/**
 * A challenge with `servers` registered servers (urls(k) gives server k's URL) and
 * `articles` 100 KB articles loaded; the servers stay paused until startAll.
 */
export async function setupChallenge(
  bench: Bench,
  opts: {
    servers: number;
    articles: number;
    concurrency: number;
    urls: (k: number) => string;
    timeoutSeconds?: number;
    articleBytes?: number | ((i: number) => number);
    protocol?: string;
  },
): Promise<Setup> {
  const slug = `bench${randomBytes(3).toString('hex')}`;
  ok(
    'create challenge',
    await bench.call(
      'POST',
      '/api/challenges',
      {
        slug,
        name: 'Bench',
        tasks: TASKS,
        timeoutSeconds: opts.timeoutSeconds ?? 600,
        maxAttempts: 3,
        retryDelaySeconds: 1,
        serversPerTeam: 100,
      },
      ADMIN,
    ),
  );
  const team = ok(
    'register team',
    await bench.call<{ token: string }>('POST', '/api/teams', { name: `team-${slug}`, contact: 'bench@example.org' }),
  );
  const serverIds: number[] = [];
  for (let k = 0; k < opts.servers; k++) {
    const s = ok(
      'register server',
      await bench.call<{ id: number }>(
        'POST',
        `/api/challenges/${slug}/servers`,
        {
          name: `s${k}`,
          ...(opts.protocol === 'pull' ? {} : { url: opts.urls(k) }),
          tasks: TASKS,
          concurrency: opts.concurrency,
          ...(opts.protocol ? { protocol: opts.protocol } : {}),
        },
        team.token,
      ),
    );
    serverIds.push(s.id);
  }
  const articleIds: string[] = [];
  for (let i = 0; i < opts.articles; i += 50) {
    const batch = Array.from({ length: Math.min(50, opts.articles - i) }, (_, j) => ({
      id: `A${i + j}`,
      text: articleText(i + j, typeof opts.articleBytes === 'function' ? opts.articleBytes(i + j) : opts.articleBytes),
    }));
    const loaded = ok(
      'load articles',
      await bench.call<{ ids: Record<string, string> }>('POST', `/api/challenges/${slug}/articles`, { articles: batch }, ADMIN),
    );
    articleIds.push(...batch.map((a) => loaded.ids[a.id]));
  }
  return { slug, serverIds, teamTokens: [team.token], articleIds };
}

export async function startAll(bench: Bench, setup: Setup): Promise<void> {
  for (const id of setup.serverIds)
    ok('start server', await bench.call('POST', `/api/servers/${id}/start`, undefined, setup.teamTokens[0]));
}

/** Resolves when `done` deliveries reach `total` (or fails after timeoutMs); polls every pollMs. */
export async function waitDeliveries(db: Database, serverIds: number[], total: number, timeoutMs: number, pollMs = 100): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await db.query<{ n: string }>(
      `select count(*) as n from deliveries where server_id = any($1::int[]) and state in ('done', 'failed')`,
      [serverIds],
    );
    const n = Number(rows[0].n);
    if (n >= total) return n;
    if (Date.now() > deadline) throw new Error(`only ${n} of ${total} deliveries settled in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

// With BENCH_CPU_PROF=file.cpuprofile: a CPU profile of the measured phase only (not the
// database start, the floors or the setup), to open in Chrome DevTools or speedscope.
let session: Session | undefined;

export async function startProfile(): Promise<void> {
  if (!process.env.BENCH_CPU_PROF) return;
  session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
}

export async function stopProfile(): Promise<void> {
  if (!session) return;
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(process.env.BENCH_CPU_PROF!, JSON.stringify(profile));
  session.disconnect();
  session = undefined;
  console.log(`CPU profile of the measured phase written to ${process.env.BENCH_CPU_PROF}`);
}
