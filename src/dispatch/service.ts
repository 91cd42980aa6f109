// What the API asks of dispatch: start and pause servers, queue newly loaded articles,
// send failed articles again, follow the challenge phase.
//
// The database is the record of what must be sent; Redis holds a window of jobs that send
// it (queue-window.ts). A change is written to the database first (articles, server state,
// phase), then its queue step runs — now, if it is done within QUEUE_WAIT_MS, else it goes
// on after the request is answered, and the reconciler finishes whatever did not, bringing
// the queues in line with the database at start, periodically and whenever Redis comes back
// (reconciler.ts). So no request waits on a dead Redis, and nothing the database holds is
// left unsent whatever dies when. A queue step writes a waiting delivery row for every
// article due (one statement, however many), then tops the server's window up; the window
// queues a job before it marks the row as in Redis, with a deterministic job id, so a crash
// in between leaves a row still waiting, queued again and deduplicated.
import { JobShortfall } from './job-shortfall.ts';
import type { RedisConnection } from '../queue/redis-connection.ts';
import type { Logger } from '../log.ts';
import type { Challenge } from '../challenges/repository.ts';
import type { AnnotationServer, ServerRepository } from '../servers/repository.ts';
import { ServiceUnavailableError } from '../http/unavailable.ts';
import { withinTime } from '../shared/timeout.ts';
import { DispatchQueues } from './queues.ts';
import type { QueueWindow } from './queue-window.ts';
import type { DispatchStore } from './dispatch-store.ts';
import { SERVERS_CHANGED_CHANNEL } from './worker-pool.ts';

/** How long a request waits for its queue step before answering anyway (the reconciler finishes it). */
export const QUEUE_WAIT_MS = 1000;

export class DispatchService {
  /** What the reconciler found missing from the queues at its latest look (for /healthz and /metrics). */
  readonly shortfall = new JobShortfall();

  constructor(
    readonly queues: DispatchQueues,
    readonly window: QueueWindow,
    private readonly publisher: RedisConnection,
    private readonly store: DispatchStore,
    private readonly servers: ServerRepository,
    private readonly log: Logger,
  ) {}

  /** Redis is connected: queue steps are tried now (a command sent otherwise would wait for the reconnection). */
  redisReady(): boolean {
    return this.publisher.status === 'ready';
  }

  /**
   * Runs a queue step now and true once it is done, or false — at once while Redis is
   * down, after QUEUE_WAIT_MS while it does not answer — leaving it to the reconciler (a
   * step still under way then finishes by itself; every step may run twice).
   */
  private async toQueues(what: string, step: () => Promise<void>): Promise<boolean> {
    if (!this.redisReady()) {
      this.log.warn({ what }, 'Redis is unreachable: the change is stored and reaches the queues once Redis answers again');
      return false;
    }
    const done = step().then(
      () => true,
      (err: Error) => {
        this.log.warn({ what, err: err.message }, 'a queue step failed: the change is stored and the reconciler queues it');
        return false;
      },
    );
    const inTime = await withinTime(done, QUEUE_WAIT_MS, false);
    if (!inTime)
      this.log.warn(
        { what, waitedMs: QUEUE_WAIT_MS },
        'the queue step takes longer (a large corpus, or Redis slow or failing): the request was answered, the step goes on and the reconciler finishes it',
      );
    return inTime;
  }

  /** A step that cannot be left for later: refused with 503 while Redis is down or slow. */
  private async needQueues<T>(what: string, step: () => Promise<T>): Promise<T> {
    const refused = new ServiceUnavailableError('redis', 5, what);
    if (!this.redisReady()) throw refused;
    const done = step().then(
      (value) => ({ value }),
      (err: unknown) => ({ err }),
    );
    const result = await withinTime<{ value: T } | { err: unknown } | null>(done, QUEUE_WAIT_MS * 2, null);
    if (!result) throw refused;
    if ('err' in result) throw result.err;
    return result.value;
  }

  /** Tells every worker process to re-read the server list now. */
  async announce(): Promise<void> {
    await this.publisher.publish(`${this.queues.prefix}:${SERVERS_CHANGED_CHANNEL}`, 'changed');
  }

  /** A new server: its queue exists, paused, with its concurrency limit set. */
  async serverRegistered(server: AnnotationServer): Promise<boolean> {
    return await this.toQueues(`set up the queue of server ${server.id}`, async () => {
      await this.queues.setConcurrency(server);
      await this.queues.pause(server.id);
      await this.announce();
    });
  }

  async start(server: AnnotationServer, challenge: Challenge): Promise<boolean> {
    await this.servers.setState(server.id, 'active');
    this.log.info({ serverId: server.id, challenge: challenge.slug }, 'annotation server started');
    return await this.toQueues(`start server ${server.id}`, async () => {
      await this.queues.setConcurrency(server);
      await this.enqueueUndelivered(server, challenge);
      if (challenge.phase !== 'closed') await this.queues.resume(server.id);
      await this.announce();
    });
  }

  async pause(server: AnnotationServer): Promise<boolean> {
    await this.servers.setState(server.id, 'paused');
    this.log.info({ serverId: server.id }, 'annotation server paused');
    return await this.toQueues(`pause server ${server.id}`, () => this.queues.pause(server.id));
  }

  /**
   * Writes, for the server, a waiting delivery for every article of the challenge it has
   * none for yet (of `among` only, when given), and tops its queue window up. Returns how
   * many deliveries it wrote. Needs Redis; the reconciler calls it too.
   */
  async enqueueUndelivered(server: AnnotationServer, challenge: Challenge, among?: string[]): Promise<number> {
    const { added, firstSeq } = await this.store.addDueDeliveries(server.id, challenge.id, server.tasks, among);
    await this.window.refill(server, challenge, firstSeq);
    return added;
  }

  /**
   * Newly loaded articles go to every active server of the challenge at once; paused ones
   * get them on start. Given article ids (an on-demand submission), those are queued;
   * otherwise every article a server has not been sent yet is. Either way an article sent
   * already is not sent again, so a client repeating its request after a crash gets its
   * articles queued, not skipped as "already there". False: left to the reconciler.
   */
  async articlesAdded(challenge: Challenge, articleIds?: string[]): Promise<boolean> {
    return await this.toQueues(`queue the new articles of challenge ${challenge.slug}`, async () => {
      for (const server of await this.servers.listByChallenge(challenge.id)) {
        if (server.state === 'active') await this.enqueueUndelivered(server, challenge, articleIds);
      }
    });
  }

  async retryFailed(server: AnnotationServer, challenge: Challenge): Promise<number> {
    return await this.needQueues('the failed articles could not be queued again now', async () => {
      const { n, firstSeq } = await this.store.requeueFailed(server.id);
      await this.window.refill(server, challenge, firstSeq);
      return n;
    });
  }

  /**
   * Removes a deleted server's queue (the route checked that Redis answered before deleting
   * the rows). Should Redis fail now, the keys stay behind: no worker consumes a queue of a
   * server that no longer exists.
   */
  async removeQueue(serverId: number): Promise<boolean> {
    return await this.toQueues(`remove the queue of server ${serverId}`, async () => {
      await this.queues.queue(serverId).obliterate({ force: true });
      await this.announce();
    });
  }

  /** Refuses (503) a change that needs Redis at once, before anything is written. */
  requireQueues(what: string): void {
    if (!this.redisReady()) throw new ServiceUnavailableError('redis', 5, what);
  }

  /** closed stops dispatch (queues paused, answers frozen); setup and test run the active servers. */
  async phaseChanged(challenge: Challenge): Promise<boolean> {
    return await this.toQueues(`follow the phase of challenge ${challenge.slug}`, async () => {
      for (const server of await this.servers.listByChallenge(challenge.id)) {
        if (challenge.phase === 'closed' || server.state !== 'active') await this.queues.pause(server.id);
        else {
          await this.enqueueUndelivered(server, challenge);
          await this.queues.resume(server.id);
        }
      }
    });
  }
}
