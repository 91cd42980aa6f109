// Small caches for what is read again and again: for dispatch, the server and its challenge
// (the same for every article of a server) and the article (the same for every server it
// goes to, kept by the article repository) — each job used to read them from the database,
// which dominated dispatch with embedded PGlite (one busy thread); in the API, a server's
// status figures and article responses, polled far more often than they change.

/**
 * A bounded map of loaded values. Concurrent gets of one key share one load; a value is
 * kept for ttlMs (Infinity: until evicted), and the least recently used key is evicted
 * once there are `capacity` of them. Loads that fail or return null are not kept, so a
 * missing row is looked up again next time.
 *
 * With `refreshAfterMs` (< ttlMs), a get of a value older than that still answers with it
 * at once, and starts one load in the background that replaces it when it succeeds. For
 * routes polled many times a second: without it, every request that arrives while the
 * expired value is loaded again waits for that load (measured: the p99 of a status route
 * polled 500 times a second was such waits), and a value is still never older than ttlMs.
 */
export class LoadingCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();

  constructor(
    private readonly capacity: number,
    private readonly ttlMs: number,
    private readonly refreshAfterMs = Infinity,
  ) {}

  get(key: K, load: (key: K) => Promise<V | null>): Promise<V | null> {
    const now = Date.now();
    const hit = this.entries.get(key);
    this.entries.delete(key);
    if (hit && hit.until > now) {
      this.entries.set(key, hit); // refresh: Map keeps insertion order, the oldest goes first
      if (!hit.refreshing && now - hit.loadedAt >= this.refreshAfterMs) this.refreshInBackground(key, hit, load);
      return hit.value;
    }
    if (this.ttlMs <= 0) return load(key);
    const value = load(key);
    const entry = this.keep(key, value, now);
    entry.refreshing = true; // nothing to refresh before the first load is in
    const forget = (): void => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    };
    value.then((v) => {
      entry.refreshing = false;
      if (v === null) forget();
    }, forget);
    return value;
  }

  /** Loads `key` again while `stale` goes on answering; the new value replaces it only if `stale` is still the one kept. */
  private refreshInBackground(key: K, stale: Entry<V>, load: (key: K) => Promise<V | null>): void {
    stale.refreshing = true;
    const started = Date.now();
    load(key).then(
      (value) => {
        if (value !== null && this.entries.get(key) === stale) {
          this.entries.delete(key);
          this.keep(key, Promise.resolve(value), started);
        }
      },
      () => {}, // the stale value answers until its ttl; the get after that loads and reports the error
    ).finally(() => {
      stale.refreshing = false;
    });
  }

  /** Keeps a value known without loading it (one just written, say). */
  set(key: K, value: V): void {
    if (this.ttlMs <= 0) return;
    this.entries.delete(key);
    this.keep(key, Promise.resolve(value), Date.now());
  }

  private keep(key: K, value: Promise<V | null>, now: number): Entry<V> {
    const entry: Entry<V> = { value, loadedAt: now, until: now + this.ttlMs, refreshing: false };
    this.entries.set(key, entry);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }

  /** Forgets one key (or all): the next get loads again. */
  invalidate(key?: K): void {
    if (key === undefined) this.entries.clear();
    else this.entries.delete(key);
  }
}

interface Entry<V> {
  value: Promise<V | null>;
  /** When the load started: the value is at least this fresh. */
  loadedAt: number;
  until: number;
  /** A load of this key is under way (the first one, or one in the background). */
  refreshing: boolean;
}
