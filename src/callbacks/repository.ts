// The outcome of each article's completion callback (table callback_deliveries). The row
// is the last word on "was it delivered": a job that runs again after a success — a worker
// killed between the POST and the job's completion, or an enqueue racing another — finds
// it delivered and does not post a second time.
import type { Queryable } from '../db/database.ts';

export type CallbackState = 'pending' | 'delivered' | 'failed' | 'refused';

export interface CallbackRecord {
  articleId: string;
  url: string;
  state: CallbackState;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
}

interface Row {
  article_id: string;
  url: string;
  state: CallbackState;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
}

const toRecord = (r: Row): CallbackRecord => ({
  articleId: r.article_id, url: r.url, state: r.state, attempts: r.attempts, lastStatus: r.last_status, lastError: r.last_error, deliveredAt: r.delivered_at,
});

export class CallbackRepository {
  constructor(private readonly db: Queryable) {}

  /** The article's record, created pending on first use. */
  async ensure(articleId: string, url: string): Promise<CallbackRecord> {
    await this.db.query('insert into callback_deliveries (article_id, url) values ($1, $2) on conflict do nothing', [articleId, url]);
    return (await this.get(articleId))!;
  }

  async get(articleId: string): Promise<CallbackRecord | null> {
    const rows = await this.db.query<Row>('select * from callback_deliveries where article_id = $1', [articleId]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** Counts one try; the state changes only if it is not delivered already. */
  async attempted(articleId: string, state: CallbackState, status: number | null, error: string | null): Promise<void> {
    await this.db.query(
      `update callback_deliveries
       set attempts = attempts + 1, last_status = $3, last_error = $4, updated_at = now(),
           state = case when state = 'delivered' then state else $2 end,
           delivered_at = case when $2 = 'delivered' and delivered_at is null then now() else delivered_at end
       where article_id = $1`,
      [articleId, state, status, error],
    );
  }
}
