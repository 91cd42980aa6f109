// Fires the WorkSignal (work-signal.ts) of a pull server when its BullMQ queue's event stream
// says a job may have become takeable, whichever process changed the queue: the queue
// window's refill (in any process), a lease settled or given back, the stalled check, a
// resume. One blocking XREAD over the streams of the servers with a poll waiting in this
// process, on a connection of its own; a server whose poll begins to wait interrupts it
// (CLIENT UNBLOCK) so it is watched at once. A server no poll waits for any longer is dropped
// after the read under way (and a second's grace: a woken poll that finds nothing waits
// again at once), and with none left the watch stops: an agent that finds work at
// every look (or gets its next lease with its answer) costs no read of every queue event.
// A server watched again starts from its stream's current end and its polls look once more
// (fired), so what happened between their last look and that end is not missed. If Redis
// fails the watch, the long-polls' fallback interval still finds the work; the watch is
// tried again after a pause.
import type { Redis } from 'ioredis';
import type { Logger } from '../log.ts';
import { queueName } from '../dispatch/queues.ts';
import type { WorkSignal } from './work-signal.ts';

/** Events after which a job may be takeable; `active` and `drained` are what takes cause, and waking on them would loop. */
const WAKING_EVENTS = new Set(['added', 'waiting', 'delayed', 'completed', 'failed', 'resumed', 'stalled', 'removed']);

/** How long one XREAD blocks: new servers interrupt it, so this only bounds a lost interruption. */
const BLOCK_MS = 5_000;
/** The pause before the watch is tried again after Redis failed it. */
const RETRY_MS = 1_000;
/** How long a server stays watched after its last poll began to wait. */
const GRACE_MS = 1_000;

export class QueueEventsWatch {
  /** Server id → the last event id seen of its stream ('' until its current end is read). */
  private readonly watched = new Map<number, string>();
  /** Server id → when a poll last began to wait for it. */
  private readonly awaitedAt = new Map<number, number>();
  private connection: Redis | undefined;
  private clientId: number | undefined;
  private running: Promise<void> | undefined;
  private closed = false;
  private failing = false;

  constructor(private readonly deps: { redis: Redis; prefix: string; signal: WorkSignal; log: Logger }) {}

  private key(serverId: number): string {
    return `${this.deps.prefix}:${queueName(serverId)}:events`;
  }

  /** Watches the server's queue while a poll waits for it (call after the poll began to wait; idempotent). */
  watch(serverId: number): void {
    if (this.closed) return;
    this.awaitedAt.set(serverId, Date.now());
    if (this.watched.has(serverId)) return;
    this.watched.set(serverId, '');
    if (!this.running) {
      this.start();
      return;
    }
    // The XREAD under way does not name this stream yet: interrupt it.
    if (this.clientId !== undefined) void this.deps.redis.client('UNBLOCK', this.clientId).catch(() => {});
  }

  private start(): void {
    this.running = this.run().finally(() => {
      this.running = undefined;
      // A server watched after the loop's last look at the list (before this ran).
      if (!this.closed && this.watched.size > 0) this.start();
    });
  }

  private async run(): Promise<void> {
    while (!this.closed && this.dropUnawaited()) {
      try {
        if (!this.connection) {
          // Named, so that CLIENT LIST tells whether the watch reads (blocked in XREAD) or stopped.
          this.connection = this.deps.redis.duplicate({
            maxRetriesPerRequest: null,
            enableOfflineQueue: true,
            connectionName: `${this.deps.prefix}:pull-watch`,
          });
          this.connection.on('error', () => {}); // reported below, once per outage
          this.clientId = Number(await this.connection.client('ID'));
        }
        await this.readOnce(this.connection);
        if (this.failing) this.deps.log.info("the pull servers' queue events are watched again");
        this.failing = false;
      } catch (err) {
        if (this.closed) return;
        if (!this.failing)
          this.deps.log.warn(
            { err: (err as Error).message },
            "could not watch the pull servers' queue events; waiting lease requests look for work every leasePollIntervalMs meanwhile",
          );
        this.failing = true;
        await new Promise((r) => setTimeout(r, RETRY_MS));
      }
    }
  }

  /** Forgets the servers no poll waits for; false when none is left (the watch stops until a poll waits again). */
  private dropUnawaited(): boolean {
    const now = Date.now();
    for (const serverId of this.watched.keys()) {
      if (this.deps.signal.isAwaited(serverId) || now - (this.awaitedAt.get(serverId) ?? 0) < GRACE_MS) continue;
      this.watched.delete(serverId);
      this.awaitedAt.delete(serverId);
    }
    return this.watched.size > 0;
  }

  private async readOnce(connection: Redis): Promise<void> {
    // Streams new to the watch start from their current end, and their polls look again: what
    // happened before that end, since their last look, is in the queue for them to find.
    for (const [serverId, last] of this.watched) {
      if (last !== '') continue;
      const tail = (await connection.xrevrange(this.key(serverId), '+', '-', 'COUNT', 1)) as Array<[string, string[]]>;
      if (this.watched.has(serverId)) this.watched.set(serverId, tail[0]?.[0] ?? '0-0');
      this.deps.signal.fire(serverId);
    }
    if (!this.dropUnawaited()) return;
    const ids = [...this.watched.keys()];
    const reply = await connection.xread(
      'BLOCK',
      BLOCK_MS,
      'STREAMS',
      ...ids.map((id) => this.key(id)),
      ...ids.map((id) => this.watched.get(id)!),
    );
    for (const [key, entries] of reply ?? []) {
      const serverId = ids.find((id) => this.key(id) === key);
      if (serverId === undefined || entries.length === 0) continue;
      this.watched.set(serverId, entries[entries.length - 1][0]);
      if (entries.some(([, fields]) => WAKING_EVENTS.has(fields[fields.indexOf('event') + 1] ?? ''))) this.deps.signal.fire(serverId);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.connection?.disconnect();
    await this.running;
  }
}
