// A database outage mid-dispatch is logged once, not once per job that meets it (a 60 s
// outage once wrote 14,047 warnings), and once more when it is over, with how many
// requests were put back; /metrics counts them. The outage is real: a second connection
// locks the dispatch tables of the meta-server's own PostgreSQL database and terminates
// every backend that waits on them, until it lets go. PostgreSQL only (DATABASE_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { openPostgres } from '../../src/db/postgres.ts';
import type { Database } from '../../src/db/database.ts';
import { startSampleServer, type SampleServer } from '../../src/sample/server.ts';
import { ADMIN_TOKEN, openTestDatabase, serverSettled, startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';

const ARTICLES = 100;
const lines: { level: number; msg: string; repeats?: number }[] = [];
let ms: TestMetaserver;
let sample: SampleServer;
let outage: Database;

beforeAll(async () => {
  if (!process.env.DATABASE_URL) return;
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const database = await openTestDatabase('postgres', { ownDatabase: true });
  // Work the outage cut off mid-write is found again by the reconciler: soon, so the test does not wait for its default pass.
  ms = await startTestMetaserver({ database, log, config: { databaseWriteRetries: 0, reconcileIntervalMs: 1_000 } });
  // One connection: the lock is taken and held in one transaction.
  outage = await openPostgres({ url: database.url!, max: 1 });
  sample = await startSampleServer({ port: 0 });
});
afterAll(async () => {
  await outage?.query('rollback').catch(() => {});
  await outage?.close();
  await ms?.stop();
  await ms?.database.drop();
  await sample?.close();
});

const warnings = () => lines.filter((l) => l.msg.startsWith('database unreachable since'));
const summaries = () => lines.filter((l) => l.msg.startsWith('database unreachable no more'));

async function metrics(): Promise<string> {
  return (await ms.app!.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).body;
}

async function putBackSoFar(): Promise<number> {
  return Number(/^metaserver_database_write_errors_total (\d+)$/m.exec(await metrics())?.[1] ?? 0);
}

/** Terminates the backends of the meta-server's database that wait on the locked tables. */
async function terminateWaiting(): Promise<void> {
  await outage.query(
    `select pg_terminate_backend(pid) from pg_stat_activity
     where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'`,
  );
}

describe.skipIf(!process.env.DATABASE_URL)('a database outage mid-dispatch', () => {
  it('warns once when it starts and sums up once when it is over; every pair is answered', async () => {
    await ms.challenge('outage', { name: 'Outage', timeoutSeconds: 10 });
    await ms.articles(
      'outage',
      Array.from({ length: ARTICLES }, (_, i) => ({ id: `O${i}`, text: `BRCA1 (P38398) binds TP53, number ${i}.` })),
    );
    const token = (await ms.team('Outage team')).token;
    const serverId = (await ms.server('outage', token, { name: 'sample', url: sample.url, concurrency: 4 })).id;

    await ms.startServer(serverId, token);
    await waitFor('the first answers', async () => {
      const done = await ms.database.db.query(`select 1 from deliveries where server_id = $1 and state = 'done'`, [serverId]);
      return done.length > 0 ? true : undefined;
    });
    await outage.query('begin');
    await outage.query('lock table deliveries, attempts in access exclusive mode');
    // Hold the outage until several jobs have met it (their writes wait on the lock and are cut off; they are put back), as /metrics counts them.
    await waitFor('jobs put back during the outage', async () => {
      await terminateWaiting();
      const n = await putBackSoFar();
      return n >= 2 ? true : undefined;
    });
    await outage.query('rollback');

    await serverSettled(ms, serverId, ARTICLES, 90_000);
    const done = await ms.database.db.query(`select 1 from deliveries where server_id = $1 and state = 'done'`, [serverId]);
    expect(done).toHaveLength(ARTICLES);
    await waitFor('the summary', async () => (summaries().length > 0 ? true : undefined));

    expect(warnings()).toHaveLength(1);
    expect(warnings()[0].level).toBe(40);
    expect(summaries()).toHaveLength(1);
    const putBack = summaries()[0].repeats!;
    expect(putBack).toBeGreaterThanOrEqual(2);
    expect(summaries()[0].msg).toMatch(new RegExp(`it lasted \\d+\\.\\d s; ${putBack} requests put back meanwhile$`));

    const text = await metrics();
    expect(text).toContain(`metaserver_database_write_errors_total ${putBack}`);
    // The database's outage, not Redis's: the connection to Redis met no error.
    expect(text).toMatch(/^metaserver_redis_connection_errors_total 0$/m);
    expect(text).toMatch(/^metaserver_database_up 1$/m);
  }, 120_000);
});
