// What dispatch writes: deliveries (one per article × server), attempts (every try) and
// answers (at most one per article × server). Storage is exactly-once even though job
// delivery is at-least-once: answers are inserted with "on conflict do nothing", and the
// attempt and delivery rows are updated in the same transaction as the answer.
// Every write (and the reads dispatch decides on) is retried with back-off when the database
// connection fails, so a PostgreSQL restart delays writes instead of dropping them.
import type { Database } from '../db/database.ts';
import { DEFAULT_RETRY_POLICY, withDbRetry, type RetryPolicy } from '../db/retry.ts';
import type { AnswerResult, TaskName } from '../families/registry.ts';
import type { ValidationIssue } from '../tasks/types.ts';
import type { RawJson } from '../shared/raw-json.ts';
import { GroupCommit } from './group-commit.ts';
import {
  describeWrites,
  deliveryKey,
  writeDispatchBatch,
  type AttemptOutcome,
  type DispatchWrite,
  type DispatchWriteResult,
  type FinishedAttempt,
} from './write-batch.ts';

export type { AttemptOutcome, FinishedAttempt } from './write-batch.ts';
export type { DeliveryState } from '../articles/status.ts';

export interface AttemptRecord {
  n: number;
  startedAt: Date;
  ms: number | null;
  outcome: AttemptOutcome | null;
  detail: string | null;
  errors: ValidationIssue[] | null;
  bytesSent: number | null;
  bytesReceived: number | null;
}

export interface StoredAnswer {
  result: AnswerResult;
  warnings: ValidationIssue[];
  attemptN: number;
  ms: number;
  bytes: number;
  storedAt: Date;
}

export class DispatchStore {
  /** How a write the database refused for a moment is retried: from the configuration (tests shorten it). */
  readonly retry: RetryPolicy;

  /** The writes of every job go through here, many jobs to a transaction (see group-commit.ts). */
  private readonly writes: GroupCommit<DispatchWrite, DispatchWriteResult>;

  constructor(
    private readonly db: Database,
    opts: { retry?: Partial<RetryPolicy> } = {},
  ) {
    this.retry = { ...DEFAULT_RETRY_POLICY, ...opts.retry };
    this.writes = new GroupCommit({
      maxBatch: 256,
      // PGlite runs one statement at a time; PostgreSQL overlaps a few batches' round trips.
      concurrency: db.kind === 'pglite' ? 1 : 4,
      write: (ops) => this.write(describeWrites(ops), () => writeDispatchBatch(this.db, ops)),
    });
  }

  private write<T>(what: string, fn: () => Promise<T>): Promise<T> {
    return withDbRetry(what, fn, this.retry);
  }

  /**
   * Articles of the challenge (in queue order) that have no delivery for this server yet;
   * of `among` only, when given (found by id, not by scanning the challenge).
   */
  async undelivered(serverId: number, challengeId: number, serverTasks: TaskName[], among?: string[]): Promise<string[]> {
    if (among?.length === 0) return [];
    const which = among ? 'a.id = any($4::uuid[]) and a.challenge_id = $1' : 'a.challenge_id = $1';
    const rows = await this.db.query<{ id: string }>(
      `select a.id from articles a
       where ${which} and (a.tasks is null or a.tasks && $3::text[])
         and not exists (select 1 from deliveries d where d.article_id = a.id and d.server_id = $2)
       order by a.seq`,
      among ? [challengeId, serverId, serverTasks, among] : [challengeId, serverId, serverTasks],
    );
    return rows.map((r) => r.id);
  }

  /**
   * The server's deliveries still to be settled (queued or active), in queue order, with
   * the round their job belongs to; of `among` only, when given.
   */
  async pendingDeliveries(serverId: number, among?: string[]): Promise<Array<{ articleId: string; round: number }>> {
    const rows = await this.db.query<{ article_id: string; round: number }>(
      `select d.article_id, d.round from deliveries d join articles a on a.id = d.article_id
       where d.server_id = $1 and d.state in ('queued', 'active') ${among ? 'and d.article_id = any($2::uuid[])' : ''}
       order by a.seq`,
      among ? [serverId, among] : [serverId],
    );
    return rows.map((r) => ({ articleId: r.article_id, round: r.round }));
  }

  /** Of `among` (article ids), those the server has a delivery of, in any state (the queue move's test of ownership). */
  async deliveredArticles(serverId: number, among: string[]): Promise<string[]> {
    if (among.length === 0) return [];
    const rows = await this.db.query<{ article_id: string }>(
      'select article_id from deliveries where server_id = $1 and article_id = any($2::uuid[])',
      [serverId, among],
    );
    return rows.map((r) => r.article_id);
  }

  /** Of `among` (article ids), those that are articles of this installation. */
  async knownArticles(among: string[]): Promise<string[]> {
    if (among.length === 0) return [];
    const rows = await this.db.query<{ id: string }>('select id from articles where id = any($1::uuid[])', [among]);
    return rows.map((r) => r.id);
  }

  async createDeliveries(serverId: number, articleIds: string[]): Promise<void> {
    return await this.write('create deliveries', async () => {
      if (articleIds.length === 0) return;
      await this.db.query(`insert into deliveries (article_id, server_id) select unnest($1::uuid[]), $2 on conflict do nothing`, [
        articleIds,
        serverId,
      ]);
    });
  }

  async failedDeliveries(serverId: number): Promise<Array<{ articleId: string; round: number; attempts: number }>> {
    const rows = await this.db.query<{ article_id: string; round: number; attempts: number }>(
      `select d.article_id, d.round, d.attempts from deliveries d join articles a on a.id = d.article_id
       where d.server_id = $1 and d.state = 'failed' order by a.seq`,
      [serverId],
    );
    return rows.map((r) => ({ articleId: r.article_id, round: r.round, attempts: r.attempts }));
  }

  async requeueFailed(serverId: number, items: Array<{ articleId: string; round: number; attempts: number }>): Promise<number> {
    // One retried write per item: a retry after a partial run must not count items twice.
    // The new round's job is queued before this runs and may have begun already (its attempt
    // count moved on): then only the round moves on, and the state stays the job's.
    let n = 0;
    for (const item of items) {
      const rows = await this.write('queue a failed article again', () =>
        this.db.query(
          `update deliveries set round = $3 + 1, updated_at = now(),
             state = case when state = 'failed' and attempts = $4 then 'queued' else state end
           where article_id = $1 and server_id = $2 and round = $3 returning 1`,
          [item.articleId, serverId, item.round, item.attempts],
        ),
      );
      n += rows.length;
    }
    return n;
  }

  /**
   * Records the start of an attempt and returns its number; an earlier attempt left without
   * an outcome belonged to a worker that died, and is marked interrupted now. When the answer
   * is stored already (a job delivered twice: a worker died after storing): null, and nothing
   * is written. 'closed' (nothing written either): the article's challenge is closed, checked
   * in the same statement as the write.
   */
  async beginAttemptUnlessAnswered(articleId: string, serverId: number): Promise<number | null | 'closed'> {
    return (await this.writes.submit(deliveryKey(articleId, serverId), { kind: 'begin', articleId, serverId })) as number | null | 'closed';
  }

  /**
   * A successful attempt: the answer, the attempt and the delivery land together or not at
   * all. True when this call stored the answer (false: it was there already); 'closed' when
   * the challenge was closed meanwhile: nothing is stored, the attempt is recorded as
   * interrupted and the delivery is queued again, for a reopening.
   */
  async storeAnswer(
    a: FinishedAttempt,
    result: AnswerResult | RawJson,
    warnings: ValidationIssue[] | RawJson,
  ): Promise<boolean | 'closed'> {
    return (await this.writes.submit(deliveryKey(a.articleId, a.serverId), {
      kind: 'finish',
      attempt: a,
      state: 'done',
      result,
      warnings,
    })) as boolean | 'closed';
  }

  /**
   * A failed attempt; the delivery goes back to queued, or to failed when it was the last.
   * 'closed' as for storeAnswer: recorded as interrupted, queued again, whatever `final`.
   */
  async recordFailure(a: FinishedAttempt, final: boolean): Promise<'closed' | undefined> {
    const r = await this.writes.submit(deliveryKey(a.articleId, a.serverId), {
      kind: 'finish',
      attempt: a,
      state: final ? 'failed' : 'queued',
    });
    return r === 'closed' ? r : undefined;
  }

  async markDone(articleId: string, serverId: number): Promise<void> {
    return await this.write('mark a delivery done', async () => {
      await this.db.query(`update deliveries set state = 'done', updated_at = now() where article_id = $1 and server_id = $2`, [
        articleId,
        serverId,
      ]);
    });
  }

  async attempts(articleId: string, serverId: number): Promise<AttemptRecord[]> {
    const rows = await this.db.query<{
      n: number;
      started_at: Date;
      ms: number | null;
      outcome: AttemptOutcome | null;
      detail: string | null;
      errors: ValidationIssue[] | null;
      bytes_sent: number | null;
      bytes_received: number | null;
    }>('select * from attempts where article_id = $1 and server_id = $2 order by n', [articleId, serverId]);
    return rows.map((r) => ({
      n: r.n,
      startedAt: r.started_at,
      ms: r.ms,
      outcome: r.outcome,
      detail: r.detail,
      errors: r.errors,
      bytesSent: r.bytes_sent,
      bytesReceived: r.bytes_received,
    }));
  }

  async answer(articleId: string, serverId: number): Promise<StoredAnswer | null> {
    const rows = await this.db.query<{
      result: AnswerResult;
      warnings: ValidationIssue[];
      attempt_n: number;
      ms: number;
      bytes: number;
      stored_at: Date;
    }>('select result, warnings, attempt_n, ms, bytes, stored_at from answers where article_id = $1 and server_id = $2', [
      articleId,
      serverId,
    ]);
    const r = rows[0];
    return r ? { result: r.result, warnings: r.warnings, attemptN: r.attempt_n, ms: r.ms, bytes: r.bytes, storedAt: r.stored_at } : null;
  }
}
