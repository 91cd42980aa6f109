// What the API asks of dispatch: start and pause servers, queue newly loaded articles,
// send failed articles again, follow the challenge phase. Enqueue happens before the
// delivery rows are written, so a crash in between leaves a job (deduplicated by its id)
// rather than a delivery with no job.
import type { Redis } from 'ioredis';
import type { Logger } from '../log.ts';
import type { Challenge } from '../challenges/repository.ts';
import type { TaskName } from '../families/registry.ts';
import type { AnnotationServer, ServerRepository } from '../servers/repository.ts';
import { DispatchQueues } from './queues.ts';
import type { DispatchStore } from './store.ts';
import { SERVERS_CHANGED_CHANNEL } from './worker-pool.ts';

export class DispatchService {
  constructor(
    readonly queues: DispatchQueues,
    private readonly publisher: Redis,
    private readonly store: DispatchStore,
    private readonly servers: ServerRepository,
    private readonly log: Logger,
  ) {}

  /** Tells every worker process to re-read the server list now. */
  async announce(): Promise<void> {
    await this.publisher.publish(`${this.queues.prefix}:${SERVERS_CHANGED_CHANNEL}`, 'changed');
  }

  /** A new server: its queue exists, paused, with its concurrency limit set. */
  async serverRegistered(server: AnnotationServer): Promise<void> {
    await this.queues.setConcurrency(server.id, server.concurrency);
    await this.queues.pause(server.id);
    await this.announce();
  }

  async start(server: AnnotationServer, challenge: Challenge): Promise<void> {
    await this.servers.setState(server.id, 'active');
    await this.queues.setConcurrency(server.id, server.concurrency);
    await this.enqueueUndelivered(server, challenge);
    if (challenge.phase !== 'closed') await this.queues.resume(server.id);
    await this.announce();
    this.log.info({ serverId: server.id, challenge: challenge.slug }, 'annotation server started');
  }

  async pause(server: AnnotationServer): Promise<void> {
    await this.servers.setState(server.id, 'paused');
    await this.queues.pause(server.id);
    this.log.info({ serverId: server.id }, 'annotation server paused');
  }

  async enqueueUndelivered(server: AnnotationServer, challenge: Challenge): Promise<number> {
    const ids = await this.store.undelivered(server.id, challenge.id, server.tasks);
    await this.queues.enqueue(server.id, ids, challenge);
    await this.store.createDeliveries(server.id, ids);
    return ids.length;
  }

  /**
   * Newly loaded articles go to every active server of the challenge at once; paused ones
   * get them on start. Given the articles just created (an on-demand submission), exactly
   * those are queued; otherwise every article a server has not been sent yet is, which also
   * catches up any left behind by a crash between loading and queueing.
   */
  async articlesAdded(challenge: Challenge, created?: Array<{ id: string; tasks: TaskName[] | null }>): Promise<void> {
    for (const server of await this.servers.listByChallenge(challenge.id)) {
      if (server.state !== 'active') continue;
      if (!created) {
        await this.enqueueUndelivered(server, challenge);
        continue;
      }
      const ids = created.filter((a) => !a.tasks || a.tasks.some((t) => server.tasks.includes(t))).map((a) => a.id);
      await this.queues.enqueue(server.id, ids, challenge);
      await this.store.createDeliveries(server.id, ids);
    }
  }

  async retryFailed(server: AnnotationServer, challenge: Challenge): Promise<number> {
    const failed = await this.store.failedDeliveries(server.id);
    const next = failed.map((f) => ({ articleId: f.articleId, round: f.round + 1 }));
    await this.queues.enqueueRounds(server.id, next, challenge);
    return await this.store.requeueFailed(server.id, failed);
  }

  /** closed stops dispatch (queues paused, answers frozen); setup and test run the active servers. */
  async phaseChanged(challenge: Challenge): Promise<void> {
    for (const server of await this.servers.listByChallenge(challenge.id)) {
      if (challenge.phase === 'closed' || server.state !== 'active') await this.queues.pause(server.id);
      else {
        await this.enqueueUndelivered(server, challenge);
        await this.queues.resume(server.id);
      }
    }
  }
}
