// A database that refuses writes for a while (PostgreSQL made read-only mid-dispatch, as an
// organiser's failover or a full disk does) must not strand work: once it takes writes again,
// every pair is answered exactly once by the same processes, none restarted, within a few
// reconciliation intervals — no job lost with its delivery left queued or under way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSampleServer, type SampleServer } from '../../src/sample/server.ts';
import { postgresBinaries, startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres.ts';
import { startTestMetaserver, waitFor, type TestMetaserver } from '../support/runtime.ts';
import { expectEveryPairAnsweredOnce } from '../support/every-pair-once.ts';

const ARTICLES = 150;
const SERVERS = 2;
/** Statements the database must have refused before it takes writes again: several rounds of every job in the windows. */
const REFUSALS = 30;

const refusals = (pg: PrivatePostgres) => (pg.log().match(/read-only transaction/g) ?? []).length;

describe.skipIf(!postgresBinaries())('a database that refuses writes for a while', () => {
  let pg: PrivatePostgres;
  let ms: TestMetaserver;
  let sample: SampleServer;

  beforeAll(async () => {
    pg = await startPrivatePostgres();
    sample = await startSampleServer({ port: 0 });
    // A small window, so that most pairs wait in the database behind its cursor, and a short
    // reconciliation interval, so that "its next pass" comes within the test's time.
    ms = await startTestMetaserver({ database: pg.database, config: { dispatchWindow: 4, reconcileIntervalMs: 500 } });
  }, 60_000);
  afterAll(async () => {
    await ms?.stop();
    await sample?.close();
    await pg?.stop();
  });

  it('leaves no pair stranded: every one is answered exactly once after writes come back', async () => {
    // Two tries per pair, a second apart: a refused write counted against the server fails the job for good within the outage.
    await ms.challenge('ro', { name: 'Read-only', maxAttempts: 2, retryDelaySeconds: 1 });
    const texts = Array.from({ length: ARTICLES }, (_, i) => ({ id: `RO${i}`, text: `BRCA1 (P38398) binds TP53, article ${i}.` }));
    await ms.articles('ro', texts);
    const token = (await ms.team('Read-only team')).token;
    const ids: number[] = [];
    for (let s = 0; s < SERVERS; s++) ids.push((await ms.server('ro', token, { name: `s${s}`, url: sample.url, concurrency: 1 })).id);
    const answers = async () => Number((await ms.db.query<{ n: string }>('select count(*) as n from answers'))[0].n);
    for (const id of ids) await ms.startServer(id, token);

    await waitFor('dispatch under way', async () => ((await answers()) >= 10 ? true : undefined));
    await pg.admin('alter system set default_transaction_read_only = on');
    await pg.admin('select pg_reload_conf()');
    const before = await answers();
    expect(before).toBeLessThan(ARTICLES * SERVERS); // the outage came mid-dispatch
    await waitFor(`${REFUSALS} writes refused`, async () => (refusals(pg) >= REFUSALS ? true : undefined), 30_000);
    // Reads go on meanwhile: a server's page (whose figures fold their counters, a write, when they can).
    const page = await ms.request('GET', `/api/servers/${ids[0]}`, undefined, token);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    await pg.admin('alter system reset default_transaction_read_only');
    await pg.admin('select pg_reload_conf()');

    await expectEveryPairAnsweredOnce(ms.db, ARTICLES * SERVERS, 30_000);
  }, 120_000);
});
