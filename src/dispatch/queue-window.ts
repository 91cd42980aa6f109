// Redis holds a bounded window of each server's jobs, not the corpus. Every delivery due is
// a row in the database from the start (dispatch-store.ts, `addDueDeliveries`); the window
// takes the next ones, in queue order, as jobs, and is topped up as pairs settle. So Redis
// stays flat whatever the corpus (a million articles × five servers holds five windows),
// while each server's concurrency is kept busy: a window is four times the server's
// concurrency, and at least `minJobs`.
//
// Where the window has got to is a cursor in Redis: the queue order of the last delivery
// it took. The jobs are queued before the cursor moves (deterministic ids), so a crash in
// between queues the same rows again, deduplicated. Going back is always safe for the same
// reason — a row not begun yet whose job is in Redis is not queued twice — so the cursor is
// sent back whenever rows appear behind it (a load committed after a later one, failed
// articles sent again) and forgotten when Redis may have lost jobs (the reconciler): the
// window then walks the rows not begun from the start, queueing those whose job is gone.
// One refill of a server runs at a time across every process (a short Redis lock), so two
// processes do not both top up the same room; a process that finds the lock taken looks
// again shortly after. A step that must send the cursor back (rows written behind it) writes
// where to in Redis before it asks for the lock, and the next refill, whoever runs it, takes
// it: a refill already under way may have read the rows before they were written, and would
// otherwise move the cursor past them for good.
//
// Who tops up: every process that settles a server's jobs (queue workers and the pull
// protocol's leases call `settled`, checks coalesced per server), every queue step of the
// service (start, new articles, retry), and the reconciler's passes as a backstop.
import { randomUUID } from 'node:crypto';
import type { RedisConnection } from '../queue/redis-connection.ts';
import type { Logger } from '../log.ts';
import type { Challenge } from '../challenges/repository.ts';
import type { AnnotationServer } from '../servers/repository.ts';
import { jobsAtOnce, queueName, type DispatchQueues } from './queues.ts';
import type { DispatchStore } from './dispatch-store.ts';
import { LoadingCache } from '../shared/loading-cache.ts';

/** KEYS[1] the lock, ARGV[1] the holder's token: deleted only by its holder. */
const UNLOCK_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** KEYS[1] where the cursor is to go back to, ARGV[1] a queue position: the earliest asked for is kept. */
const GO_BACK_SCRIPT = `local v = redis.call('GET', KEYS[1])
if not v or tonumber(ARGV[1]) < tonumber(v) then redis.call('SET', KEYS[1], ARGV[1]) end
return 1`;

/** A refill takes well under a second; a killed holder's lock is given up after this long. */
const LOCK_MS = 10_000;

export interface QueueWindowOptions {
  /** Jobs a server's window holds at least (its size is max(minJobs, 4 × concurrency)). */
  minJobs: number;
  /** How long after a settled job the window is looked at (checks within it are one). */
  checkDelayMs: number;
  log: Logger;
  /** The server and its challenge as they are now (null: gone). */
  lookup(serverId: number): Promise<{ server: AnnotationServer; challenge: Challenge } | null>;
}

export class QueueWindow {
  private readonly checks = new Map<number, NodeJS.Timeout>();
  /** Servers and challenges as last read: a check runs up to 20 times a second per server, and a pause or close seen a second late costs nothing (the queue's own pause flag and the write's phase check hold). */
  private readonly found = new LoadingCache<number, { server: AnnotationServer; challenge: Challenge }>(1024, 1_000);
  private closed = false;

  constructor(
    private readonly queues: DispatchQueues,
    private readonly store: DispatchStore,
    private readonly connection: RedisConnection,
    private readonly opts: QueueWindowOptions,
  ) {}

  /** How many jobs of the server Redis holds at most (two refills racing across a lock's expiry may add one window more). */
  size(server: Pick<AnnotationServer, 'concurrency' | 'batchSize'>): number {
    return Math.max(this.opts.minJobs, 4 * jobsAtOnce(server));
  }

  private key(what: 'lock' | 'cursor' | 'back', serverId: number): string {
    // In a cluster the server's queue tag ends the key: a refill's MULTI and MGET touch one slot.
    const { prefix, cluster } = this.queues;
    return cluster ? `${prefix}:window-${what}:${queueName(serverId, true)}` : `${prefix}:window-${what}:${serverId}`;
  }

  /**
   * Tops the server's window up from its deliveries not begun, when a quarter of it or more
   * is free (or it is empty); first sends the cursor back to `from` (a queue position) when
   * it is past it. Returns how many deliveries it took; null when another refill of the
   * server holds the lock now: this one is then tried again shortly, and the going back is
   * kept for it (or for the holder's next). Needs Redis.
   */
  async refill(server: AnnotationServer, challenge: Challenge, from?: number | null): Promise<number | null> {
    const lock = this.key('lock', server.id);
    const cursorKey = this.key('cursor', server.id);
    const backKey = this.key('back', server.id);
    if (from !== undefined && from !== null) await this.connection.eval(GO_BACK_SCRIPT, 1, backKey, from);
    const token = randomUUID();
    if ((await this.connection.set(lock, token, 'PX', LOCK_MS, 'NX')) !== 'OK') {
      this.settled(server.id);
      return null;
    }
    try {
      // The cursor and any going back asked for, in one round trip: a refill runs on every settled check.
      const read = (await this.connection.multi().get(cursorKey).getdel(backKey).exec()) ?? [];
      for (const [err] of read) if (err) throw err;
      const [cursorRead, backRead] = read.map(([, value]) => value as string | null);
      let cursor = Number(cursorRead ?? 0);
      const back = backRead ?? null;
      if (back !== null && Number(back) <= cursor) {
        cursor = Number(back) - 1;
        await this.connection.set(cursorKey, cursor);
      }
      const size = this.size(server);
      const held = await this.queues.jobsHeld(server.id);
      const room = size - held;
      if (room <= 0 || (held > 0 && room < size / 4)) return 0;
      const due = await this.store.dueDeliveries(server.id, cursor, room);
      if (due.length === 0) return 0;
      await this.queues.enqueueRounds(server.id, due, challenge);
      await this.connection.set(cursorKey, due[due.length - 1].seq);
      return due.length;
    } finally {
      await this.connection.eval(UNLOCK_SCRIPT, 1, lock, token);
    }
  }

  /**
   * The queue position up to which the window has taken deliveries (0: none, or sent back to
   * the start): its cursor, or just before a going back asked for and not made yet (rows
   * appended behind the cursor have no job until the next refill takes them).
   */
  async position(serverId: number): Promise<number> {
    const [cursor, back] = await this.connection.mget(this.key('cursor', serverId), this.key('back', serverId));
    const taken = Number(cursor ?? 0);
    return back === null ? taken : Math.min(taken, Number(back) - 1);
  }

  /** Redis may have lost jobs: the window walks the server's deliveries not begun from the start again. */
  async rewind(serverId: number): Promise<void> {
    await this.connection.del(this.key('cursor', serverId), this.key('back', serverId));
  }

  /** A job of the server settled in this process: its window is looked at shortly (once for many). */
  settled(serverId: number): void {
    if (this.closed || this.checks.has(serverId)) return;
    const timer = setTimeout(() => {
      this.checks.delete(serverId);
      void this.check(serverId);
    }, this.opts.checkDelayMs);
    timer.unref();
    this.checks.set(serverId, timer);
  }

  private async check(serverId: number): Promise<void> {
    try {
      const found = await this.found.get(serverId, (id) => this.opts.lookup(id));
      if (!found || found.server.state !== 'active' || found.challenge.phase === 'closed') return;
      // Another process topping it up makes refill look again after it, in case it read the window before our jobs settled.
      await this.refill(found.server, found.challenge);
    } catch (err) {
      // Redis or the database failing: the next settled job, or the reconciler's pass, tops it up.
      this.opts.log.warn({ serverId, err: (err as Error).message }, 'could not top up the queue window of a server; will try again');
    }
  }

  close(): void {
    this.closed = true;
    for (const timer of this.checks.values()) clearTimeout(timer);
    this.checks.clear();
  }
}
