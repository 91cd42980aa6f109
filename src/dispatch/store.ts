// What dispatch writes: deliveries (one per article × server), attempts (every try) and
// answers (at most one per article × server). Storage is exactly-once even though job
// delivery is at-least-once: answers are inserted with "on conflict do nothing", and the
// attempt and delivery rows are updated in the same transaction as the answer.
// Every write (and the reads dispatch decides on) is retried with back-off when the database
// connection fails, so a PostgreSQL restart delays writes instead of dropping them.
import type { Database } from '../db/database.ts';
import { DEFAULT_RETRY_POLICY, withDbRetry, type RetryPolicy } from './db-retry.ts';
import type { AnswerResult, TaskName, ValidationIssue } from '../tasks/types.ts';
import type { FailureKind } from '../xmlrpc/client.ts';

export type AttemptOutcome = 'ok' | FailureKind | 'invalid' | 'interrupted';
export type DeliveryState = 'queued' | 'active' | 'done' | 'failed';

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

export interface FinishedAttempt {
  articleId: string;
  serverId: number;
  n: number;
  ms: number;
  outcome: AttemptOutcome;
  detail: string | null;
  errors?: ValidationIssue[];
  bytesSent: number;
  bytesReceived: number;
}

export class DispatchStore {
  /** Set by the runtime from the configuration; tests shorten it. */
  retry: RetryPolicy = DEFAULT_RETRY_POLICY;

  constructor(private readonly db: Database) {}

  private write<T>(what: string, fn: () => Promise<T>): Promise<T> {
    return withDbRetry(what, fn, this.retry);
  }

  /** Articles of the challenge (in queue order) that have no delivery for this server yet. */
  async undelivered(serverId: number, challengeId: number, serverTasks: TaskName[]): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `select a.id from articles a
       where a.challenge_id = $1 and (a.tasks is null or a.tasks && $3::text[])
         and not exists (select 1 from deliveries d where d.article_id = a.id and d.server_id = $2)
       order by a.seq`,
      [challengeId, serverId, serverTasks],
    );
    return rows.map((r) => r.id);
  }

  async createDeliveries(serverId: number, articleIds: string[]): Promise<void> {
    return await this.write('create deliveries', async () => {
      if (articleIds.length === 0) return;
      await this.db.query(
        `insert into deliveries (article_id, server_id) select unnest($1::uuid[]), $2 on conflict do nothing`,
        [articleIds, serverId],
      );
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

  async hasAnswer(articleId: string, serverId: number): Promise<boolean> {
    return await this.write('look up an answer', async () => {
      return (await this.db.query('select 1 from answers where article_id = $1 and server_id = $2', [articleId, serverId])).length > 0;
    });
  }

  /**
   * Records the start of an attempt and returns its number. An earlier attempt left without
   * an outcome belonged to a worker that died; it is marked interrupted now.
   */
  async beginAttempt(articleId: string, serverId: number): Promise<number> {
    return (await this.begin(articleId, serverId, false))!;
  }

  /**
   * beginAttempt, unless the answer is stored already (a job delivered twice: a worker died
   * after storing): then null, and nothing is written. What a job does, in one transaction
   * of two statements instead of a lookup and five statements: with embedded PGlite every
   * statement costs about a millisecond of the one thread everything shares.
   */
  async beginAttemptUnlessAnswered(articleId: string, serverId: number): Promise<number | null> {
    return await this.begin(articleId, serverId, true);
  }

  private async begin(articleId: string, serverId: number, unlessAnswered: boolean): Promise<number | null> {
    return await this.write('record the start of an attempt', async () => {
      return await this.db.transaction(async (tx) => {
        // The lock is its own statement: the next one's snapshot must be taken after it is held.
        const [lock] = await tx.query<{ answered: boolean }>(
          `select pg_advisory_xact_lock(72260003, hashtext($1::text || $2::text))::text as locked,
                  exists (select 1 from answers where article_id = $1::uuid and server_id = $2::int) as answered`,
          [articleId, serverId],
        );
        if (unlessAnswered && lock!.answered) return null;
        // One statement: the CTEs share one snapshot, which is fine here (the update does not change n).
        const rows = await tx.query<{ n: number }>(
          `with interrupted as (
             update attempts set outcome = 'interrupted', detail = 'the worker processing this attempt stopped before it ended; the request was reissued'
             where article_id = $1 and server_id = $2 and outcome is null returning 1
           ), next as (
             insert into attempts (article_id, server_id, n)
             select $1, $2, coalesce(max(n), 0) + 1 from attempts where article_id = $1 and server_id = $2
             returning n
           ), delivery as (${UPSERT_DELIVERY.replace('values ($1, $2, $3, $4, $5, $6)', "select $1, $2, 'active', n, null, null from next")})
           select n from next`,
          [articleId, serverId],
        );
        return rows[0]!.n;
      });
    });
  }

  /**
   * A successful attempt: the answer, the attempt and the delivery land together or not at
   * all — one statement (data-modifying CTEs touch different tables, so the shared snapshot
   * changes nothing), inside a transaction so it is retried like every transaction.
   */
  async storeAnswer(a: FinishedAttempt, result: AnswerResult, warnings: ValidationIssue[]): Promise<boolean> {
    return await this.write('store an answer', async () => {
      return await this.db.transaction(async (tx) => {
        const rows = await tx.query<{ inserted: boolean }>(
          `with inserted as (
             insert into answers (article_id, server_id, result, warnings, attempt_n, ms, bytes)
             values ($1, $2, $10, $11, $3, $4, $9) on conflict do nothing returning 1
           ), finished as (${FINISH}), delivery as (${UPSERT_DELIVERY.replace('values ($1, $2, $3, $4, $5, $6)', "values ($1, $2, 'done', $3, 'ok', null)")})
           select exists (select 1 from inserted) as inserted`,
          [...finishParams(a), JSON.stringify(result), JSON.stringify(warnings)],
        );
        return rows[0]!.inserted;
      });
    });
  }

  async recordFailure(a: FinishedAttempt, final: boolean): Promise<void> {
    return await this.write('record a failed attempt', async () => {
      await this.db.transaction(async (tx) => {
        await tx.query(
          `with finished as (${FINISH}) ${UPSERT_DELIVERY.replace('values ($1, $2, $3, $4, $5, $6)', 'values ($1, $2, $10, $3, $5, $6)')}`,
          [...finishParams(a), final ? 'failed' : 'queued'],
        );
      });
    });
  }

  async markDone(articleId: string, serverId: number): Promise<void> {
    return await this.write('mark a delivery done', async () => {
      await this.db.query(`update deliveries set state = 'done', updated_at = now() where article_id = $1 and server_id = $2`, [articleId, serverId]);
    });
  }

  async attempts(articleId: string, serverId: number): Promise<AttemptRecord[]> {
    const rows = await this.db.query<{
      n: number; started_at: Date; ms: number | null; outcome: AttemptOutcome | null; detail: string | null;
      errors: ValidationIssue[] | null; bytes_sent: number | null; bytes_received: number | null;
    }>('select * from attempts where article_id = $1 and server_id = $2 order by n', [articleId, serverId]);
    return rows.map((r) => ({
      n: r.n, startedAt: r.started_at, ms: r.ms, outcome: r.outcome, detail: r.detail, errors: r.errors,
      bytesSent: r.bytes_sent, bytesReceived: r.bytes_received,
    }));
  }

  async answer(articleId: string, serverId: number): Promise<StoredAnswer | null> {
    const rows = await this.db.query<{ result: AnswerResult; warnings: ValidationIssue[]; attempt_n: number; ms: number; bytes: number; stored_at: Date }>(
      'select result, warnings, attempt_n, ms, bytes, stored_at from answers where article_id = $1 and server_id = $2',
      [articleId, serverId],
    );
    const r = rows[0];
    return r ? { result: r.result, warnings: r.warnings, attemptN: r.attempt_n, ms: r.ms, bytes: r.bytes, storedAt: r.stored_at } : null;
  }
}

/** Ends attempt $3 of ($1, $2); its parameters are finishParams(a), $1–$9. */
const FINISH = `update attempts set ms = $4, outcome = $5, detail = $6, errors = $7, bytes_sent = $8, bytes_received = $9
     where article_id = $1 and server_id = $2 and n = $3 returning 1`;

const finishParams = (a: FinishedAttempt): unknown[] =>
  [a.articleId, a.serverId, a.n, a.ms, a.outcome, a.detail, a.errors ? JSON.stringify(a.errors) : null, a.bytesSent, a.bytesReceived];

// A delivery that is already done stays done: a late duplicate run of a job cannot undo it.
// Callers replace the values list to fit their parameters.
const UPSERT_DELIVERY = `insert into deliveries (article_id, server_id, state, attempts, last_outcome, last_detail)
     values ($1, $2, $3, $4, $5, $6)
     on conflict (article_id, server_id) do update
       set state = case when deliveries.state = 'done' then 'done' else excluded.state end,
           attempts = greatest(deliveries.attempts, excluded.attempts),
           last_outcome = coalesce(excluded.last_outcome, deliveries.last_outcome),
           last_detail = excluded.last_detail,
           updated_at = now()`;
