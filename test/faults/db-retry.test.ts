// Dispatch writes survive a database that drops connections: connection-class errors are
// retried with back-off (and only those), and a job whose database writes failed for good
// is put back without being counted as a failure of the annotation server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseUnavailableError } from '../../src/db/database.ts';
import { isConnectionError, isDatabaseFailure, withDbRetry } from '../../src/db/retry.ts';
import { DispatchStore } from '../../src/dispatch/dispatch-store.ts';
import { ArticleRepository } from '../../src/articles/repository.ts';
import { ChallengeRepository } from '../../src/challenges/repository.ts';
import { startFaultyServer, type FaultyServer } from '../support/faulty-servers.ts';
import { flakyDatabase, InjectedDbError, type FlakyDatabase } from '../support/flaky-db.ts';
import { openTestDatabase, startTestMetaserver, waitFor, type TestDatabase, type TestMetaserver } from '../support/runtime.ts';
import { queueEmptied } from '../support/finished-jobs.ts';
import { annotate } from '../../src/sample/annotator.ts';

const FAST = { retries: 3, baseDelayMs: 1, maxDelayMs: 5 };

describe('which errors are connection errors', () => {
  it.each([
    ['57P01', true],
    ['57P02', true],
    ['57P03', true],
    ['08006', true],
    ['08001', true],
    ['08P01', true],
    ['ECONNREFUSED', true],
    ['ECONNRESET', true],
    ['23505', false],
    ['42P01', false],
    ['22P02', false],
  ])('%s → %s', (code, expected) => {
    expect(isConnectionError(new InjectedDbError(code))).toBe(expected);
    expect(isConnectionError(new Error('wrapped', { cause: new InjectedDbError(code) }))).toBe(expected);
  });

  it("recognises pg's own messages for a dropped connection, and DatabaseUnavailableError", () => {
    expect(isConnectionError(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionError(new DatabaseUnavailableError('down'))).toBe(true);
    expect(isConnectionError(new Error('syntax error at or near "selec"'))).toBe(false);
  });
});

describe('which errors are the database failing, not the work', () => {
  it.each([
    ['25006', true], // read-only transaction
    ['53100', true], // disk full
    ['53200', true], // out of memory
    ['57P01', true],
    ['57P03', true],
    ['08006', true],
    ['ECONNREFUSED', true],
    ['ENOSPC', true],
    ['23505', false],
    ['42P01', false],
    ['22P02', false],
    ['25P02', false], // in failed transaction: our own statement's fault
  ])('%s → %s', (code, expected) => {
    expect(isDatabaseFailure(new InjectedDbError(code))).toBe(expected);
    expect(isDatabaseFailure(new Error('wrapped', { cause: new InjectedDbError(code) }))).toBe(expected);
  });

  it('recognises a full disk by its message, and leaves refusals out of the connection errors that are retried in place', () => {
    expect(isDatabaseFailure(new Error('could not extend file: No space left on device'))).toBe(true);
    expect(isDatabaseFailure(new Error('syntax error at or near "selec"'))).toBe(false);
    expect(isConnectionError(new InjectedDbError('25006'))).toBe(false);
  });
});

describe('withDbRetry', () => {
  it('retries connection errors until the call succeeds, and gives up with DatabaseUnavailableError', async () => {
    let calls = 0;
    const value = await withDbRetry('test', async () => (++calls < 3 ? Promise.reject(new InjectedDbError('57P03')) : 'ok'), FAST);
    expect([value, calls]).toEqual(['ok', 3]);
    calls = 0;
    const failing = withDbRetry(
      'store it',
      async () => {
        calls++;
        throw new InjectedDbError('ECONNREFUSED');
      },
      FAST,
    );
    await expect(failing).rejects.toBeInstanceOf(DatabaseUnavailableError);
    await expect(failing).rejects.toThrow(/unreachable while trying to store it \(4 tries\)/);
    expect(calls).toBe(4);
  });

  it('does not retry other errors', async () => {
    let calls = 0;
    await expect(
      withDbRetry(
        'x',
        async () => {
          calls++;
          throw new InjectedDbError('23505');
        },
        FAST,
      ),
    ).rejects.toBeInstanceOf(InjectedDbError);
    expect(calls).toBe(1);
  });
});

describe('DispatchStore over a flaky database', () => {
  let tdb: TestDatabase;
  let db: FlakyDatabase;
  let store: DispatchStore;
  let articleId: string;
  beforeAll(async () => {
    tdb = await openTestDatabase('pglite');
    db = flakyDatabase(tdb.db);
    store = new DispatchStore(db, { retry: FAST });
    const challenge = await new ChallengeRepository(db).create({ slug: 'flaky', name: 'Flaky', tasks: ['INT'] } as never);
    const team = await db.query<{ id: number }>(`insert into teams (name, contact, token_hash) values ('t', 'c', 'h') returning id`);
    await db.query(
      `insert into servers (challenge_id, team_id, name, url, tasks, method) values ($1, $2, 's', 'http://127.0.0.1:9/', '{INT}', 'm')`,
      [(challenge as { id: number }).id, team[0].id],
    );
    const loaded = await new ArticleRepository(db).insertMany((challenge as { id: number }).id, [
      { organiserId: 'A', text: 'BRCA1', sourceFormat: 'text', given: '' },
    ]);
    articleId = [...(loaded as { ids: Map<string, string> }).ids.values()][0]!;
  });
  afterAll(async () => tdb?.drop());

  it('every write lands exactly once although its first tries fail', async () => {
    const serverId = (await db.query<{ id: number }>('select id from servers'))[0].id;
    db.failNext(3, '57P01');
    const n = await store.beginAttemptUnlessAnswered(articleId, serverId);
    expect(n).toBe(1);
    db.failNext(2, 'ECONNRESET', 'transaction');
    const attempt = { articleId, serverId, n: n as number, ms: 5, outcome: 'ok' as const, detail: null, bytesSent: 1, bytesReceived: 2 };
    expect(await store.storeAnswer(attempt, { INT: [] }, [])).toBe(true);
    db.failNext(1, '08006');
    // The job delivered again (a worker died after storing): the stored answer is seen, nothing written.
    expect(await store.beginAttemptUnlessAnswered(articleId, serverId)).toBeNull();
    expect(db.injected).toBe(6);
    expect(await tdb.db.query('select n, outcome from attempts')).toEqual([{ n: 1, outcome: 'ok' }]);
    expect(await tdb.db.query('select attempt_n from answers')).toEqual([{ attempt_n: 1 }]);
    expect(await tdb.db.query('select state from deliveries')).toEqual([{ state: 'done' }]);
  });
});

/**
 * Database writes failing while a server answers: the database gone away for 6 transactions
 * (57P01: storing the answer fails 1 + 2 retries times, then starting the next attempt 3
 * times), or refusing one write (read-only 25006, disk full 53100: storing the answer). The
 * job is put back, not counted against the server nor dropped: one attempt allowed, and it
 * still ends done. No reconciliation pass within the test where the write is refused: only
 * the job itself can bring the pair to its end.
 */
describe.each([
  { code: '57P01', failures: 6, config: { databaseWriteRetries: 2 } },
  { code: '25006', failures: 1, config: { reconcileIntervalMs: 600_000 } },
  { code: '53100', failures: 1, config: { reconcileIntervalMs: 600_000 } },
])('a job whose database writes fail ($code)', ({ code, failures, config }) => {
  let ms: TestMetaserver;
  let flaky: FlakyDatabase;
  let server: FaultyServer;
  let inner: TestDatabase;
  beforeAll(async () => {
    inner = await openTestDatabase();
    flaky = flakyDatabase(inner.db);
    ms = await startTestMetaserver({ database: { ...inner, db: flaky }, config });
  });
  afterAll(async () => {
    await ms?.stop();
    await inner?.drop();
    await server?.close();
  });

  it('is put back, not counted against the server nor dropped: one attempt allowed, and it still ends done', async () => {
    let calls = 0;
    server = await startFaultyServer({
      kind: 'custom',
      handler: (text, given) => {
        // Call 1 is the setup check; the writes fail during call 2.
        if (++calls === 2) flaky.failNext(failures, code, 'transaction');
        return annotate(text, given);
      },
    });
    await ms.challenge('dbfail', { name: 'DB failing', timeoutSeconds: 5, maxAttempts: 1 });
    const ids = (await ms.articles('dbfail', [{ id: 'D1', text: 'BRCA1 (P38398) binds TP53.' }])).ids;
    const token = (await ms.team('DB team')).token;
    const id = (await ms.server('dbfail', token, { name: 'fine', url: server.url })).id as number;
    await ms.startServer(id, token);
    await waitFor(
      'the answer',
      async () => {
        const rows = await inner.db.query(`select 1 from deliveries where server_id = $1 and state = 'done'`, [id]);
        const c = await ms.ctx.dispatch.queues.counts(id);
        return rows.length === 1 && c.active + c.waiting + c.delayed === 0 ? true : undefined;
      },
      30_000,
    );
    expect(flaky.injected).toBe(failures);
    const attempts = await inner.db.query<{ outcome: string }>('select outcome from attempts where server_id = $1 order by n', [id]);
    expect(attempts.map((a) => a.outcome)).toEqual(['interrupted', 'ok']);
    expect(await inner.db.query('select count(*)::int as n from answers where server_id = $1', [id])).toEqual([{ n: 1 }]);
    expect(await inner.db.query('select article_id from answers where server_id = $1', [id])).toEqual([{ article_id: ids.D1 }]);
    expect(calls).toBe(3);
    await queueEmptied(ms, id); // finished: its outcome is in the database, its job gone from Redis
  });
});
