// Small caches for what is read again and again: for dispatch, the server and its challenge
// (the same for every article of a server) and the article (the same for every server it
// goes to, kept by the article repository) — each job used to read them from the database,
// which dominated dispatch with embedded PGlite (one busy thread); in the API, a server's
// status figures and article responses, polled far more often than they change.

/** The bytes V8 keeps for a string's characters: one per character while all are Latin-1, else two. */
export function stringBytes(s: string): number {
  return /[^\u0000-\u00ff]/.test(s) ? s.length * 2 : s.length;
}

/** A bound on the bytes a cache keeps, with how to count a value's bytes. */
export interface ByteBound<V> {
  maxBytes: number;
  bytesOf(value: V): number;
}

/**
 * A bounded map of loaded values. Concurrent gets of one key share one load; a value is
 * kept for ttlMs (Infinity: until evicted), and the least recently used key is evicted
 * once there are `capacity` of them — or, with a ByteBound, once the values kept add up
 * to more than maxBytes (a value bigger than that alone is answered but not kept): a
 * cache of article texts must not hold 256 of them whatever their size. Loads that fail
 * or return null are not kept, so a missing row is looked up again next time.
 *
 * With `refreshAfterMs` (< ttlMs), a get of a value older than that still answers with it
 * at once, and starts one load in the background that replaces it when it succeeds. For
 * routes polled many times a second: without it, every request that arrives while the
 * expired value is loaded again waits for that load (measured: the p99 of a status route
 * polled 500 times a second was such waits), and a value is still never older than ttlMs.
 */
export class LoadingCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();
  private bytes = 0;

  constructor(
    private readonly capacity: number,
    private readonly ttlMs: number,
    private readonly refreshAfterMs = Infinity,
    private readonly bound?: ByteBound<V>,
  ) {}

  /** Bytes of the values kept now (with a ByteBound; 0 without). */
  get keptBytes(): number {
    return this.bytes;
  }

  get(key: K, load: (key: K) => Promise<V | null>): Promise<V | null> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) {
      this.entries.delete(key);
      this.entries.set(key, hit); // refresh: Map keeps insertion order, the oldest goes first
      if (!hit.refreshing && now - hit.loadedAt >= this.refreshAfterMs) this.refreshInBackground(key, hit, load);
      return hit.value;
    }
    if (hit) this.drop(key);
    if (this.ttlMs <= 0) return load(key);
    const value = load(key);
    const entry = this.keep(key, value, now);
    entry.refreshing = true; // nothing to refresh before the first load is in
    value.then(
      (v) => {
        entry.refreshing = false;
        if (this.entries.get(key) !== entry) return;
        if (v === null) this.drop(key);
        else this.weigh(key, entry, v);
      },
      () => {
        if (this.entries.get(key) === entry) this.drop(key);
      },
    );
    return value;
  }

  /** Loads `key` again while `stale` goes on answering; the new value replaces it only if `stale` is still the one kept. */
  private refreshInBackground(key: K, stale: Entry<V>, load: (key: K) => Promise<V | null>): void {
    stale.refreshing = true;
    const started = Date.now();
    load(key)
      .then(
        (value) => {
          if (value !== null && this.entries.get(key) === stale) {
            this.drop(key);
            this.weigh(key, this.keep(key, Promise.resolve(value), started), value);
          }
        },
        () => {}, // the stale value answers until its ttl; the get after that loads and reports the error
      )
      .finally(() => {
        stale.refreshing = false;
      });
  }

  /** Keeps a value known without loading it (one just written, say). */
  set(key: K, value: V): void {
    if (this.ttlMs <= 0) return;
    this.drop(key);
    this.weigh(key, this.keep(key, Promise.resolve(value), Date.now()), value);
  }

  private keep(key: K, value: Promise<V | null>, now: number): Entry<V> {
    const entry: Entry<V> = { value, loadedAt: now, until: now + this.ttlMs, refreshing: false, bytes: 0 };
    this.entries.set(key, entry);
    this.evict();
    return entry;
  }

  /** Counts a loaded value's bytes, then evicts the least recently used until the bound holds (perhaps this value itself). */
  private weigh(key: K, entry: Entry<V>, value: V): void {
    if (!this.bound) return;
    const bytes = this.bound.bytesOf(value);
    if (bytes > this.bound.maxBytes) {
      this.drop(key); // bigger than the whole bound: answered, not kept, and nothing else evicted for it
      return;
    }
    entry.bytes = bytes;
    this.bytes += bytes;
    this.evict();
  }

  private evict(): void {
    const maxBytes = this.bound?.maxBytes ?? Infinity;
    while (this.entries.size > this.capacity || this.bytes > maxBytes) this.drop(this.entries.keys().next().value!);
  }

  private drop(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.bytes;
    this.entries.delete(key);
  }

  /** Forgets one key (or all): the next get loads again. */
  invalidate(key?: K): void {
    if (key !== undefined) return this.drop(key);
    this.entries.clear();
    this.bytes = 0;
  }
}

interface Entry<V> {
  value: Promise<V | null>;
  /** When the load started: the value is at least this fresh. */
  loadedAt: number;
  until: number;
  /** A load of this key is under way (the first one, or one in the background). */
  refreshing: boolean;
  /** The value's bytes once loaded, as counted by the ByteBound (0 until then, and without one). */
  bytes: number;
}
