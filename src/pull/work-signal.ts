// What wakes a waiting lease request (long-poll): a per-server signal, fired when the
// server's queue changes in a way that may have made a job takeable — a job added, one put
// back (delayed, stalled), one settled (a slot of the queue's global concurrency freed), the
// queue resumed. Without it a long-poll looked again every pollIntervalMs (250 ms), so an
// article queued just after a look waited that long; with it, the poll takes the job at once,
// and the interval is only the fallback (jobs that become due after a back-off, or the
// watcher down). Ending the signal (shutdown) answers every waiting poll at once.
//
// Across processes the signal comes from BullMQ's own event stream of each queue (every
// process that adds or settles jobs writes there): one blocking XREAD over the streams of the
// pull servers polled here, on a connection of its own (queue-events-watch.ts).

/** Why a wait ended. */
export type WakeReason = 'woken' | 'timeout' | 'ended';

export class WorkSignal {
  private readonly waiters = new Map<number, Set<(reason: WakeReason) => void>>();
  /** Per server, how many times it was fired: a look at the queue that began before a fire must not then wait. */
  private readonly fired = new Map<number, number>();
  private ended = false;

  get isEnded(): boolean {
    return this.ended;
  }

  /** The server's fire count now; give it to wait() after looking at the queue, so a fire in between is not missed. */
  generation(serverId: number): number {
    return this.fired.get(serverId) ?? 0;
  }

  /** Waits until the server is fired (or was fired since `since`), ms pass, or the signal ends. */
  wait(serverId: number, ms: number, since = this.generation(serverId)): Promise<WakeReason> {
    if (this.ended) return Promise.resolve('ended');
    if (this.generation(serverId) !== since) return Promise.resolve('woken');
    return this.park(serverId, ms);
  }

  /** Whether a poll waits for the server now. */
  isAwaited(serverId: number): boolean {
    return this.waiters.has(serverId);
  }

  /** Waits ms (or until the signal ends) whatever happens to the server's queue. */
  sleep(ms: number): Promise<WakeReason> {
    return this.ended ? Promise.resolve('ended') : this.park(-1, ms);
  }

  private park(key: number, ms: number): Promise<WakeReason> {
    return new Promise((resolve) => {
      let set = this.waiters.get(key);
      if (!set) this.waiters.set(key, (set = new Set()));
      const done = (reason: WakeReason) => {
        clearTimeout(timer);
        set.delete(done);
        if (set.size === 0 && this.waiters.get(key) === set) this.waiters.delete(key);
        resolve(reason);
      };
      const timer = setTimeout(() => done('timeout'), ms);
      set.add(done);
    });
  }

  /** Work may be takeable on the server: every poll waiting for it looks again. */
  fire(serverId: number): void {
    this.fired.set(serverId, this.generation(serverId) + 1);
    for (const done of [...(this.waiters.get(serverId) ?? [])]) done('woken');
  }

  /** Shutdown: every wait ends now, and later ones at once. */
  end(): void {
    this.ended = true;
    for (const set of [...this.waiters.values()]) for (const done of [...set]) done('ended');
  }
}
