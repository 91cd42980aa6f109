// How many on-demand articles may wait for the live servers: per client and in total.
// "Waiting" is what the queues hold for them — a delivery to an active server still queued
// or being worked on (a paused server's backlog is its team's choice, and must not shut
// everyone out) — plus articles submitted in the last few minutes that have no delivery yet (committed,
// not yet queued: the queueing may lag behind, or wait for Redis). So a client cannot pile
// up work ahead of everyone else, and the machine holds a bounded backlog; an article
// counts again only while it is really waiting, whatever its age.
//
// The count and the insert are one transaction under one advisory lock, so concurrent
// submissions cannot each see room for one more (ArticleRepository.insertMany). The count
// starts from the live servers' queued and active deliveries (indexed, and bounded by the
// total cap), not from every article ever submitted.
import type { PendingOnDemand } from './repository.ts';
import { ApiError } from '../http/api-error.ts';

export interface OnDemandLimits {
  perClient: number;
  total: number;
}

/** Retry-After of a refusal: the servers need some time to work through what waits. */
const RETRY_AFTER_SECONDS = 30;

/**
 * Inside the submission's transaction, given what waits (ArticleRepository counts it under
 * the lock): refuses (429 or 503, with Retry-After) when there is no room for one more.
 */
export function admitOnDemand({ mine, total }: PendingOnDemand, limits: OnDemandLimits): void {
  if (mine >= limits.perClient) {
    throw new ApiError(
      'too_many_pending',
      `${mine} of your on-demand articles are still waiting for the annotation servers, the most one client may have; retry in ${RETRY_AFTER_SECONDS} s or once some are done (GET /api/articles/:id)`,
      { pending: mine, limit: limits.perClient },
      RETRY_AFTER_SECONDS,
    );
  }
  if (total >= limits.total) {
    throw new ApiError(
      'busy',
      `the meta-server already holds ${total} on-demand articles waiting for the annotation servers, the most it takes; retry in ${RETRY_AFTER_SECONDS} s`,
      { pending: total, limit: limits.total },
      RETRY_AFTER_SECONDS,
    );
  }
}
