// Group commit: the writes of many jobs reach the database together, as one transaction of
// a few multi-row statements, instead of one transaction each. With embedded PGlite every
// statement costs the one thread everything shares about a millisecond whatever it carries,
// and with PostgreSQL every statement is a network round trip; a batch pays that once.
//
// There is no timer: while one batch is being written the next one gathers, so a lone job
// is written at once (no added wait) and a busy process writes ever larger batches.
// A batch holds at most one write per key (article × server), so the statements never
// touch one row twice. When a batch fails for a reason other than the connection (a
// constraint, a deadlock with another process), its writes are tried again one by one, so
// one bad write cannot fail the others; every write still lands whole or not at all.
import { isConnectionError } from '../db/retry.ts';

export interface GroupCommitOptions<Op, R> {
  /** Writes the batch in one transaction and returns one result per op, in order. */
  write(ops: Op[]): Promise<R[]>;
  /** Most ops in one batch. */
  maxBatch: number;
  /** Batches written at once (1 for PGlite: it runs one statement at a time anyway). */
  concurrency: number;
}

interface Pending<Op, R> {
  key: string;
  op: Op;
  resolve(value: R): void;
  reject(err: unknown): void;
}

export class GroupCommit<Op, R> {
  private queue: Array<Pending<Op, R>> = [];
  private running = 0;
  private scheduled = false;
  /** Keys of the ops in batches being written now. */
  private readonly busy = new Set<string>();

  constructor(private readonly opts: GroupCommitOptions<Op, R>) {}

  /** Queues op; resolves once the transaction that wrote it committed. */
  submit(key: string, op: Op): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ key, op, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.running >= this.opts.concurrency || this.queue.length === 0) return;
    this.scheduled = true;
    // One turn of the event loop lets the jobs that finished together join the same batch.
    setImmediate(() => {
      this.scheduled = false;
      this.startBatch();
    });
  }

  private startBatch(): void {
    if (this.running >= this.opts.concurrency) return;
    const batch: Array<Pending<Op, R>> = [];
    const keys = new Set<string>();
    const rest: Array<Pending<Op, R>> = [];
    for (const p of this.queue) {
      if (batch.length < this.opts.maxBatch && !keys.has(p.key) && !this.busy.has(p.key)) {
        batch.push(p);
        keys.add(p.key);
      } else {
        rest.push(p);
      }
    }
    this.queue = rest;
    if (batch.length === 0) return;
    this.running++;
    for (const k of keys) this.busy.add(k);
    // Not awaited: batches run side by side; writeBatch settles each caller's promise and never rejects.
    void this.writeBatch(batch).finally(() => {
      this.running--;
      for (const k of keys) this.busy.delete(k);
      this.schedule();
    });
    this.schedule();
  }

  private async writeBatch(batch: Array<Pending<Op, R>>): Promise<void> {
    try {
      const results = await this.opts.write(batch.map((p) => p.op));
      batch.forEach((p, i) => p.resolve(results[i]));
    } catch (err) {
      if (batch.length === 1 || isConnectionError(err)) {
        for (const p of batch) p.reject(err);
        return;
      }
      // Find the write that failed: each alone, in its own transaction.
      for (const p of batch) {
        try {
          p.resolve((await this.opts.write([p.op]))[0]);
        } catch (single) {
          p.reject(single);
        }
      }
    }
  }
}
