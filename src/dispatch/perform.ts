// Processes one job: send one article to one annotation server, once. Records the attempt,
// validates the answer, stores it exactly once, or records the failure and throws so BullMQ
// reissues the request with back-off. Two things are not the server's fault and do not use
// up one of its attempts: our own database being unreachable or refusing writes (the job is
// put back with a delay), and this worker stopping mid-request (the job is handed back at once). A closed
// challenge is checked where the attempt is written, not only by the queue's pause flag
// (which a crash can leave unset): no request is made and no answer stored once it is
// closed, and the job waits, unblamed, for a reopening.
import { DelayedError, type Job } from 'bullmq';
import type { Dispatcher } from 'undici';
import type { Logger } from '../log.ts';
import type { ArticleRepository } from '../articles/repository.ts';
import type { Challenge } from '../challenges/repository.ts';
import type { AnnotationServer } from '../servers/repository.ts';
import type { AnswerReader } from './answer-reader.ts';
import type { AnswerContext, AnswerText } from './decode-and-validate.ts';
import { createPolicedAgent } from './annotators/policed-agent.ts';
import { dispatchMetrics } from './dispatch-metrics.ts';
import { isDatabaseFailure } from '../db/retry.ts';
import { AttemptFailedError } from './errors.ts';
import { judgeCall } from './judge.ts';
import type { DispatchJob } from './queues.ts';
import { LoadingCache } from '../shared/loading-cache.ts';
import { RequestBodies, type ArticleForCall } from './request-body.ts';
import { AnnotatorClient } from './annotators/client.ts';
import { BatchCaller } from './batch-caller.ts';
import type { CallOutcome } from './annotators/outcome.ts';
import type { DispatchStore, FinishedAttempt } from './dispatch-store.ts';
import { settleVerdict } from './settle.ts';
import { challengeRules } from '../families/family.ts';
import type { Condition } from '../shared/condition.ts';
import { createOutages } from './outages.ts';

export interface PerformDeps {
  log: Logger;
  store: DispatchStore;
  articles: ArticleRepository;
  /** Server and challenge as they are now: settings changed mid-run apply to the next attempt. */
  lookupServer(serverId: number): Promise<{ server: AnnotationServer; challenge: Challenge } | null>;
  /** Decodes and validates answers, big ones off the event loop. */
  answers: AnswerReader;
  maxAnswerBytes: number;
  /** Refuse private and loopback addresses, when connecting (also after DNS resolution). */
  publicUrlsOnly?: boolean;
  /** How long a job waits before it is tried again when our database was unreachable (default 2 s). */
  databaseRetryDelayMs?: number;
  /**
   * Called when an (article, server) pair reaches done or failed for good — only for
   * articles with a completion callback: that is all it is for, and checking whether the
   * article is complete costs database reads we do not want on every job.
   */
  onSettled?: (articleId: string, serverId: number) => void;
  /** How long a server and its challenge, once read, are used without reading them again (default 1 s). */
  serverCacheMs?: number;
  /** How long a job of a closed challenge waits before it is looked at again (default 5 s; its queue is paused meanwhile, so it then waits in the queue). */
  closedRetryDelayMs?: number;
  /** Most bytes of request bodies kept for reuse (Config.cacheMaxBytes). */
  cacheBytes?: number;
  /** The process's database outage: logged once while it lasts, not once per job (default: one of the performer's own). */
  databaseOutage?: Condition;
}

export class JobPerformer {
  private readonly client: AnnotatorClient;
  /** The calls of servers registered for batches: several jobs' articles in one. */
  private readonly batches: BatchCaller;
  private readonly agents = new Map<number, { agent: Dispatcher; connectTimeoutMs: number }>();
  /** Settings changed mid-run reach the next attempt within serverCacheMs. */
  private readonly servers: LoadingCache<number, { server: AnnotationServer; challenge: Challenge }>;
  private readonly databaseOutage: Condition;

  constructor(private readonly deps: PerformDeps) {
    this.databaseOutage = deps.databaseOutage ?? createOutages(deps.log).database;
    this.servers = new LoadingCache(1024, deps.serverCacheMs ?? 1_000);
    this.client = new AnnotatorClient({
      answers: deps.answers,
      maxAnswerBytes: deps.maxAnswerBytes,
      bodies: new RequestBodies(deps.cacheBytes),
    });
    this.batches = new BatchCaller(this.client);
  }

  /**
   * The server's agent, its connect timeout the attempt's deadline (a connect to a host that
   * drops SYNs ends with the attempt, and frees its slot). A deadline changed mid-run gets a
   * new agent; the old one closes once its calls under way have ended.
   */
  private agent(server: AnnotationServer, deadlineMs: number): Dispatcher {
    const kept = this.agents.get(server.id);
    if (kept?.connectTimeoutMs === deadlineMs) return kept.agent;
    if (kept) void kept.agent.close().catch(() => {});
    const agent = createPolicedAgent({
      connections: server.concurrency,
      publicUrlsOnly: this.deps.publicUrlsOnly ?? false,
      connectTimeoutMs: deadlineMs,
    });
    this.agents.set(server.id, { agent, connectTimeoutMs: deadlineMs });
    return agent;
  }

  /** `callSlots`: this process's calls at once to the job's server (its share of the server's concurrency; see batch-caller.ts). */
  async perform(job: Job<DispatchJob>, signal?: AbortSignal, token?: string, callSlots = 1): Promise<void> {
    try {
      await this.attempt(job, signal, token, callSlots);
    } catch (err) {
      if (err instanceof AttemptFailedError || err instanceof DelayedError || !isDatabaseFailure(err)) throw err;
      // Our database, not the server — unreachable, or refusing writes (read-only, disk full):
      // put the job back without using up one of its attempts. Rethrown, BullMQ would count
      // it and, attempts spent, drop the job with its delivery left queued or under way.
      const delay = this.deps.databaseRetryDelayMs ?? 2_000;
      this.databaseOutage.failed({
        serverId: job.data.serverId,
        articleId: job.data.articleId,
        err: (err as Error).message,
        retryInMs: delay,
      });
      await job.moveToDelayed(Date.now() + delay, token);
      throw new DelayedError();
    }
  }

  private async call(
    server: AnnotationServer,
    article: ArticleForCall,
    deadlineMs: number,
    context: AnswerContext,
    signal: AbortSignal | undefined,
    callSlots: number,
  ): Promise<CallOutcome<AnswerText>> {
    // The URL policy is applied by the agent at each new connection (dispatch/annotators/policed-agent.ts):
    // the policy may have changed since registration, and a name may have been re-pointed.
    const inFlight = dispatchMetrics.inFlight.labels(String(server.id));
    inFlight.inc();
    try {
      const dispatcher = this.agent(server, deadlineMs);
      if (server.batchSize > 1)
        return await this.batches.call(server, article, context, { deadlineMs, signal, dispatcher, slots: callSlots });
      return await this.client.call(server, article, context, { deadlineMs, signal, dispatcher });
    } finally {
      inFlight.dec();
    }
  }

  private async attempt(
    job: Job<DispatchJob>,
    signal: AbortSignal | undefined,
    token: string | undefined,
    callSlots: number,
  ): Promise<void> {
    const { articleId, serverId } = job.data;
    const { store, log } = this.deps;
    const found = await this.servers.get(serverId, (id) => this.deps.lookupServer(id));
    if (!found) {
      log.warn({ serverId, articleId }, 'job for an annotation server that no longer exists; dropped');
      return;
    }
    const { server, challenge } = found;
    // Kept in memory by the repository: every server of a challenge asks for the same ones.
    const article = await this.deps.articles.forDispatch(articleId);
    if (!article) {
      log.warn({ serverId, articleId }, 'job for an article that no longer exists; dropped');
      return;
    }

    const n = await store.beginAttemptUnlessAnswered(articleId, serverId);
    // The database answered: an outage, if one was logged, is over (a boolean check otherwise).
    this.databaseOutage.recovered();
    if (n === 'closed') return await this.waitForReopening(job, token, 'no request was made');
    if (n === null) {
      // A job delivered twice (a worker died after storing): the answer is already there.
      await store.markDone(articleId, serverId);
      return;
    }
    const context: AnswerContext = {
      tasks: article.tasks ? server.tasks.filter((t) => article.tasks!.includes(t)) : server.tasks,
      text: article.text,
      given: article.given,
      ...challengeRules(challenge),
    };
    const call = await this.call(server, article, challenge.timeoutSeconds * 1000, context, signal, callSlots);
    const attempt: FinishedAttempt = {
      articleId,
      serverId,
      n,
      ms: call.ms,
      outcome: 'ok',
      detail: null,
      bytesSent: call.bytesSent,
      bytesReceived: call.bytesReceived,
    };
    if (!call.ok && signal?.aborted) {
      // This worker is stopping (shutdown grace over): hand the request back, unblamed.
      attempt.outcome = 'interrupted';
      attempt.detail = 'the worker stopped before the answer came; the request was handed back to another worker';
      await store.recordFailure(attempt, false);
      dispatchMetrics.observe(serverId, 'interrupted', call.ms);
      log.info({ serverId, articleId, attempt: n }, 'request handed back: this worker is stopping');
      await job.moveToDelayed(Date.now(), token);
      throw new DelayedError();
    }
    const final = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);

    const verdict = judgeCall(call, server);
    const settled = await settleVerdict(store, attempt, verdict, final);
    if (settled.kind === 'closed') {
      return await this.waitForReopening(
        job,
        token,
        verdict.outcome === 'ok' ? 'the answer came after the close and was not stored' : 'the attempt ended after the close',
      );
    }
    if (settled.kind === 'stored') {
      dispatchMetrics.observe(serverId, 'ok', call.ms);
      log.debug({ serverId, articleId, attempt: n, ms: call.ms, stored: settled.fresh }, 'answer stored');
      if (article.callbackUrl) this.deps.onSettled?.(articleId, serverId);
      return;
    }
    dispatchMetrics.observe(serverId, settled.outcome, call.ms);
    log.info(
      { serverId, articleId, attempt: n, outcome: settled.outcome, detail: settled.detail, final },
      final ? 'request failed for good' : 'request failed; it will be reissued',
    );
    if (final && article.callbackUrl) this.deps.onSettled?.(articleId, serverId);
    throw new AttemptFailedError(settled.outcome, settled.detail);
  }

  /** The challenge is closed: the job goes back, not counted against the server, to wait for a reopening. */
  private async waitForReopening(job: Job<DispatchJob>, token: string | undefined, what: string): Promise<never> {
    const { articleId, serverId } = job.data;
    this.deps.log.info(
      { serverId, articleId },
      `challenge closed: ${what}; the request waits in the queue in case the challenge is reopened`,
    );
    await job.moveToDelayed(Date.now() + (this.deps.closedRetryDelayMs ?? 5_000), token);
    throw new DelayedError();
  }

  async close(): Promise<void> {
    await Promise.all([...this.agents.values()].map(({ agent }) => agent.close().catch(() => {})));
    this.agents.clear();
  }
}
