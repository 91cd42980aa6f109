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

  /** The ends of attempts (answers stored, failures recorded) go through here, many jobs to a transaction (see group-commit.ts). */
  private readonly writes: GroupCommit<DispatchWrite, DispatchWriteResult>;
  /**
   * The starts of attempts: with PostgreSQL a group commit of their own whose transactions do
   * not wait for the disk (a flush cost 2–20 ms on the test machine, paid twice per pair).
   * What that risks is small and bounded: a start is seen by everyone at once, and only
   * PostgreSQL itself crashing within a fraction of a second can lose it — then an attempt
   * is missing from the log and its request may be made again; the answer's own write waits
   * for the disk, and flushes every start before it (the log is one sequence), so no stored
   * answer ever lacks its attempt. With PGlite: the same group commit as the ends.
   */
  private readonly starts: GroupCommit<DispatchWrite, DispatchWriteResult>;

  constructor(
    private readonly db: Database,
    opts: { retry?: Partial<RetryPolicy> } = {},
  ) {
    this.retry = { ...DEFAULT_RETRY_POLICY, ...opts.retry };
    const groupCommit = (durable: boolean) =>
      new GroupCommit<DispatchWrite, DispatchWriteResult>({
        maxBatch: 256,
        // PGlite runs one statement at a time; PostgreSQL overlaps a few batches' round trips.
        concurrency: db.kind === 'pglite' ? 1 : 4,
        write: (ops) => this.write(describeWrites(ops), () => writeDispatchBatch(this.db, ops, { durable })),
      });
    this.writes = groupCommit(true);
    this.starts = db.kind === 'pglite' ? this.writes : groupCommit(false);
  }

  private write<T>(what: string, fn: () => Promise<T>): Promise<T> {
    return withDbRetry(what, fn, this.retry);
  }

  /**
   * Writes a due delivery for every article of the challenge the server has none for yet —
   * of `among` only, when given (found by id, not by scanning the challenge) — and returns
   * how many, and the first one's queue order (the window goes back to it, should it have
   * passed it: a load committed after a later one). One statement, whatever the corpus
   * size: the articles never travel through this process.
   */
  async addDueDeliveries(
    serverId: number,
    challengeId: number,
    serverTasks: TaskName[],
    among?: string[],
  ): Promise<{ added: number; firstSeq: number | null }> {
    if (among?.length === 0) return { added: 0, firstSeq: null };
    return await this.write('write the deliveries due', async () => {
      const which = among ? 'a.id = any($4::uuid[]) and a.challenge_id = $1' : 'a.challenge_id = $1';
      const rows = await this.db.query<{ n: string; first: string | null }>(
        `with added as (
           insert into deliveries (article_id, server_id, seq)
           select a.id, $2, a.seq from articles a
           where ${which} and (a.tasks is null or a.tasks && $3::text[])
             and not exists (select 1 from deliveries d where d.article_id = a.id and d.server_id = $2)
           on conflict do nothing returning seq)
         select count(*) as n, min(seq) as first from added`,
        among ? [challengeId, serverId, serverTasks, among] : [challengeId, serverId, serverTasks],
      );
      const first = rows[0]?.first;
      return { added: Number(rows[0]?.n ?? 0), firstSeq: first === null || first === undefined ? null : Number(first) };
    });
  }

  /**
   * The server's first `limit` deliveries not begun yet after queue position `after`, in
   * queue order: what the window takes next (those in Redis already come back too when the
   * window was sent back to an earlier position, and are deduplicated by their job ids).
   */
  async dueDeliveries(serverId: number, after: number, limit: number): Promise<Array<{ articleId: string; round: number; seq: number }>> {
    if (limit <= 0) return [];
    const rows = await this.db.query<{ article_id: string; round: number; seq: string }>(
      `select article_id, round, seq from deliveries
       where server_id = $1 and seq > $2 and state = 'queued' order by seq limit $3`,
      [serverId, after, limit],
    );
    return rows.map((r) => ({ articleId: r.article_id, round: r.round, seq: Number(r.seq) }));
  }

  /**
   * The server's deliveries under way (an attempt begun), in queue order, with the round
   * their job belongs to; of `among` only, when given. Their jobs must be in Redis: the
   * reconciler queues again those Redis lost (the deliveries not begun come back through
   * the window).
   */
  async activeDeliveries(serverId: number, among?: string[]): Promise<Array<{ articleId: string; round: number }>> {
    const rows = await this.db.query<{ article_id: string; round: number }>(
      `select d.article_id, d.round from deliveries d
       where d.server_id = $1 and d.state = 'active' ${among ? 'and d.article_id = any($2::uuid[])' : ''}
       order by d.seq nulls last`,
      among ? [serverId, among] : [serverId],
    );
    return rows.map((r) => ({ articleId: r.article_id, round: r.round }));
  }

  /**
   * How many of the server's deliveries must have a job in Redis now: those under way, and
   * those not begun at or before queue position `upTo` (the window's cursor has taken them).
   * Both counts are read off partial indexes of unsettled rows: a window's worth, not the corpus.
   */
  async deliveriesOwedJobs(serverId: number, upTo: number): Promise<number> {
    const rows = await this.db.query<{ n: string }>(
      `select (select count(*) from deliveries where server_id = $1 and state = 'active')
            + (select count(*) from deliveries where server_id = $1 and state = 'queued' and seq <= $2) as n`,
      [serverId, upTo],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** The queue order of the challenge's newest article (0: none). */
  async newestArticle(challengeId: number): Promise<number> {
    const rows = await this.db.query<{ seq: string | null }>('select max(seq) as seq from articles where challenge_id = $1', [challengeId]);
    return Number(rows[0]?.seq ?? 0);
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

  /**
   * Every failed delivery of the server waits again, in a new round (a fresh job id, so the
   * job runs again), for its place in the window; returns how many and the first one's
   * queue order (the window goes back to it). One statement: a retry after a failure in
   * between changes nothing twice.
   */
  async requeueFailed(serverId: number): Promise<{ n: number; firstSeq: number | null }> {
    return await this.write('queue the failed articles again', async () => {
      const rows = await this.db.query<{ n: string; first: string | null }>(
        `with moved as (
           update deliveries set round = round + 1, state = 'queued'
           where server_id = $1 and state = 'failed' returning seq)
         select count(*) as n, min(seq) as first from moved`,
        [serverId],
      );
      const first = rows[0]?.first;
      return { n: Number(rows[0]?.n ?? 0), firstSeq: first === null || first === undefined ? null : Number(first) };
    });
  }

  /**
   * Records the start of an attempt and returns its number; an earlier attempt left without
   * an outcome belonged to a worker that died, and is marked interrupted now. When the answer
   * is stored already (a job delivered twice: a worker died after storing): null, and nothing
   * is written. 'closed' (nothing written either): the article's challenge is closed, checked
   * in the same statement as the write.
   */
  async beginAttemptUnlessAnswered(articleId: string, serverId: number): Promise<number | null | 'closed'> {
    return (await this.starts.submit(deliveryKey(articleId, serverId), { kind: 'begin', articleId, serverId })) as number | null | 'closed';
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
      await this.db.query(`update deliveries set state = 'done' where article_id = $1 and server_id = $2`, [articleId, serverId]);
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
