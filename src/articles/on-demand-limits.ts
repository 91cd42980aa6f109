// How many on-demand articles may wait for the live servers: per client and in total.
// "Waiting" is what the queues hold for them — a delivery to an active server still queued
// or being worked on (a paused server's backlog is its team's choice, and must not shut
// everyone out) — plus articles submitted in the last few minutes that have no delivery yet (committed,
// not yet queued: the queueing may lag behind, or wait for Redis). So a client cannot pile
// up work ahead of everyone else, and the machine holds a bounded backlog; an article
// counts again only while it is really waiting, whatever its age.
//
// The count and the insert are one transaction under one advisory lock, so concurrent
// submissions cannot each see room for one more. The count starts from the live servers'
// queued and active deliveries (indexed, and bounded by the total cap), not from every
// article ever submitted.
import type { Queryable } from '../db/database.ts';
import { ApiError } from '../http/api-error.ts';

export interface OnDemandLimits {
  perClient: number;
  total: number;
}

/** How long an article with no delivery yet counts as waiting (the queueing is normally milliseconds behind). */
const UNQUEUED_GRACE = '10 minutes';
/** Retry-After of a refusal: the servers need some time to work through what waits. */
const RETRY_AFTER_SECONDS = 30;
/** Any number: the lock every on-demand submission takes around its count and insert. */
const SUBMISSION_LOCK = 72260007;

export async function pendingOnDemand(tx: Queryable, liveChallengeId: number, client: string): Promise<{ mine: number; total: number }> {
  const rows = await tx.query<{ mine: string | number; total: string | number }>(
    `with busy as (
       select distinct d.article_id as id from deliveries d
       where d.server_id in (select id from servers where challenge_id = $1 and state = 'active') and d.state in ('queued', 'active')
     ), unqueued as (
       select a.id from articles a
       where a.challenge_id = $1 and a.created_at > now() - interval '${UNQUEUED_GRACE}'
         and not exists (select 1 from deliveries d where d.article_id = a.id)
     )
     select count(*) as total, count(*) filter (where a.submitted_by = $2) as mine
     from (select id from busy union select id from unqueued) p join articles a on a.id = p.id`,
    [liveChallengeId, client],
  );
  return { mine: Number(rows[0]?.mine ?? 0), total: Number(rows[0]?.total ?? 0) };
}

/** Inside the submission's transaction: refuses (429 or 503, with Retry-After) when there is no room for one more. */
export async function admitOnDemand(tx: Queryable, liveChallengeId: number, client: string, limits: OnDemandLimits): Promise<void> {
  await tx.query(`select pg_advisory_xact_lock(${SUBMISSION_LOCK})`);
  const { mine, total } = await pendingOnDemand(tx, liveChallengeId, client);
  if (mine >= limits.perClient) {
    throw new ApiError('too_many_pending', `${mine} of your on-demand articles are still waiting for the annotation servers, the most one client may have; retry in ${RETRY_AFTER_SECONDS} s or once some are done (GET /api/articles/:id)`,
      { pending: mine, limit: limits.perClient },
      RETRY_AFTER_SECONDS,
    );
  }
  if (total >= limits.total) {
    throw new ApiError('busy', `the meta-server already holds ${total} on-demand articles waiting for the annotation servers, the most it takes; retry in ${RETRY_AFTER_SECONDS} s`,
      { pending: total, limit: limits.total },
      RETRY_AFTER_SECONDS,
    );
  }
}
