// How far behind dispatch is: the age of the oldest pair (article, server) a running
// challenge still owes, for /metrics. An operator alerts when it passes what the retries
// can take (the deadline × the attempts): work stranded without a job in Redis shows here.
import type { Queryable } from '../db/database.ts';

export class UnsettledRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Seconds since the oldest unsettled pair of a started server of a challenge not closed became
   * due (the latest of its article's loading, the challenge's phase change and the server's
   * registration: deliveries keep no time of their own); null when none is unsettled.
   * Cheap whatever the corpus: per server, the first queued pair in queue order (an index
   * holds exactly those) and the active ones (a window's worth).
   */
  async oldestAgeSeconds(): Promise<number | null> {
    const rows = await this.db.query<{ seconds: number | null }>(
      `select extract(epoch from now() - min(greatest(a.created_at, c.phase_changed_at, s.created_at)))::float8 as seconds
       from servers s
       join challenges c on c.id = s.challenge_id
       cross join lateral (
         (select d.article_id from deliveries d where d.server_id = s.id and d.state = 'queued' order by d.seq limit 1)
         union all
         (select d.article_id from deliveries d where d.server_id = s.id and d.state = 'active')
       ) u
       join articles a on a.id = u.article_id
       where c.phase <> 'closed' and s.state = 'active'`,
    );
    return rows[0]?.seconds ?? null;
  }
}
