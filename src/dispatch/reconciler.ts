// Brings the queues in line with the database, so that what the database holds reaches the
// queues whatever died when: an API killed between committing articles and queueing them,
// a request answered while Redis was down, a phase change or a server start whose queue
// step never ran, Redis losing its last writes when it was killed.
//
// Each pass, for every server: its concurrency limit is set; its queue is paused or resumed
// as its state and its challenge's phase say (closed or paused: paused); when it runs, a
// delivery is written for every article it has none for (a route's queue step that never
// ran; looked for when the challenge has a new article, see SWEEP_EVERY), and its queue
// window is topped up (queue-window.ts). A full pass — at start, and
// whenever Redis is found restarted (a new run id), when it may have lost jobs — also
// queues again every delivery under way whose job is gone, and sends the window back to
// the start, so that those not begun whose job is gone are queued again; every other pass does
// the same for a server when the database holds more of its pairs owed a job than Redis holds
// jobs (a job dropped by BullMQ: see jobsLost). Job ids make all of it
// idempotent, so every process runs its own passes: at start, every `intervalMs`, and at
// once when the Redis connection comes back.
import { Cluster } from 'ioredis';
import type { RedisConnection } from '../queue/redis-connection.ts';
import type { Logger } from '../log.ts';
import type { ChallengeRepository, Challenge } from '../challenges/repository.ts';
import type { AnnotationServer, ServerRepository } from '../servers/repository.ts';
import type { DispatchService } from './service.ts';
import type { DispatchStore } from './dispatch-store.ts';
import { withinTime } from '../shared/timeout.ts';

export interface ReconcileReport {
  full: boolean;
  servers: number;
  /** Articles queued for a server that had no delivery for them. */
  enqueued: number;
  /** Deliveries under way whose job was gone, queued again (full passes only; those not begun come back through the window). */
  restored: number;
  paused: number;
  resumed: number;
}

/**
 * A periodic pass looks for articles without a delivery (an anti-join over the challenge,
 * about a second per server at a million articles) only when the challenge has an article
 * it had not seen, and every SWEEP_EVERY passes all the same: a load committed after a later
 * one (its article's queue order below the newest) is caught by its own route's queue step,
 * or, should that process have died, by this.
 */
const SWEEP_EVERY = 10;

export interface ReconcilerOptions {
  intervalMs: number;
  log: Logger;
}

/** Redis's run id, new at every start of redis-server. */
function runIdOf(info: string): string | undefined {
  return /^run_id:(\w+)/m.exec(info)?.[1];
}

/**
 * The run ids of every master, for a cluster (INFO goes to any one node, whose id differs
 * from the next's): new when any master restarted — or a replica took over — and may have
 * lost jobs.
 */
async function currentRunId(connection: RedisConnection): Promise<string | undefined> {
  if (!(connection instanceof Cluster)) return runIdOf(await connection.info('server'));
  const ids = await Promise.all(connection.nodes('master').map(async (node) => runIdOf(await node.info('server'))));
  return ids.includes(undefined) || ids.length === 0 ? undefined : ids.sort().join(',');
}

export class Reconciler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<ReconcileReport | null> | undefined;
  private again = false;
  private lastRunId: string | undefined;
  private stopped = false;
  /** Per server: the challenge's newest article when it was last swept, and the passes since. */
  private readonly swept = new Map<number, { newest: number; passes: number }>();
  private readonly onReady = () => void this.run();

  constructor(
    private readonly dispatch: DispatchService,
    private readonly connection: RedisConnection,
    private readonly repos: { servers: ServerRepository; challenges: ChallengeRepository; store: DispatchStore },
    private readonly opts: ReconcilerOptions,
  ) {}

  start(): void {
    this.connection.on('ready', this.onReady);
    this.timer = setInterval(() => void this.run(), this.opts.intervalMs);
    this.timer.unref();
    // Fire and forget: run() catches and logs its own failures, and start() must not wait for Redis.
    void this.run();
  }

  /** One pass (one at a time; asked again while running, it runs once more after). Null when Redis is down. */
  run(): Promise<ReconcileReport | null> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.pass()
      .catch((err: Error) => {
        this.opts.log.warn({ err: err.message }, 'could not bring the queues in line with the database; will try again');
        return null;
      })
      .finally(() => {
        this.running = undefined;
        if (this.again && !this.stopped) {
          this.again = false;
          void this.run();
        }
      });
    return this.running;
  }

  private async pass(): Promise<ReconcileReport | null> {
    if (this.stopped || !this.dispatch.redisReady()) return null;
    const runId = await currentRunId(this.connection);
    const report: ReconcileReport = {
      full: runId === undefined || runId !== this.lastRunId,
      servers: 0,
      enqueued: 0,
      restored: 0,
      paused: 0,
      resumed: 0,
    };
    const challenges = new Map((await this.repos.challenges.list()).map((c) => [c.id, c]));
    for (const listed of await this.repos.servers.listAll()) {
      if (this.stopped) return null;
      const challenge = challenges.get(listed.challengeId);
      if (!challenge) continue;
      await this.server(listed, challenge, report);
      report.servers++;
    }
    this.lastRunId = runId;
    const { log } = this.opts;
    if (report.enqueued + report.restored + report.paused + report.resumed > 0)
      log.info(report, 'queues brought in line with the database');
    else log.debug(report, 'queues in line with the database');
    return report;
  }

  private async server(listed: AnnotationServer, challenge: Challenge, report: ReconcileReport): Promise<void> {
    const { queues } = this.dispatch;
    await queues.setConcurrency(listed);
    if (report.full) report.restored += await this.restoreJobs(listed.id, challenge);
    // Read again just before acting: a pause or start made since the list was read wins.
    const server = await this.repos.servers.byId(listed.id);
    if (!server) return;
    const runs = server.state === 'active' && challenge.phase !== 'closed';
    const paused = await queues.isPaused(server.id);
    if (runs) {
      await this.dueAndWindow(server, challenge, report);
      if (paused) {
        await queues.resume(server.id);
        report.resumed++;
      }
    } else if (!paused) {
      await queues.pause(server.id);
      report.paused++;
    }
  }

  /** Writes the deliveries due (when a sweep is due: see SWEEP_EVERY) and tops the server's window up. */
  private async dueAndWindow(server: AnnotationServer, challenge: Challenge, report: ReconcileReport): Promise<void> {
    if (!report.full && (await this.jobsLost(server.id))) report.restored += await this.restoreJobs(server.id, challenge);
    // Read before the sweep: an article committed after it makes the next pass sweep again.
    const newest = await this.repos.store.newestArticle(challenge.id);
    const seen = this.swept.get(server.id);
    if (report.full || !seen || seen.newest !== newest || seen.passes + 1 >= SWEEP_EVERY) {
      report.enqueued += await this.dispatch.enqueueUndelivered(server, challenge);
      this.swept.set(server.id, { newest, passes: 0 });
      return;
    }
    seen.passes++;
    await this.dispatch.window.refill(server, challenge);
  }

  /**
   * Whether the database holds unsettled pairs of the server whose jobs are gone from Redis:
   * more deliveries owed a job (under way, or taken by the window) than jobs Redis holds. A job
   * leaves Redis only after its delivery is settled, unless BullMQ dropped it — its attempts
   * spent on errors that were not the server's (a database refusing writes), or a bug — and
   * then nothing would ever offer the pair again: the window's cursor is past it, and full
   * passes come only with a restarted Redis. Looked at on every pass, so it is found whatever
   * happened, in whichever process. A job settling between the reads makes it look so once;
   * the full check that follows is idempotent and finds nothing to do.
   */
  private async jobsLost(serverId: number): Promise<boolean> {
    const owed = await this.repos.store.deliveriesOwedJobs(serverId, await this.dispatch.window.position(serverId));
    if (owed === 0) {
      this.dispatch.shortfall.found(serverId, 0);
      return false;
    }
    const held = await this.dispatch.queues.jobsHeld(serverId);
    this.dispatch.shortfall.found(serverId, Math.max(0, owed - held));
    if (held >= owed) return false;
    this.opts.log.warn(
      { serverId, unsettled: owed, jobs: held },
      'pairs the database holds unsettled have no job in Redis; their jobs are made again',
    );
    return true;
  }

  /**
   * Queues again, in queue order, the deliveries under way whose job is gone, and sends the
   * server's window back to the start: the deliveries not begun whose job is gone are queued
   * again as it walks them (queue-window.ts).
   */
  private async restoreJobs(serverId: number, challenge: Challenge): Promise<number> {
    const { queues, window } = this.dispatch;
    await window.rewind(serverId);
    const missing = await queues.missingJobs(serverId, await this.repos.store.activeDeliveries(serverId));
    if (missing.length === 0) return 0;
    // A job is removed only after its delivery is settled: read the deliveries again, so a
    // job that finished between the two reads is not taken for a lost one.
    const still = await this.repos.store.activeDeliveries(
      serverId,
      missing.map((m) => m.articleId),
    );
    const rounds = new Map(missing.map((m) => [m.articleId, m.round]));
    const lost = still.filter((d) => rounds.get(d.articleId) === d.round);
    await queues.enqueueRounds(serverId, lost, challenge);
    if (lost.length > 0)
      this.opts.log.warn(
        { serverId, jobs: lost.length },
        'jobs missing from Redis (Redis lost writes, the queue key prefix changed, or jobs were dropped) were queued again',
      );
    return lost.length;
  }

  /** Stops; a pass under way may finish within a second (its Redis commands wait for Redis, which may be down). */
  async close(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.connection.off('ready', this.onReady);
    await withinTime(this.running ?? Promise.resolve(null), 1000, null);
  }
}
