// The agent's loops: each keeps one lease at a time, so --concurrency N holds up to N (the
// meta-server holds the server's own limit across all its agents). A meta-server that
// cannot be reached is waited for with a growing back-off (it may be restarting); a lease
// is settled whatever the team's server did — answered, reported as a fault with the
// server's message, or, when the agent stops, given back so it is offered again at once.
import { LinkDownError, LinkRefusedError, type LeaseOffer, type MetaLink } from './meta-link.ts';
import type { LocalOutcome, LocalServer } from './local-server.ts';

export interface AgentOptions {
  link: MetaLink;
  local: LocalServer;
  concurrency: number;
  /** How long each lease request waits for work (seconds, at most 60). */
  waitSeconds: number;
  /** Back-off after the meta-server could not be reached: from minMs, doubling, at most maxMs. */
  backoff?: { minMs: number; maxMs: number };
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

  constructor(private readonly opts: AgentOptions) {}

  start(): void {
    this.loops = Array.from({ length: this.opts.concurrency }, () => this.loop());
  }

  /** Resolves when every loop has ended (after stop(), or a fatal refusal). */
  async done(): Promise<void> {
    await Promise.all(this.loops);
  }

  /** Stops taking leases, gives back those held (unless their answer is already in hand), and waits for the loops. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.abort.abort();
    await this.done();
  }

  private backoff(previous: number): number {
    const { minMs, maxMs } = this.opts.backoff ?? { minMs: 500, maxMs: 30_000 };
    const next = previous === 0 ? minMs : Math.min(maxMs, previous * 2);
    return Math.round(next * (0.75 + Math.random() * 0.5)); // agents restarted together do not come back together
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
      if (offer) await this.work(offer);
    }
  }

  private async work(offer: LeaseOffer): Promise<void> {
    this.counts.leased++;
    const deadline = Date.parse(offer.deadline);
    const outcome: LocalOutcome = this.stopping
      ? { ok: false, message: 'cancelled: the agent is stopping' }
      : await this.opts.local.annotate(offer.article, Math.max(1, deadline - Date.now()), this.abort.signal);
    // An answer in hand is sent even when stopping; an article not yet answered is given back.
    const giveBack = !outcome.ok && this.stopping;
    let delay = 0;
    for (;;) {
      try {
        if (outcome.ok) {
          const receipt = await this.opts.link.answer(offer.lease, outcome.answer);
          this.counts.stored++;
          if (receipt.detail) this.opts.log(`lease ${short(offer)}: ${receipt.detail}`);
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
        return;
      } catch (err) {
        if (err instanceof LinkRefusedError) {
          if (outcome.ok) this.counts.refused++;
          this.opts.log(`lease ${short(offer)}: ${err.message}`);
          return;
        }
        // Stopping, the meta-server down: the lease is left to its deadline rather than hold the stop up.
        if (!(err instanceof LinkDownError) || Date.now() > deadline || this.stopping) {
          this.opts.log(
            `lease ${short(offer)}: could not be settled before its deadline (${(err as Error).message}); the meta-server counts it as a timeout`,
          );
          return;
        }
        delay = this.backoff(delay);
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }
}

const short = (offer: LeaseOffer) => offer.lease.slice(0, 8);
