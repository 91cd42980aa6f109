// What bench/soak.ts reports of one installation once the run is over: lost, duplicated and
// stuck article × server pairs, and what happened while the challenge was closed. Every
// figure is read from the database (and the queues, for stuck pairs without a job).
import type { Database } from '../../src/db/database.ts';
import type { DispatchQueues } from '../../src/dispatch/queues.ts';

export interface SoakCounts {
  pairs: number;
  done: number;
  failed: number;
  requests: number;
  outcomes: Record<string, number>;
  /** A pair never queued, a done pair without its answer, or an ok attempt whose answer is missing. */
  lost: number;
  /** Two answers for one pair, or two ok attempts. */
  duplicated: number;
  /** Pairs queued or active at the end; of them, those whose job is not in Redis. */
  stuck: number;
  stuckWithoutJob: number;
}

const one = async (db: Database, sql: string, params: unknown[] = []) => Number((await db.query<{ n: number }>(sql, params))[0].n);

/** The pairs of every article with every server of the challenge taking part, by task. */
const PAIRS = `from articles a join servers s on s.challenge_id = a.challenge_id and (a.tasks is null or a.tasks && s.tasks::text[]) where a.challenge_id = $1`;

export async function soakCounts(db: Database, queues: DispatchQueues, challengeId: number): Promise<SoakCounts> {
  const byKind = await db.query<{ outcome: string; n: number }>(
    `select coalesce(t.outcome, 'running') as outcome, count(*)::int as n from attempts t join articles a on a.id = t.article_id where a.challenge_id = $1 group by 1 order by 2 desc`,
    [challengeId],
  );
  const inChallenge = 'join articles a on a.id = d.article_id where a.challenge_id = $1';
  let stuckWithoutJob = 0;
  const serverIds = (await db.query<{ id: number }>('select id from servers where challenge_id = $1', [challengeId])).map((r) => r.id);
  for (const id of serverIds) {
    const pending = await db.query<{ article_id: string; round: number }>(
      `select d.article_id, d.round from deliveries d where d.server_id = $1 and d.state in ('queued', 'active')`,
      [id],
    );
    stuckWithoutJob += (
      await queues.missingJobs(
        id,
        pending.map((p) => ({ articleId: p.article_id, round: p.round })),
      )
    ).length;
  }
  return {
    pairs: await one(db, `select count(*)::int as n ${PAIRS}`, [challengeId]),
    done: await one(db, `select count(*)::int as n from deliveries d ${inChallenge} and d.state = 'done'`, [challengeId]),
    failed: await one(db, `select count(*)::int as n from deliveries d ${inChallenge} and d.state = 'failed'`, [challengeId]),
    requests: byKind.reduce((sum, r) => sum + r.n, 0),
    outcomes: Object.fromEntries(byKind.map((r) => [r.outcome, r.n])),
    lost:
      (await one(
        db,
        `select count(*)::int as n ${PAIRS} and not exists (select 1 from deliveries d where d.article_id = a.id and d.server_id = s.id)`,
        [challengeId],
      )) +
      (await one(
        db,
        `select count(*)::int as n from deliveries d ${inChallenge} and d.state = 'done' and not exists (select 1 from answers x where x.article_id = d.article_id and x.server_id = d.server_id)`,
        [challengeId],
      )) +
      (await one(
        db,
        `select count(*)::int as n from attempts t join articles a on a.id = t.article_id where a.challenge_id = $1 and t.outcome = 'ok' and not exists (select 1 from answers x where x.article_id = t.article_id and x.server_id = t.server_id)`,
        [challengeId],
      )),
    duplicated:
      (await one(
        db,
        `select count(*)::int as n from (select 1 from answers x join articles a on a.id = x.article_id where a.challenge_id = $1 group by x.article_id, x.server_id having count(*) > 1) y`,
        [challengeId],
      )) +
      (await one(
        db,
        `select count(*)::int as n from (select 1 from attempts t join articles a on a.id = t.article_id where a.challenge_id = $1 and t.outcome = 'ok' group by t.article_id, t.server_id having count(*) > 1) y`,
        [challengeId],
      )),
    stuck: await one(db, `select count(*)::int as n from deliveries d ${inChallenge} and d.state in ('queued', 'active')`, [challengeId]),
    stuckWithoutJob,
  };
}

/**
 * While the challenge was closed (each closed → reopened span of its phase history, the
 * last one open-ended): attempts begun and answers stored. Both must be 0. The phase change
 * is timed when its lock was held, every write its transaction's start (migration 006).
 */
export async function closedViolations(
  db: Database,
  challengeId: number,
): Promise<{ closedSpans: number; attemptsBegun: number; answersStored: number }> {
  const spans = `with changes as (
      select to_phase, changed_at, lead(changed_at) over (order by id) as until from challenge_phase_changes where challenge_id = $1
    ), closed as (select changed_at as since, coalesce(until, 'infinity') as until from changes where to_phase = 'closed')`;
  return {
    closedSpans: await one(db, `${spans} select count(*)::int as n from closed`, [challengeId]),
    attemptsBegun: await one(
      db,
      `${spans} select count(*)::int as n from attempts t join articles a on a.id = t.article_id join closed c on t.started_at > c.since and t.started_at < c.until where a.challenge_id = $1`,
      [challengeId],
    ),
    answersStored: await one(
      db,
      `${spans} select count(*)::int as n from answers x join articles a on a.id = x.article_id join closed c on x.stored_at > c.since and x.stored_at < c.until where a.challenge_id = $1`,
      [challengeId],
    ),
  };
}
