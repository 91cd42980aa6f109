// The server status page in JSON: progress, response times and the error report, all read
// from the deliveries and attempts tables.
import type { Queryable } from '../db/database.ts';

export interface ServerProgress {
  queued: number;
  active: number;
  done: number;
  failed: number;
}

export interface ServerTiming {
  p50Ms: number | null;
  p95Ms: number | null;
  meanMs: number | null;
  answered: number;
}

export interface ServerErrorEntry {
  article: string;
  articleId: string;
  attempt: number;
  kind: string;
  detail: string | null;
  errors: Array<{ path: string; message: string }> | null;
  at: Date;
}

export async function serverProgress(db: Queryable, serverId: number): Promise<ServerProgress> {
  const rows = await db.query<{ state: keyof ServerProgress; n: number }>(
    'select state, count(*)::int as n from deliveries where server_id = $1 group by state',
    [serverId],
  );
  const progress: ServerProgress = { queued: 0, active: 0, done: 0, failed: 0 };
  for (const r of rows) progress[r.state] = r.n;
  return progress;
}

export async function serverTiming(db: Queryable, serverId: number): Promise<ServerTiming> {
  const rows = await db.query<{ p50: number | null; p95: number | null; mean: number | null; answered: number }>(
    `select percentile_cont(0.5) within group (order by ms) as p50,
            percentile_cont(0.95) within group (order by ms) as p95,
            avg(ms)::float8 as mean, count(*)::int as answered
     from attempts where server_id = $1 and outcome = 'ok'`,
    [serverId],
  );
  const r = rows[0]!;
  const round = (x: number | null) => (x === null ? null : Math.round(Number(x) * 10) / 10);
  return { p50Ms: round(r.p50), p95Ms: round(r.p95), meanMs: round(r.mean), answered: r.answered };
}

/** The most recent failed attempts, newest first. */
export async function serverErrors(db: Queryable, serverId: number, limit = 100): Promise<ServerErrorEntry[]> {
  const rows = await db.query<{
    organiser_id: string | null; article_id: string; n: number; outcome: string; detail: string | null;
    errors: ServerErrorEntry['errors']; started_at: Date;
  }>(
    `select a.organiser_id, t.article_id, t.n, t.outcome, t.detail, t.errors, t.started_at
     from attempts t join articles a on a.id = t.article_id
     where t.server_id = $1 and t.outcome is not null and t.outcome <> 'ok'
     order by t.started_at desc, t.id desc limit $2`,
    [serverId, limit],
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
