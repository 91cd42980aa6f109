// The meta-server through PgBouncer in transaction pooling, configured by the file the docs
// show (docs/deploy/pgbouncer.ini): migrations, an API and a separate worker process all go
// through it, on a database of their own (PgBouncer does not pass the `options=-c
// search_path` other tests isolate themselves with), and every article × server pair is
// answered exactly once, with nothing in PgBouncer's log about the meta-server's session use.
// Needs PostgreSQL (DATABASE_URL) and Debian's pgbouncer; CI has both.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { pgbouncerInstalled, startPgBouncer, type PgBouncer } from '../support/pgbouncer.ts';
import { serverSettled, startTestMetaserver, type TestMetaserver } from '../support/runtime.ts';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.ts';

const DATABASE_URL = process.env.DATABASE_URL;
const skipReason = !DATABASE_URL
  ? 'DATABASE_URL is not set (no PostgreSQL to put PgBouncer in front of)'
  : !pgbouncerInstalled()
    ? 'pgbouncer is not installed (Debian: apt-get install pgbouncer)'
    : undefined;
if (skipReason) console.warn(`test/deploy/pgbouncer.test.ts skipped: ${skipReason}`);

const ARTICLES = 20;

/** One admin-console command: the console speaks the simple query protocol only, as pg sends a query without parameters. */
async function consoleRows(url: string, command: string): Promise<Array<Record<string, string>>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(command)).rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(Boolean(skipReason))('through PgBouncer in transaction pooling', () => {
  const dbname = `t_pgbouncer_${randomBytes(5).toString('hex')}`;
  let admin: Database;
  let pgbouncer: PgBouncer;
  let db: Database;
  let applied: string[];
  let ms: TestMetaserver;
  let worker: WorkerProcess;
  const servers: FaultyServer[] = [];

  beforeAll(async () => {
    admin = await openPostgres({ url: DATABASE_URL!, max: 1 });
    await admin.query(`create database ${dbname}`);
    pgbouncer = await startPgBouncer(DATABASE_URL!, dbname);
    db = await openPostgres({ url: pgbouncer.url });
    applied = await migrate(db);
    ms = await startTestMetaserver({ workers: false, database: { db, url: pgbouncer.url, drop: async () => {} } });
    worker = await startWorkerProcess(ms.config, pgbouncer.url);
    servers.push(await startFaultyServer({ kind: 'good' }), await startFaultyServer({ kind: 'good' }));
  }, 30_000);
  afterAll(async () => {
    worker?.kill('SIGTERM');
    await worker?.exited;
    await ms?.stop();
    await db?.close();
    await pgbouncer?.stop();
    await Promise.all(servers.map((s) => s.close()));
    await admin?.query(`drop database if exists ${dbname} with (force)`);
    await admin?.close();
  });

  it('is transaction pooling, as the file says', async () => {
    const config = await consoleRows(pgbouncer.adminUrl, 'SHOW CONFIG');
    expect(config.find((row) => row.key === 'pool_mode')?.value).toBe('transaction');
    const pools = await consoleRows(pgbouncer.adminUrl, 'SHOW POOLS');
    expect(pools.find((row) => row.database === 'metaserver')?.pool_mode).toBe('transaction');
  });

  it('migrates, and an API and a worker process answer every pair exactly once', async () => {
    expect(applied.length, 'a fresh database: every migration ran through PgBouncer').toBeGreaterThan(0);
    const { token } = await ms.team('Pooled');
    await ms.challenge('pooled', { name: 'Pooled', tasks: ['INT'] });
    const articles = Array.from({ length: ARTICLES }, (_, i) => ({ id: `P${i}`, text: `Article ${i}: BRCA1 (P38398) binds TP53.` }));
    await ms.articles('pooled', articles);
    const registered = [];
    for (const [i, server] of servers.entries()) {
      registered.push(await ms.server('pooled', token, { name: `pooled-${i}`, url: server.url, tasks: ['INT'] }));
    }
    for (const server of registered) await ms.startServer(server.id, token);
    for (const server of registered) await serverSettled(ms, server.id, ARTICLES, 20_000);

    const answers = await db.query<{ n: number; pairs: number }>(
      'select count(*)::int as n, count(distinct (article_id, server_id))::int as pairs from answers',
    );
    expect(answers[0]).toEqual({ n: ARTICLES * servers.length, pairs: ARTICLES * servers.length });
    // Good servers answer the first time: one attempt per pair, none recorded twice.
    const attempts = await db.query<{ pair_attempts: number; pairs: number }>(
      `select count(*)::int as pairs, max(n)::int as pair_attempts
         from (select count(*) as n from attempts group by article_id, server_id) per_pair`,
    );
    expect(attempts[0]).toEqual({ pairs: ARTICLES * servers.length, pair_attempts: 1 });
    expect(worker.child.exitCode, 'the worker process is still running').toBeNull();

    // The work went through PgBouncer's pool: it counted the transactions.
    const stats = await consoleRows(pgbouncer.adminUrl, 'SHOW STATS');
    expect(Number(stats.find((row) => row.database === 'metaserver')?.total_xact_count)).toBeGreaterThan(ARTICLES * servers.length);
    // Nothing the meta-server did needed a session PgBouncer does not keep (a prepared
    // statement, a setting, a lock outliving its transaction would show here as an error).
    expect(pgbouncer.log()).toMatch(/process up/);
    expect(pgbouncer.log()).not.toMatch(/WARNING|ERROR|FATAL|prepared statement/i);
  });
});
