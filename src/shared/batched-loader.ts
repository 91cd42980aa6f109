// Reads by key, gathered: the keys asked for within one turn of the event loop are read
// together, in one query, and each caller gets its own value. The jobs a worker holds at
// once (a batch server's especially) ask for their articles together; one round trip and
// one statement serve them all instead of one each.
export class BatchedLoader<K, V> {
  private pending = new Map<K, Array<{ resolve(v: V | null): void; reject(err: unknown): void }>>();
  private scheduled = false;

  /** `readMany` answers the values of the keys it finds; a key it leaves out is null. */
  constructor(private readonly readMany: (keys: K[]) => Promise<Map<K, V>>) {}

  load(key: K): Promise<V | null> {
    return new Promise((resolve, reject) => {
      const waiting = this.pending.get(key);
      if (waiting) waiting.push({ resolve, reject });
      else this.pending.set(key, [{ resolve, reject }]);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    this.scheduled = false;
    try {
      const found = await this.readMany([...batch.keys()]);
      for (const [key, waiting] of batch) for (const w of waiting) w.resolve(found.get(key) ?? null);
    } catch (err) {
      for (const waiting of batch.values()) for (const w of waiting) w.reject(err);
    }
  }
}
