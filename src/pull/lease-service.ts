// The pull protocol's leases: an agent next to a team's annotation server takes articles
// over HTTPS instead of the meta-server calling the server. A lease is the article's
// BullMQ job, fetched by the API process with the lease id as the job's lock token
// (a worker with no processor, queue/worker.ts), so the server's concurrency limit (the
// queue's global concurrency), pausing, the back-off and maxAttempts are the queue's own;
// its answer goes through the same judge and the same store as a queue worker's
// (dispatch/judge.ts, dispatch/settle.ts), so the outbox, "closed is frozen", exactly-once
// storage, the attempt log and every figure hold for pull servers unchanged.
// A lease not answered by its deadline (the challenge's timeout) is a `timeout` attempt,
// settled by the sweeper (or by a late answer, which is refused).
import { Redis } from 'ioredis';
import { Job, type Worker } from 'bullmq';
import type { RedisConnection } from '../queue/redis-connection.ts';
import type { Logger } from '../log.ts';
import type { ArticleRepository } from '../articles/repository.ts';
import type { Challenge } from '../challenges/repository.ts';
import type { AnnotationServer } from '../servers/repository.ts';
import type { AnswerReader } from '../dispatch/answer-reader.ts';
import type { DispatchStore, FinishedAttempt } from '../dispatch/dispatch-store.ts';
import { DISPATCH_WORKER_OPTIONS, queueName, type DispatchJob } from '../dispatch/queues.ts';
import { AttemptFailedError } from '../dispatch/errors.ts';
import { settleVerdict } from '../dispatch/settle.ts';
import { dispatchMetrics } from '../dispatch/dispatch-metrics.ts';
import { createManualWorker, fetchedJob, handOverLock } from '../queue/worker.ts';
import { LeaseRecords, newLeaseId, type LeaseRecord } from './lease-records.ts';
import { judgeLeaseAnswer, leaseArticle, type LeaseArticle, type LeaseReceipt } from './lease-answer.ts';
import { keepAliveOf, SetupLeases } from './setup-lease.ts';
import { WorkSignal } from './work-signal.ts';
import { awaitsSetupAnswer } from '../servers/setup-check/agent-wait.ts';
import type { ServerWithChallenge } from '../servers/with-challenge.ts';
import { QueueEventsWatch } from './queue-events-watch.ts';

export interface LeaseServiceDeps {
  redis: RedisConnection;
  prefix: string;
  /** A Redis Cluster: queue names and the lease records' keys are hash-tagged. */
  cluster?: boolean;
  log: Logger;
  store: DispatchStore;
  articles: ArticleRepository;
  answers: AnswerReader;
  saveCheck: SetupLeases['deps']['saveCheck'];
  lockDurationMs: number;
  stalledIntervalMs: number;
  /** How often a long-poll looks at the queue again while there is no work. */
  pollIntervalMs: number;
  /** How often expired leases are settled as timeouts. */
  sweepIntervalMs: number;
  /** How long a job of a closed challenge waits before it is offered again (default 5 s). */
  closedRetryDelayMs?: number;
  /** Called when an article with a completion callback is settled for good by a lease (as JobPerformer's onSettled). */
  onSettled?: (articleId: string, serverId: number) => void;
  /** A job of the server left the queue or went back to it (its queue window is topped up). */
  jobSettled?: (serverId: number) => void;
}

export interface LeaseOffer {
  lease: string;
  deadline: string;
  article: LeaseArticle;
  /** Taken with keep-alive: renew the lease within this many seconds or it is given back. */
  keepAliveSeconds?: number;
}

/** A receipt of an answer, with the server's next lease when the agent asked for it and there was work. */
export interface AnswerReceipt extends LeaseReceipt {
  next?: LeaseOffer;
}

export interface AgentStatus {
  connected: boolean;
  lastPollAt: string | null;
  lastLeaseAt: string | null;
  leasesHeld: number;
  /** What the agent last said of its own annotation server ('unknown' when it said nothing lately). */
  localServer: 'up' | 'down' | 'unknown';
  localServerDetail?: string;
}

/** An agent silent longer than the longest long-poll (60 s) and a margin is taken for gone. */
const AGENT_SILENCE_MS = 90_000;

/** How often the agent's last poll is written to Redis per server (its status allows 90 s of silence). */
const POLL_NOTE_MS = 5_000;

/** How long past its deadline a lease's job is kept in this process when no answer came here (another process settled it). */
const JOB_KEPT_AFTER_DEADLINE_MS = 60_000;

/** A job fetched and locked with `token`; fresh: the token was never a lease's id. */
interface FetchedJob {
  job: Job<DispatchJob>;
  token: string;
  fresh: boolean;
}

/** Jobs settled without a lease (answered already, article gone) before a long-poll gives up for this round. */
const SKIPS_PER_TAKE = 20;

export class LeaseService {
  readonly records: LeaseRecords;
  private readonly workers = new Map<number, Worker<DispatchJob>>();
  private readonly setup: SetupLeases;
  private sweeper: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  private closed = false;
  /** When this process began sweeping: a window that lapsed while no process swept was not the agent's doing. */
  private readonly since = Date.now();
  private readonly signal = new WorkSignal();
  /**
   * What wakes waiting polls at once; none on a Redis Cluster, where one XREAD over several
   * servers' streams would cross hash slots: polls there look every leasePollIntervalMs.
   */
  private readonly watch: QueueEventsWatch | null;
  private readonly polledAt = new Map<number, number>();
  /**
   * The jobs this process leased, by lease id, until settled: an answer that comes back here
   * (the agent's connection usually does) settles it without reading the job again from
   * Redis. Nothing of the job changes while its lease holds the lock; an answer that reaches
   * another process reads it there.
   */
  private readonly leasedJobs = new Map<string, { job: Job<DispatchJob>; until: number }>();

  constructor(private readonly deps: LeaseServiceDeps) {
    this.records = new LeaseRecords(deps.redis, deps.prefix, deps.cluster);
    this.watch =
      deps.cluster || !(deps.redis instanceof Redis)
        ? null
        : new QueueEventsWatch({ redis: deps.redis, prefix: deps.prefix, signal: this.signal, log: deps.log });
    this.setup = new SetupLeases({ records: this.records, answers: deps.answers, saveCheck: deps.saveCheck });
  }

  start(): void {
    this.sweeper = setInterval(() => void this.sweep(), this.deps.sweepIntervalMs);
    this.sweeper.unref();
  }

  /** Whether an agent is connected (it asked for work within the longest long-poll and a margin, or holds leases), and since when. */
  async agentStatus(serverId: number): Promise<AgentStatus> {
    const seen = await this.records.agentStatus(serverId);
    const recent = (ms: number | null | undefined) => ms != null && Date.now() - ms < AGENT_SILENCE_MS;
    // An agent whose server is down asks for no work, but keeps saying so (renew): it is connected.
    const local = recent(seen.local?.at) ? seen.local : null;
    const connected = seen.leasesHeld > 0 || recent(seen.lastPollAt) || local !== null;
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    return {
      connected,
      lastPollAt: iso(seen.lastPollAt),
      lastLeaseAt: iso(seen.lastLeaseAt),
      leasesHeld: seen.leasesHeld,
      localServer: local?.state ?? 'unknown',
      ...(local?.state === 'down' ? { localServerDetail: local.detail } : {}),
    };
  }

  /** The server's queue, consumed by hand: jobs are fetched with the lease id as lock token. */
  private worker(serverId: number): Worker<DispatchJob> {
    let worker = this.workers.get(serverId);
    if (!worker) {
      worker = createManualWorker<DispatchJob>({
        queue: queueName(serverId, this.deps.cluster),
        connection: this.deps.redis,
        prefix: this.deps.prefix,
        lockDurationMs: this.deps.lockDurationMs,
        stalledIntervalMs: this.deps.stalledIntervalMs,
        log: this.deps.log,
        problem: 'lease queue problem',
        logFields: { serverId },
        more: DISPATCH_WORKER_OPTIONS,
      });
      this.workers.set(serverId, worker);
    }
    return worker;
  }

  /**
   * A lease on the server's next article, waiting up to waitMs for one; null when there is
   * none by then (or the caller left: `gone`; or the service is stopping: `pollsEnded`). The
   * setup article comes first while the server's check waits for its agent. Between looks
   * the poll sleeps until the server's queue changes (work-signal.ts), pollIntervalMs at most.
   */
  async take(
    current: () => Promise<{ server: AnnotationServer; challenge: Challenge } | null>,
    waitMs: number,
    gone: () => boolean,
    keepAliveMs = 0,
  ): Promise<LeaseOffer | null> {
    const until = Date.now() + waitMs;
    for (;;) {
      const found = await current();
      if (!found || this.signal.isEnded) return null;
      const { server, challenge } = found;
      const seen = this.signal.generation(server.id);
      await this.notePoll(server.id);
      const offer = (await this.setup.offer(server, challenge, keepAliveMs)) ?? (await this.takeJob(server, challenge, keepAliveMs));
      if (offer && offer !== 'closed') return offer;
      const left = until - Date.now();
      if (left <= 0 || gone()) return null;
      const pause = Math.min(left, this.deps.pollIntervalMs);
      // A closed challenge's job was just put back for later: waking on that would loop through the queue.
      let woke;
      if (offer === 'closed') woke = await this.signal.sleep(pause);
      else {
        const waiting = this.signal.wait(server.id, pause, seen);
        this.watch?.watch(server.id); // after the wait began: the watch runs while polls wait
        woke = await waiting;
      }
      if (woke === 'ended' || gone()) return null;
    }
  }

  /** Shutdown: every waiting lease request answers now, and new ones at once (the routes say 503). */
  endPolls(): void {
    this.signal.end();
  }

  get pollsEnded(): boolean {
    return this.signal.isEnded;
  }

  /** The agent's last poll, for its status: written at most every POLL_NOTE_MS per server, not on every look at the queue. */
  private async notePoll(serverId: number): Promise<void> {
    const now = Date.now();
    if (now - (this.polledAt.get(serverId) ?? 0) < POLL_NOTE_MS) return;
    this.polledAt.set(serverId, now);
    await this.records.polled(serverId);
  }

  /**
   * The server's next job on lease; `first`, a job already fetched and locked with `token`
   * (the call that settled the previous lease fetched it), is leased before the queue is asked.
   */
  private async takeJob(
    server: AnnotationServer,
    challenge: Challenge,
    keepAliveMs: number,
    first?: { job: Job<DispatchJob>; token: string },
  ): Promise<LeaseOffer | 'closed' | null> {
    const worker = this.worker(server.id);
    let held: FetchedJob | undefined = first && { ...first, fresh: false };
    for (let skipped = 0; skipped < SKIPS_PER_TAKE; skipped++) {
      if (!held) {
        const token = newLeaseId();
        const job = await worker.getNextJob(token, { block: false });
        if (!job) return null;
        held = { job, token, fresh: true };
      }
      const offer = await this.leaseJob(server, challenge, keepAliveMs, held);
      held = undefined;
      if (offer !== 'skipped') return offer;
    }
    return null;
  }

  /** The fetched job (locked with `token`) on lease; 'skipped' when it needed none (settled already, article gone). */
  private async leaseJob(
    server: AnnotationServer,
    challenge: Challenge,
    keepAliveMs: number,
    { job, token, fresh }: FetchedJob,
  ): Promise<LeaseOffer | 'closed' | 'skipped'> {
    const { store, articles } = this.deps;
    const { articleId } = job.data;
    const article = await articles.forDispatch(articleId);
    if (!article) {
      this.deps.log.warn({ serverId: server.id, articleId }, 'job for an article that no longer exists; dropped');
      await job.moveToCompleted(null, token, false);
      return 'skipped';
    }
    const n = await store.beginAttemptUnlessAnswered(articleId, server.id);
    if (n === 'closed') {
      await job.moveToDelayed(Date.now() + (this.deps.closedRetryDelayMs ?? 5_000), token);
      return 'closed';
    }
    if (n === null) {
      // A job delivered twice (its answer came, its lock was lost): settled already.
      await store.markDone(articleId, server.id);
      await job.moveToCompleted(null, token, false);
      this.deps.jobSettled?.(server.id);
      return 'skipped';
    }
    // The lease id is the job's lock token. A job fetched under the previous lease's token gets
    // a new one: that id was the agent's, and a repeated answer to it must find it gone.
    const id = fresh ? token : newLeaseId();
    const payload = leaseArticle(article, server);
    const startedAt = Date.now();
    const deadline = startedAt + challenge.timeoutSeconds * 1000;
    const bytesSent = Buffer.byteLength(JSON.stringify(payload));
    const lockMs = deadline - startedAt + this.deps.lockDurationMs + 2 * this.deps.sweepIntervalMs;
    // The job stays locked past the deadline, until the sweeper has settled the lease. Both in one round trip (pipelined on the connection).
    await Promise.all([
      this.records.save({
        id,
        kind: 'job',
        serverId: server.id,
        teamId: server.teamId,
        jobId: job.id!,
        articleId,
        n,
        startedAt,
        deadline,
        bytesSent,
        keepAliveMs,
      }),
      id === token
        ? job.extendLock(id, lockMs)
        : handOverLock(this.deps.redis, this.worker(server.id), job, { from: token, to: id, ms: lockMs }),
    ]);
    this.leasedJobs.set(id, { job, until: deadline + JOB_KEPT_AFTER_DEADLINE_MS });
    return { lease: id, deadline: new Date(deadline).toISOString(), article: payload, ...keepAliveOf(keepAliveMs) };
  }

  /**
   * The lease's job: as this process leased it, else loaded through the server's lease
   * worker (its back-off strategy applies on failure). Called once per settled lease.
   */
  private async job(lease: LeaseRecord): Promise<Job<DispatchJob> | undefined> {
    const kept = this.leasedJobs.get(lease.id);
    if (kept) {
      this.leasedJobs.delete(lease.id);
      return kept.job;
    }
    return await Job.fromId<DispatchJob>(this.worker(lease.serverId), lease.jobId);
  }

  /** Jobs leased here whose answer went to another process (or never came and was settled elsewhere). */
  private dropStaleJobs(now: number): void {
    for (const [id, kept] of this.leasedJobs) if (kept.until < now) this.leasedJobs.delete(id);
  }

  /**
   * Judges and stores the answer to a lease the caller has claimed (it arrived at arrivedAt);
   * the deadline is checked by the caller. With `next`, a stored answer's receipt carries the
   * server's next lease when there is work (taken with the answered lease's keep-alive).
   */
  async answer(
    lease: LeaseRecord,
    server: AnnotationServer,
    challenge: Challenge,
    body: Buffer,
    opts: { arrivedAt?: number; next?: boolean } = {},
  ): Promise<AnswerReceipt> {
    if (lease.kind === 'setup') return await this.setup.answer(lease, server, challenge, body);
    const article = await this.deps.articles.forDispatch(lease.articleId);
    if (!article)
      return {
        stored: false,
        outcome: 'gone',
        detail: 'the article no longer exists',
        attempt: lease.n,
        final: true,
        errors: [],
        errorCount: 0,
        warnings: [],
        warningCount: 0,
      };
    const { verdict, ms } = await judgeLeaseAnswer(this.deps.answers, lease, article, server, challenge, body, opts.arrivedAt);
    const attempt = this.attemptOf(lease, ms, body.length);
    // The setup article goes to the next poll (take), not in a receipt; nothing more is handed out while stopping.
    const next = opts.next && !this.signal.isEnded && !awaitsSetupAnswer(server.check) ? { server, challenge } : undefined;
    return await this.settle(lease, attempt, verdict, next);
  }

  /** The agent reports that its server failed on the article: a `fault` attempt. */
  async fail(lease: LeaseRecord, message: string): Promise<LeaseReceipt> {
    if (lease.kind === 'setup') return await this.setup.fail(lease, message);
    const attempt = this.attemptOf(lease, Date.now() - lease.startedAt, Buffer.byteLength(message));
    const detail = `the agent reported that the server failed: ${message}`;
    return await this.settle(lease, attempt, { outcome: 'fault', detail, errors: [], errorCount: 0, warnings: [], warningCount: 0 });
  }

  private attemptOf(lease: LeaseRecord, ms: number, bytesReceived: number): FinishedAttempt {
    return {
      articleId: lease.articleId,
      serverId: lease.serverId,
      n: lease.n,
      ms,
      outcome: 'ok',
      detail: null,
      bytesSent: lease.bytesSent,
      bytesReceived,
    };
  }

  private async settle(
    lease: LeaseRecord,
    attempt: FinishedAttempt,
    verdict: Parameters<typeof settleVerdict>[2],
    next?: ServerWithChallenge,
  ): Promise<AnswerReceipt> {
    const job = await this.job(lease);
    const final = job ? job.attemptsMade + 1 >= (job.opts.attempts ?? 1) : false;
    const settled = await settleVerdict(this.deps.store, attempt, verdict, final);
    const issues = {
      errors: verdict.errors,
      errorCount: verdict.errorCount,
      warnings: verdict.warnings,
      warningCount: verdict.warningCount,
    };
    const base = { attempt: lease.n, ...issues };
    if (settled.kind === 'closed') {
      await this.moveJob(lease, job, (j) => j.moveToDelayed(Date.now() + (this.deps.closedRetryDelayMs ?? 5_000), lease.id));
      return {
        stored: false,
        outcome: 'closed',
        detail: 'the challenge closed before the answer came: nothing was stored',
        final: false,
        ...base,
      };
    }
    if (settled.kind === 'stored' || settled.final) await this.settledForGood(lease);
    if (settled.kind === 'stored') {
      dispatchMetrics.observe(lease.serverId, 'ok', attempt.ms);
      // With `next`, the same script call fetches the server's next job (BullMQ's fetchNext, within the queue's concurrency).
      let fetched: unknown;
      await this.moveJob(lease, job, async (j) => {
        fetched = await j.moveToCompleted(null, lease.id, next !== undefined);
      });
      const offer = next ? await this.leaseFetched(lease, fetched, next) : undefined;
      return {
        stored: true,
        outcome: 'ok',
        final: true,
        ...base,
        ...(settled.fresh ? {} : { detail: 'an answer to this article was stored already; this one was not stored again' }),
        ...(offer ? { next: offer } : {}),
      };
    }
    dispatchMetrics.observe(lease.serverId, settled.outcome, attempt.ms);
    this.deps.log.info(
      { serverId: lease.serverId, articleId: lease.articleId, attempt: lease.n, outcome: settled.outcome, detail: settled.detail, final },
      'leased article failed',
    );
    await this.moveJob(lease, job, (j) => j.moveToFailed(new AttemptFailedError(settled.outcome, settled.detail), lease.id, false));
    return { stored: false, outcome: settled.outcome, detail: settled.detail, final, ...base };
  }

  /**
   * The job fetched by the call that settled `lease` (locked with its token), on lease. A
   * failure here leaves the answer stored: the receipt goes without a next lease, and the
   * job, its lock not handed over, goes back to the queue when the lock runs out.
   */
  private async leaseFetched(lease: LeaseRecord, fetched: unknown, next: ServerWithChallenge): Promise<LeaseOffer | undefined> {
    try {
      const job = fetchedJob(this.worker(lease.serverId), fetched, lease.id);
      if (!job) return undefined;
      const offer = await this.takeJob(next.server, next.challenge, lease.keepAliveMs, { job, token: lease.id });
      return offer && offer !== 'closed' ? offer : undefined;
    } catch (err) {
      this.deps.log.warn({ serverId: lease.serverId, err: (err as Error).message }, 'could not lease the next article with a receipt');
      return undefined;
    }
  }

  /** An on-demand article's completion callback may be due (only articles that have one are looked at further). */
  private async settledForGood(lease: LeaseRecord): Promise<void> {
    if (!this.deps.onSettled) return;
    const article = await this.deps.articles.forDispatch(lease.articleId);
    if (article?.callbackUrl) this.deps.onSettled(lease.articleId, lease.serverId);
  }

  /** Moves the job with the lease's lock; a lock lost meanwhile (every API process was down past it) is logged: the stalled check put the job back. */
  private async moveJob(
    lease: LeaseRecord,
    job: Job<DispatchJob> | undefined,
    move: (job: Job<DispatchJob>) => Promise<unknown>,
  ): Promise<void> {
    if (!job) return;
    try {
      await move(job);
      this.deps.jobSettled?.(lease.serverId);
    } catch (err) {
      this.deps.log.warn(
        { serverId: lease.serverId, articleId: lease.articleId, err: (err as Error).message },
        'the leased job had lost its lock; the queue offers it again',
      );
    }
  }

  /**
   * The agent gives the lease back (it is stopping, or its own server does not answer), or
   * stopped renewing it (it is gone: `lapsed`): not a failed attempt (recorded as
   * released, which counts against no one and the server page lists apart from its
   * failures); the article is offered again at once.
   */
  async release(lease: LeaseRecord, lapsed = false): Promise<void> {
    if (lease.kind === 'setup') return await this.records.dropSetup(lease.serverId);
    const attempt = this.attemptOf(lease, Date.now() - lease.startedAt, 0);
    attempt.outcome = 'released';
    attempt.detail = lapsed
      ? `the agent gave the article back: it stopped renewing the lease within ${lease.keepAliveMs / 1000} s (it was stopped or lost its connection); offered again`
      : 'the agent gave the article back (it was stopping, or its own server did not answer); offered again';
    await this.deps.store.recordFailure(attempt, false);
    dispatchMetrics.observe(lease.serverId, 'released', attempt.ms);
    await this.moveJob(lease, await this.job(lease), (j) => j.moveToDelayed(Date.now(), lease.id));
  }

  /** A lease past its deadline, claimed by the caller: a `timeout` attempt, the article offered again after the back-off. */
  async expire(lease: LeaseRecord): Promise<void> {
    if (lease.kind === 'setup') return await this.records.dropSetup(lease.serverId);
    const seconds = Math.round((lease.deadline - lease.startedAt) / 1000);
    const attempt = this.attemptOf(lease, lease.deadline - lease.startedAt, 0);
    const detail = `no answer within the lease's deadline of ${seconds} s: the agent took the article and did not answer, fail or give it back in time`;
    await this.settle(lease, attempt, { outcome: 'timeout', detail, errors: [], errorCount: 0, warnings: [], warningCount: 0 });
  }

  /** Renews the keep-alive of the server's leases among `ids`; answers those still held. */
  async renew(serverId: number, ids: string[]): Promise<string[]> {
    return await this.records.renew(serverId, ids);
  }

  /** Settles every lease past its deadline (a timeout) or its liveness window (given back); one sweep at a time. */
  sweep(): Promise<void> {
    this.sweeping ??= this.sweepNow()
      .catch((err: Error) => this.deps.log.warn({ err: err.message }, 'could not settle expired leases; will retry'))
      .finally(() => {
        this.sweeping = undefined;
      });
    return this.sweeping;
  }

  private async sweepNow(): Promise<void> {
    const now = Date.now();
    this.dropStaleJobs(now);
    for (const id of await this.records.expired(now)) {
      const lease = await this.records.peek(id);
      if (!lease) {
        await this.records.claim({ id, serverId: 0 }); // its hash expired: only the index entry is left
        continue;
      }
      // A window that lapsed while the meta-server was down (restarting): its agent gets one window to renew first.
      if (now < lease.deadline && now - this.since < lease.keepAliveMs) continue;
      if (!(await this.records.claimDue(lease, now))) continue; // settled, or renewed, since it was listed
      if (now >= lease.deadline) await this.expire(lease);
      else await this.release(lease, true);
    }
  }

  async close(): Promise<void> {
    this.signal.end();
    await this.watch?.close();
    if (this.sweeper) clearInterval(this.sweeper);
    await this.sweeping;
    await Promise.all([...this.workers.values()].map((w) => w.close().catch(() => {})));
    this.workers.clear();
    this.leasedJobs.clear();
  }
}
