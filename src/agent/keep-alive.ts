// The agent's side of lease keep-alive: every lease is taken with keepAlive=1, so the
// meta-server gives it back unless it is renewed within the offer's keepAliveSeconds. One
// timer renews all the leases held with one call every third of that window, and carries
// the agent's word on its own server (up/down) with it. A lease the meta-server no longer
// holds (given back, expired) has its work aborted: its answer would be refused anyway.
import { LinkRefusedError, type LeaseOffer, type MetaLink } from './meta-link.ts';

/** Renewals before any offer said its window (the meta-server's default window is 15 s). */
const DEFAULT_RENEW_MS = 5_000;

/** Never renew more often than this, whatever window the meta-server gives. */
const MIN_RENEW_MS = 200;

interface Held {
  abort: AbortController;
  lost: boolean;
}

export class KeepAlive {
  private readonly held = new Map<string, Held>();
  private timer: NodeJS.Timeout | undefined;
  private everyMs = DEFAULT_RENEW_MS;
  /** The agent's word on its server, sent with the next renewal (and again with every one while down). */
  private local: { state: 'up' | 'down'; detail?: string } | undefined;
  private renewing = false;
  private complained = false;

  constructor(
    private readonly link: Pick<MetaLink, 'renew'>,
    private readonly log: (line: string) => void,
  ) {}

  start(): void {
    this.schedule();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    this.timer = setTimeout(() => void this.renew().finally(() => this.timer && this.schedule()), this.everyMs);
    this.timer.unref();
  }

  /** Holds the lease until drop(); the signal aborts when the agent stops or the meta-server no longer holds the lease. */
  hold(offer: LeaseOffer, stopping: AbortSignal): AbortSignal {
    const every = offer.keepAliveSeconds ? Math.max(MIN_RENEW_MS, (offer.keepAliveSeconds * 1000) / 3) : this.everyMs;
    if (every < this.everyMs && this.timer) {
      // A shorter window than the one the timer was set for: renew on the new rhythm from now.
      this.everyMs = every;
      clearTimeout(this.timer);
      this.schedule();
    }
    const abort = new AbortController();
    if (stopping.aborted) abort.abort();
    else stopping.addEventListener('abort', () => abort.abort(), { once: true, signal: abort.signal });
    this.held.set(offer.lease, { abort, lost: false });
    return abort.signal;
  }

  isLost(lease: string): boolean {
    return this.held.get(lease)?.lost ?? false;
  }

  /** The lease's work is over: it is answered, failed or given back from here on (each settles it). */
  drop(lease: string): void {
    // Its work has ended: aborting its controller also takes its listener off the agent's stop signal.
    this.held.get(lease)?.abort.abort();
    this.held.delete(lease);
  }

  /** Says (with the next renewal, at once) whether the team's server answers. */
  reportLocal(local: { state: 'up' | 'down'; detail?: string }): void {
    this.local = local;
    void this.renew();
  }

  private async renew(): Promise<void> {
    if (this.renewing || (this.held.size === 0 && !this.local)) return;
    this.renewing = true;
    const ids = [...this.held.keys()];
    const local = this.local;
    try {
      const still = new Set(await this.link.renew(ids, local));
      if (local?.state === 'up' && this.local === local) this.local = undefined; // said once; "down" is said until it is up
      for (const id of ids) {
        const h = this.held.get(id);
        if (h && !still.has(id)) {
          h.lost = true;
          h.abort.abort();
        }
      }
      this.complained = false;
    } catch (err) {
      // The meta-server down or restarting: the leases' deadlines and windows are its business; say it once.
      if (!this.complained || err instanceof LinkRefusedError) this.log(`could not renew the leases held: ${(err as Error).message}`);
      this.complained = true;
    } finally {
      this.renewing = false;
    }
  }
}
