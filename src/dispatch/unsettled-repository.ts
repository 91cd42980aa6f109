// How far behind dispatch is: the age of the oldest pair (article, server) a running
// challenge still owes, for /metrics, and each called server's time without an attempt ending
// while it owes pairs, for /healthz's "dispatch is progressing". An operator alerts when
// either passes what the retries can take: work stranded without a job in Redis shows here.
import type { Queryable } from '../db/database.ts';

/** A started server of a running challenge that owes pairs, and how long it has been quiet. */
export interface OwingServer {
  serverId: number;
  server: string;
  challenge: string;
  /** Seconds since an attempt of the server last ended, or since its oldest unsettled pair became due if later. */
  quietSeconds: number;
  /** What its calls and retries may take with nothing ending: the challenge's deadline plus the longest back-off. */
  expectedSeconds: number;
}

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

  /**
   * The started servers of running challenges that owe pairs (pull servers excepted: their
   * agents take work when the team runs them), each with how long no attempt of it has ended.
   * Per server: the first queued pair and the active ones (as above), and the latest answered
   * and latest failed attempt, each one index lookup.
   */
  async owingServers(pullProtocol: string): Promise<OwingServer[]> {
    return await this.db.query<OwingServer>(
      `select s.id as "serverId", s.name as server, c.slug as challenge,
              extract(epoch from now() - greatest(due.since, last.ended))::float8 as "quietSeconds",
              (c.timeout_seconds + least(c.retry_delay_seconds * power(2, greatest(c.max_attempts - 2, 0)), 600))::float8 as "expectedSeconds"
       from servers s
       join challenges c on c.id = s.challenge_id
       cross join lateral (
         select min(greatest(a.created_at, c.phase_changed_at, s.created_at)) as since
         from (
           (select d.article_id from deliveries d where d.server_id = s.id and d.state = 'queued' order by d.seq limit 1)
           union all
           (select d.article_id from deliveries d where d.server_id = s.id and d.state = 'active')
         ) u
         join articles a on a.id = u.article_id
       ) due
       cross join lateral (
         select max(t.started_at + coalesce(t.ms, 0) * interval '1 millisecond') as ended
         from (
           (select started_at, ms from attempts where server_id = s.id and outcome = 'ok' order by started_at desc limit 1)
           union all
           (select started_at, ms from attempts where server_id = s.id and outcome is not null and outcome <> 'ok'
            order by started_at desc, article_id desc, n desc limit 1)
         ) t
       ) last
       where c.phase <> 'closed' and s.state = 'active' and s.protocol <> $1 and due.since is not null
       order by s.id`,
      [pullProtocol],
    );
  }
}
