// The per-client request counts behind @fastify/rate-limit. Its own in-memory store hands each
// request the counter object itself, which later requests keep incrementing, and the limiter
// reads it only after an await: requests arriving together (a burst whose hooks run without
// waiting on anything, e.g. a caller already known) all read the burst's final count, and
// all of them are refused instead of only those past the limit. This one answers each
// request with its own count, taken when it was counted.
import type { FastifyRateLimitStore } from '@fastify/rate-limit';

/** Clients counted at most per route: past this the oldest window goes first. */
const CLIENTS_KEPT = 5_000;

interface Window {
  count: number;
  startedMs: number;
}

export class RateLimitCounts implements FastifyRateLimitStore {
  private readonly windows = new Map<string, Window>();

  /** Counts one request of a client in its fixed window; answers the count so far, this one included, and the time left. */
  incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow?: number): void {
    const windowMs = timeWindow ?? 60_000;
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.startedMs + windowMs <= now) {
      window = { count: 0, startedMs: now };
      this.windows.delete(key);
      if (this.windows.size >= CLIENTS_KEPT) this.windows.delete(this.windows.keys().next().value!);
      this.windows.set(key, window);
    }
    window.count += 1;
    callback(null, { current: window.count, ttl: window.startedMs + windowMs - now });
  }

  /** Each route with its own limit counts apart. */
  child(): RateLimitCounts {
    return new RateLimitCounts();
  }
}
