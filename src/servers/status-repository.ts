// The server status page in JSON: progress, response times and the error report. Each read
// costs the same at a million deliveries as at a thousand: progress from the per-state
// counters migration 017 keeps, response times over the latest answers, failures through
// the partial index of failed attempts.
import type { Queryable } from '../db/database.ts';
import { deliveryCounts, type DeliveryCounts } from '../db/delivery-counts.ts';
import type { AttemptOutcome } from '../dispatch/write-batch.ts';
import { failureKindHint } from './failure-kinds.ts';

export type ServerProgress = DeliveryCounts;

export interface ServerTiming {
  p50Ms: number | null;
  p95Ms: number | null;
  meanMs: number | null;
  answered: number;
  /** How many of the latest answers the times are over (at most TIMING_WINDOW). */
  sample: number;
}

/** The outcome of a lease given back by a pull server's agent (pull/lease-service.ts release). */
const RELEASED: AttemptOutcome = 'released';

/** The answers the server page's response times and histogram are over: the latest ones. */
const TIMING_WINDOW = 10_000;

export interface ServerErrorEntry {
  article: string;
  articleId: string;
  attempt: number;
  kind: string;
  detail: string | null;
  errors: Array<{ path: string; message: string }> | null;
  at: Date;
}

/**
 * The leases a pull server's agent gave back (outcome `released`): not failures, and listed
 * apart from them. lastAt is null while there is none.
 */
export interface GivenBack {
  count: number;
  lastAt: Date | null;
}

/** One kind of failure of a server: how often, when first and last, and its latest example. */
export interface FailureKindSummary {
  count: number;
  firstAt: Date;
  lastAt: Date;
  example: { article: string; articleId: string; detail: string | null; hint: string };
}

export interface HistogramBin {
  fromMs: number;
  /** null: the last, open-ended bin. */
  toMs: number | null;
  count: number;
}

/**
 * Roughly logarithmic edges (1-2-5 steps): answers range from milliseconds to the
 * ten-minute deadline, and equal-width bins would put nearly everything in the first one.
 */
const HISTOGRAM_EDGES_MS = [0, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 60_000, 120_000, 300_000, 600_000];

/** The status figures of one server, read from its deliveries and attempts. */
export class ServerStatusRepository {
  constructor(private readonly db: Queryable) {}

  async progress(serverId: number): Promise<ServerProgress> {
    return (await this.progressOf([serverId])).get(serverId) ?? { queued: 0, active: 0, done: 0, failed: 0 };
  }

  /** Every server of a challenge with its deliveries by state, in one query (the organiser's glance). */
  async challengeProgress(challengeId: number): Promise<Map<number, ServerProgress>> {
    const servers = await this.db.query<{ id: number }>('select id from servers where challenge_id = $1', [challengeId]);
    return await this.progressOf(servers.map((s) => s.id));
  }

  /** Deliveries by state, from the counters (db/delivery-counts.ts). */
  private async progressOf(serverIds: readonly number[]): Promise<Map<number, ServerProgress>> {
    return await deliveryCounts(this.db, serverIds);
  }

  /**
   * Response times of the server's latest answers (TIMING_WINDOW of them at most, read
   * newest first through its attempts index): the percentiles of a server with a million
   * answers cost what they cost with ten thousand, and say how it answers now. `answered`
   * is exact: the answers in the window while they fit in it, else its answered
   * deliveries (the counters).
   */
  async timing(serverId: number): Promise<ServerTiming> {
    const rows = await this.db.query<{ p50: number | null; p95: number | null; mean: number | null; answered: number }>(
      `select percentile_cont(0.5) within group (order by ms) as p50,
              percentile_cont(0.95) within group (order by ms) as p95,
              avg(ms)::float8 as mean, count(*)::int as answered
       from (select ms from attempts where server_id = $1 and outcome = 'ok' order by started_at desc limit $2) latest`,
      [serverId, TIMING_WINDOW],
    );
    const r = rows[0];
    const round = (x: number | null) => (x === null ? null : Math.round(Number(x) * 10) / 10);
    const answered = r.answered < TIMING_WINDOW ? r.answered : Math.max(r.answered, (await this.progress(serverId)).done);
    return { p50Ms: round(r.p50), p95Ms: round(r.p95), meanMs: round(r.mean), answered, sample: r.answered };
  }

  /**
   * The failed attempts by kind (outcome), counted in SQL, each with its latest example —
   * what a dead server's page shows instead of a hundred identical rows — and apart from
   * them the leases given back (`released`, read by the same count). The example's
   * `outcome <> 'ok'` (true of every kind) lets it be read through the failed attempts'
   * partial index, newest first; without it, every attempt of the server was scanned.
   */
  async failures(serverId: number): Promise<{ byKind: Record<string, FailureKindSummary>; givenBack: GivenBack }> {
    const rows = await this.db.query<{
      kind: string;
      n: number;
      first_at: Date;
      last_at: Date;
      article_id: string;
      organiser_id: string | null;
      detail: string | null;
    }>(
      `select k.kind, k.n, k.first_at, k.last_at, e.article_id, e.organiser_id, e.detail
       from (select outcome as kind, count(*)::int as n, min(started_at) as first_at, max(started_at) as last_at
             from attempts where server_id = $1 and outcome is not null and outcome <> 'ok' group by outcome) k
       cross join lateral (
         select t.article_id, a.organiser_id, t.detail from attempts t join articles a on a.id = t.article_id
         where t.server_id = $1 and t.outcome = k.kind and t.outcome <> 'ok' order by t.started_at desc, t.article_id desc, t.n desc limit 1) e
       order by k.n desc, k.kind`,
      [serverId],
    );
    const released = rows.find((r) => r.kind === RELEASED);
    const byKind = Object.fromEntries(
      rows
        .filter((r) => r.kind !== RELEASED)
        .map((r) => [
          r.kind,
          {
            count: r.n,
            firstAt: r.first_at,
            lastAt: r.last_at,
            example: {
              article: r.organiser_id ?? r.article_id,
              articleId: r.article_id,
              detail: r.detail,
              hint: failureKindHint(r.kind),
            },
          },
        ]),
    );
    return { byKind, givenBack: { count: released?.n ?? 0, lastAt: released?.last_at ?? null } };
  }

  /**
   * The most recent failed attempts, newest first (`offset` of them skipped); those begun in
   * one transaction share their start, and come in (article, attempt number) order, as
   * attempts_server_failed_recent holds them. Leases given back are no failures: left out.
   */
  async errors(serverId: number, limit = 100, offset = 0): Promise<ServerErrorEntry[]> {
    const rows = await this.db.query<{
      organiser_id: string | null;
      article_id: string;
      n: number;
      outcome: string;
      detail: string | null;
      errors: ServerErrorEntry['errors'];
      started_at: Date;
    }>(
      `select a.organiser_id, t.article_id, t.n, t.outcome, t.detail, t.errors, t.started_at
       from attempts t join articles a on a.id = t.article_id
       where t.server_id = $1 and t.outcome is not null and t.outcome <> 'ok' and t.outcome <> $4
       order by t.started_at desc, t.article_id desc, t.n desc limit $2 offset $3`,
      [serverId, limit, offset, RELEASED],
    );
    return rows.map((r) => ({
      article: r.organiser_id ?? r.article_id,
      articleId: r.article_id,
      attempt: r.n,
      kind: r.outcome,
      detail: r.detail,
      errors: r.errors,
      at: r.started_at,
    }));
  }

  /**
   * Response times of the latest answers (TIMING_WINDOW, as timing), counted per bin in SQL. Only the bins from
   * the first to the last non-empty one are returned ([] before the first answer), so the
   * chart spans the data rather than the whole deadline.
   */
  async histogram(serverId: number): Promise<HistogramBin[]> {
    const from = HISTOGRAM_EDGES_MS;
    const to = [...HISTOGRAM_EDGES_MS.slice(1), null];
    const rows = await this.db.query<{ from_ms: number; to_ms: number | null; n: number }>(
      `select e.from_ms, e.to_ms, count(t.ms)::int as n
       from unnest($2::int[], $3::int[]) as e(from_ms, to_ms)
       left join (select ms from attempts where server_id = $1 and outcome = 'ok' order by started_at desc limit $4) t
         on t.ms >= e.from_ms and (e.to_ms is null or t.ms < e.to_ms)
       group by e.from_ms, e.to_ms order by e.from_ms`,
      [serverId, from, to, TIMING_WINDOW],
    );
    const bins = rows.map((r) => ({ fromMs: Number(r.from_ms), toMs: r.to_ms === null ? null : Number(r.to_ms), count: r.n }));
    const first = bins.findIndex((b) => b.count > 0);
    if (first < 0) return [];
    const last = bins.length - 1 - [...bins].reverse().findIndex((b) => b.count > 0);
    return bins.slice(first, last + 1);
  }
}
