// What the reconciler found at its latest look at each server: pairs the database holds
// unsettled with no job in Redis (which it then queues again). Kept per process for /healthz
// and /metrics: a shortfall found now and then is Redis having lost writes or a job dropped;
// one found on every pass is something to look into.
export class JobShortfall {
  private readonly latest = new Map<number, number>();
  private repairs = 0;

  /** The latest pass looked at the server: `missing` pairs had no job (0: none), and their jobs are made again. */
  found(serverId: number, missing: number): void {
    if (missing > 0) {
      this.latest.set(serverId, missing);
      this.repairs++;
    } else this.latest.delete(serverId);
  }

  /** Pairs without a job at the latest look, over every server. */
  get pairsWithoutJob(): number {
    let n = 0;
    for (const missing of this.latest.values()) n += missing;
    return n;
  }

  /** Times a server's queue was found short of jobs and made whole again. */
  get queueRepairs(): number {
    return this.repairs;
  }
}
