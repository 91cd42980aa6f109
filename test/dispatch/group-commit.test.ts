// Group commit: the dispatch writes of many jobs share one transaction, yet each job gets
// its own result, one bad write fails alone, and two writes of one pair never share a batch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroupCommit } from '../../src/dispatch/group-commit.ts';
import { DispatchStore, type FinishedAttempt } from '../../src/dispatch/dispatch-store.ts';
import { openTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/runtime.ts';

describe('GroupCommit', () => {
  it('writes what was submitted together as one batch, and later submissions as the next', async () => {
    const batches: number[][] = [];
    const gc = new GroupCommit<number, number>({
      maxBatch: 100,
      concurrency: 1,
      write: async (ops) => (batches.push(ops), ops.map((x) => x * 2)),
    });
    const first = await Promise.all([1, 2, 3].map((x) => gc.submit(`k${x}`, x)));
    const second = await gc.submit('k4', 4);
    expect(first).toEqual([2, 4, 6]);
    expect(second).toBe(8);
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  it('never puts two ops of one key in a batch, and keeps their order', async () => {
    const batches: string[][] = [];
    const gc = new GroupCommit<string, string>({ maxBatch: 100, concurrency: 1, write: async (ops) => (batches.push(ops), ops) });
    await Promise.all([gc.submit('a', 'a1'), gc.submit('a', 'a2'), gc.submit('b', 'b1'), gc.submit('a', 'a3')]);
    expect(batches).toEqual([['a1', 'b1'], ['a2'], ['a3']]);
  });

  it('cuts batches at maxBatch', async () => {
    const sizes: number[] = [];
    const gc = new GroupCommit<number, number>({ maxBatch: 4, concurrency: 1, write: async (ops) => (sizes.push(ops.length), ops) });
    await Promise.all(Array.from({ length: 10 }, (_, i) => gc.submit(`k${i}`, i)));
    expect(sizes).toEqual([4, 4, 2]);
  });

  it('when a batch fails, tries each op alone: only the bad one fails', async () => {
    const calls: number[][] = [];
    const gc = new GroupCommit<number, number>({
      maxBatch: 100,
      concurrency: 1,
      write: async (ops) => {
        calls.push(ops);
        if (ops.includes(13)) throw new Error('violates a constraint');
        return ops;
      },
    });
    const results = await Promise.allSettled([1, 13, 2].map((x) => gc.submit(`k${x}`, x)));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([1, 'violates a constraint', 2]);
    expect(calls).toEqual([[1, 13, 2], [1], [13], [2]]);
  });

  it('does not split a batch that failed on the connection: every op gets that error', async () => {
    let calls = 0;
    const gc = new GroupCommit<number, number>({
      maxBatch: 100,
      concurrency: 1,
      write: async () => {
        calls++;
        throw Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' });
      },
    });
    const results = await Promise.allSettled([1, 2, 3].map((x) => gc.submit(`k${x}`, x)));
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(calls).toBe(1);
  });
});

describe.each(testDatabaseKinds())('DispatchStore batches (%s)', (kind) => {
  let tdb: TestDatabase;
  let store: DispatchStore;
  let serverId: number;
  let articles: string[];
  beforeAll(async () => {
    tdb = await openTestDatabase(kind);
    const { db } = tdb;
    store = new DispatchStore(db);
    const [c] = await db.query<{ id: number }>(`insert into challenges (slug, name, tasks) values ('gc', 'GC', '{INT}') returning id`);
    const [t] = await db.query<{ id: number }>(`insert into teams (name, contact, token_hash) values ('t', 'c', 'h') returning id`);
    [{ id: serverId }] = (await db.query<{ id: number }>(
      `insert into servers (challenge_id, team_id, name, url, tasks, method) values ($1, $2, 's', 'http://127.0.0.1:9/', '{INT}', 'm') returning id`,
      [c.id, t.id],
    )) as [{ id: number }];
    articles = (
      await db.query<{ id: string }>(
        `insert into articles (challenge_id, organiser_id, text, text_sha256) select $1, g::text, 'BRCA1', 'h' from generate_series(1, 40) g returning id`,
        [c.id],
      )
    ).map((r) => r.id);
  });
  afterAll(async () => tdb?.drop());

  const finished = (articleId: string, n: number, extra: Partial<FinishedAttempt> = {}): FinishedAttempt => ({
    articleId,
    serverId,
    n,
    ms: 7,
    outcome: 'ok',
    detail: null,
    bytesSent: 10,
    bytesReceived: 20,
    ...extra,
  });

  it('starts and ends 30 attempts submitted at once, each with its own result', async () => {
    const ids = articles.slice(0, 30);
    const ns = await Promise.all(ids.map((id) => store.beginAttemptUnlessAnswered(id, serverId)));
    expect(ns).toEqual(ids.map(() => 1));
    const stored = await Promise.all(
      ids.map((id, i) =>
        i % 3 === 0
          ? store.recordFailure(finished(id, 1, { outcome: 'timeout', detail: `no answer ${i}` }), i === 0).then(() => 'failure')
          : store.storeAnswer(finished(id, 1), { INT: [{ accession: 'P38398', rank: 1, confidence: 0.5 }] }, []),
      ),
    );
    expect(stored.filter((s) => s === true)).toHaveLength(20);
    const { db } = tdb;
    expect(await db.query(`select count(*)::int as n from answers where server_id = $1`, [serverId])).toEqual([{ n: 20 }]);
    const states = await db.query<{ state: string; n: number }>(
      `select state, count(*)::int as n from deliveries where server_id = $1 group by state order by state`,
      [serverId],
    );
    expect(states).toEqual([
      { state: 'done', n: 20 },
      { state: 'failed', n: 1 },
      { state: 'queued', n: 9 },
    ]);
    const failure = await store.attempts(ids[3], serverId);
    expect(failure).toMatchObject([{ n: 1, outcome: 'timeout', detail: 'no answer 3', ms: 7, bytesSent: 10, bytesReceived: 20 }]);
  });

  it('a second start of an answered pair gives null; of an unanswered one, n + 1 and the open one interrupted', async () => {
    const [answered, open] = [articles[1], articles[31]];
    expect(await store.beginAttemptUnlessAnswered(open, serverId)).toBe(1);
    const [again, next] = await Promise.all([
      store.beginAttemptUnlessAnswered(answered, serverId),
      store.beginAttemptUnlessAnswered(open, serverId),
    ]);
    expect(again).toBeNull();
    expect(next).toBe(2);
    expect((await store.attempts(open, serverId)).map((a) => a.outcome)).toEqual(['interrupted', null]);
    // Storing an answer twice (a duplicate run) stores it once.
    expect(await store.storeAnswer(finished(answered, 1), { INT: [] }, [])).toBe(false);
  });

  it('one write that cannot land (an unknown article) fails alone; the rest of its batch lands', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const results = await Promise.allSettled(
      [articles[32], unknown, articles[33]].map((id) => store.beginAttemptUnlessAnswered(id, serverId)),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toMatch(/foreign key/);
    expect(await tdb.db.query(`select count(*)::int as n from attempts where article_id = $1`, [unknown])).toEqual([{ n: 0 }]);
  });

  it('keeps a NUL character out of the database without losing the detail', async () => {
    const id = articles[34];
    const n = await store.beginAttemptUnlessAnswered(id, serverId);
    await store.recordFailure(finished(id, n as number, { outcome: 'protocol', detail: "bad byte \u0000 and a quote ' here" }), false);
    expect((await store.attempts(id, serverId))[0].detail).toBe("bad byte \ufffd and a quote ' here");
  });
});
