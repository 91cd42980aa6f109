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
  articleId: r.article_id,
  url: r.url,
  state: r.state,
  attempts: r.attempts,
  lastStatus: r.last_status,
  lastError: r.last_error,
  deliveredAt: r.delivered_at,
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

  /**
   * Whether an active server that takes the article has no delivery row for it yet.
   * Deliveries are written server by server as the article is queued: "every delivery
   * settled" is only "done" once each active server taking it has its delivery row.
   */
  async awaitsDelivery(article: { id: string; challengeId: number; tasks: readonly string[] | null }): Promise<boolean> {
    const missing = await this.db.query(
      `select 1 from servers s
       where s.challenge_id = $1 and s.state = 'active' and ($2::text[] is null or s.tasks && $2::text[])
         and not exists (select 1 from deliveries d where d.article_id = $3 and d.server_id = s.id)
       limit 1`,
      [article.challengeId, article.tasks, article.id],
    );
    return missing.length > 0;
  }

  /** Recent articles (last 7 days) with a callback URL and no record yet: perhaps never enqueued. */
  async unrecorded(): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `select a.id from articles a
       where a.callback_url is not null and a.created_at > now() - interval '7 days'
         and not exists (select 1 from callback_deliveries c where c.article_id = a.id)
       order by a.seq limit 10000`,
    );
    return rows.map((r) => r.id);
  }
}
