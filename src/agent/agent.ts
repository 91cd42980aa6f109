// The agent's loops: each keeps one lease at a time, so --concurrency N holds up to N (the
// meta-server holds the server's own limit across all its agents). A meta-server that
// cannot be reached is waited for with a growing back-off (it may be restarting); a lease
// is settled whatever the team's server did — answered, reported as a fault with the
// server's message, or, when the agent stops, given back so it is offered again at once.
// Leases are taken with keep-alive and renewed together (keep-alive.ts): an agent killed
// without a word frees them within seconds. A team's server that does not answer at all
// (connection refused, reset) is not a fault of the article: the lease is given back, no
// lease is taken until the server answers a probe again, and the meta-server is told.
import { LinkDownError, LinkRefusedError, type LeaseOffer, type MetaLink } from './meta-link.ts';
import type { LocalOutcome, LocalServer } from './local-server.ts';
import { KeepAlive } from './keep-alive.ts';
import { META_BACKOFF, nextBackoff } from './backoff.ts';

export interface AgentOptions {
  link: MetaLink;
  local: LocalServer;
  concurrency: number;
  /** How long each lease request waits for work (seconds, at most 60). */
  waitSeconds: number;
  /** Back-off after the meta-server could not be reached: from minMs, doubling, at most maxMs. */
  backoff?: { minMs: number; maxMs: number };
  /** Probes of a local server that does not answer: from minMs, doubling, at most maxMs (default 250 ms to 5 s). */
  probeBackoff?: { minMs: number; maxMs: number };
  log(line: string): void;
}

export interface AgentCounts {
  leased: number;
  stored: number;
  refused: number;
  failed: number;
  givenBack: number;
}

/** Stops the agent for good: the meta-server refused who it is or what it asks (a wrong token or server). */
const FATAL_STATUSES = new Set([400, 401, 403, 404, 409]);

export class PullAgent {
  private stopping = false;
  private readonly abort = new AbortController();
  private loops: Array<Promise<void>> = [];
  readonly counts: AgentCounts = { leased: 0, stored: 0, refused: 0, failed: 0, givenBack: 0 };
  /** Why the agent stopped by itself, if it did. */
  fatal: Error | undefined;
  private readonly keepAlive: KeepAlive;
  /** Set while the team's server does not answer: resolves when it does again (or the agent stops). */
  private localDown: Promise<void> | undefined;

  constructor(private readonly opts: AgentOptions) {
    this.keepAlive = new KeepAlive(opts.link, opts.log);
  }

  start(): void {
    this.keepAlive.start();
    this.loops = Array.from({ length: this.opts.concurrency }, () => this.loop());
  }

  /** Resolves when every loop has ended (after stop(), or a fatal refusal). */
  async done(): Promise<void> {
    await Promise.all(this.loops);
    this.keepAlive.stop();
  }

  /** Stops taking leases, gives back those held (unless their answer is already in hand), and waits for the loops. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.abort.abort();
    await this.done();
  }

  private backoff(previous: number, of = this.opts.backoff ?? META_BACKOFF): number {
    return nextBackoff(previous, of);
  }

  /**
   * The team's server did not answer (`why`): pause taking leases, say so once (here and to
   * the meta-server), and probe it with a back-off until it answers. Every loop waits on the
   * same promise.
   */
  private pauseForLocal(why: string): Promise<void> {
    this.localDown ??= (async () => {
      this.opts.log(`the local annotation server does not answer (${why}); leases paused until it does`);
      this.keepAlive.reportLocal({ state: 'down', detail: why });
      let delay = 0;
      const probe = this.opts.probeBackoff ?? { minMs: 250, maxMs: 5_000 };
      while (!this.stopping) {
        delay = this.backoff(delay, probe);
        await this.sleep(delay);
        if (this.stopping) break;
        if ((await this.opts.local.probe()) === null) {
          this.opts.log('the local annotation server answers again; taking leases');
          this.keepAlive.reportLocal({ state: 'up' });
          break;
        }
      }
      this.localDown = undefined;
    })();
    return this.localDown;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const signal = this.abort.signal;
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done);
    });
  }

  private async loop(): Promise<void> {
    let delay = 0;
    while (!this.stopping) {
      if (this.localDown) await this.localDown;
      if (this.stopping) break;
      let offer: LeaseOffer | null;
      try {
        offer = await this.opts.link.take(this.opts.waitSeconds, this.abort.signal);
        if (delay > 0) this.opts.log('the meta-server answers again');
        delay = 0;
      } catch (err) {
        if (this.stopping) break;
        if (err instanceof LinkRefusedError && FATAL_STATUSES.has(err.status)) {
          this.fatal = err;
          this.opts.log(`stopping: ${err.message}`);
          this.stopping = true;
          this.abort.abort();
          break;
        }
        delay = this.backoff(delay);
        this.opts.log(`${(err as Error).message}; trying again in ${(delay / 1000).toFixed(1)} s`);
        await this.sleep(delay);
        continue;
      }
      // A stored answer's receipt may carry the next lease: worked on at once, without a lease request.
      while (offer) offer = await this.work(offer);
    }
  }

  /** The team's server on the lease's article: nothing when the lease stops being held meanwhile (it was given back). */
  private async annotate(offer: LeaseOffer, deadline: number): Promise<LocalOutcome | 'lost'> {
    if (this.stopping) return { ok: false, message: 'cancelled: the agent is stopping' };
    if (this.localDown) return { ok: false, message: 'the local annotation server does not answer', unreachable: true };
    const lost = this.keepAlive.hold(offer, this.abort.signal);
    try {
      const outcome = await this.opts.local.annotate(offer.article, Math.max(1, deadline - Date.now()), lost);
      return this.keepAlive.isLost(offer.lease) ? 'lost' : outcome;
    } finally {
      this.keepAlive.drop(offer.lease);
    }
  }

  /** Settles the lease; answers the next lease when the answer's receipt carried one. */
  private async work(offer: LeaseOffer): Promise<LeaseOffer | null> {
    this.counts.leased++;
    const deadline = Date.parse(offer.deadline);
    const outcome = await this.annotate(offer, deadline);
    if (outcome === 'lost') {
      this.opts.log(`lease ${short(offer)}: the meta-server no longer holds it (given back or expired); its article was not answered`);
      return null;
    }
    const unreachable = !outcome.ok && outcome.unreachable === true && !this.stopping;
    if (unreachable) void this.pauseForLocal(outcome.message);
    // An answer in hand is sent even when stopping; an article not yet answered is given back,
    // as is one whose server did not answer at all (not the article's fault).
    const giveBack = !outcome.ok && (this.stopping || unreachable);
    let delay = 0;
    for (;;) {
      try {
        if (outcome.ok) {
          // No next lease while stopping or while the team's server does not answer.
          const receipt = await this.opts.link.answer(offer.lease, outcome.answer, !this.stopping && !this.localDown);
          this.counts.stored++;
          if (receipt.detail) this.opts.log(`lease ${short(offer)}: ${receipt.detail}`);
          return receipt.next ?? null;
        } else if (giveBack) {
          await this.opts.link.release(offer.lease);
          this.counts.givenBack++;
        } else {
          const receipt = await this.opts.link.fail(offer.lease, outcome.message);
          this.counts.failed++;
          this.opts.log(
            `lease ${short(offer)}: your server failed (${outcome.message}); ${receipt.final ? 'no attempt is left' : 'the article will be offered again'}`,
          );
        }
        return null;
      } catch (err) {
        if (err instanceof LinkRefusedError) {
          if (outcome.ok) this.counts.refused++;
          this.opts.log(`lease ${short(offer)}: ${err.message}`);
          return null;
        }
        // Stopping, the meta-server down: the lease is left to its deadline rather than hold the stop up.
        if (!(err instanceof LinkDownError) || Date.now() > deadline || this.stopping) {
          this.opts.log(
            `lease ${short(offer)}: could not be settled before its deadline (${(err as Error).message}); the meta-server counts it as a timeout`,
          );
          return null;
        }
        delay = this.backoff(delay);
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }
}

const short = (offer: LeaseOffer) => offer.lease.slice(0, 8);

/**
 * What the agent's start line says of its concurrency: the server's registered concurrency
 * is the limit across all its agents, so asking for more only adds idle long-polls. Warns
 * when --concurrency exceeds it; the meta-server unreachable for now, says nothing of it.
 */
export async function concurrencyWords(link: Pick<MetaLink, 'server'>, wanted: number, log: (line: string) => void): Promise<string> {
  let limit: number;
  try {
    limit = (await link.server()).concurrency;
  } catch {
    return `up to ${wanted} lease(s) at once`;
  }
  if (wanted <= limit) return `up to ${wanted} lease(s) at once (the server's registered concurrency is ${limit})`;
  log(
    `warning: --concurrency ${wanted} exceeds the server's registered concurrency ${limit}: at most ${limit} lease(s) are held at once across all its agents; register the server with a higher "concurrency" or lower --concurrency`,
  );
  return `up to ${limit} lease(s) at once (the server's registered concurrency; --concurrency ${wanted})`;
}
