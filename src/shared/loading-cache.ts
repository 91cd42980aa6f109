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
 */
export class LoadingCache<K, V> {
  private readonly entries = new Map<K, { value: Promise<V | null>; until: number }>();

  constructor(
    private readonly capacity: number,
    private readonly ttlMs: number,
  ) {}

  get(key: K, load: (key: K) => Promise<V | null>): Promise<V | null> {
    const now = Date.now();
    const hit = this.entries.get(key);
    this.entries.delete(key);
    if (hit && hit.until > now) {
      this.entries.set(key, hit); // refresh: Map keeps insertion order, the oldest goes first
      return hit.value;
    }
    if (this.ttlMs <= 0) return load(key);
    const value = load(key);
    const entry = this.keep(key, value, now);
    const forget = (): void => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    };
    value.then((v) => v === null && forget(), forget);
    return value;
  }

  /** Keeps a value known without loading it (one just written, say). */
  set(key: K, value: V): void {
    if (this.ttlMs <= 0) return;
    this.entries.delete(key);
    this.keep(key, Promise.resolve(value), Date.now());
  }

  private keep(key: K, value: Promise<V | null>, now: number): { value: Promise<V | null>; until: number } {
    const entry = { value, until: now + this.ttlMs };
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
