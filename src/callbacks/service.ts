// Completion callbacks of on-demand articles. When a server settles an article (answer
// stored, or failed for good) the worker checks whether the article is now done and, if
// it has a callbackUrl, enqueues one job on the `callbacks` queue. The job id is derived
// from the article id, so two workers settling the last two servers at once enqueue one
// job; jobs live in Redis, so a restart does not lose them; BullMQ retries a failed POST
// with exponential back-off. The outcome of every try lands in callback_deliveries.
import { Queue, type Job, type Worker } from 'bullmq';
import { connectRedis, hashTagged, type RedisConnection, type RedisTarget } from '../queue/redis-connection.ts';
import { request } from 'undici';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { Article, ArticleRepository } from '../articles/repository.ts';
import { articleStatus } from '../articles/status.ts';
import type { AnswerRepository } from '../articles/answer-repository.ts';
import { articleView } from '../articles/view.ts';
import { policedAgent } from '../dispatch/annotators/policed-agent.ts';
import { RefusedAddressError, urlProblem } from '../http/url-policy.ts';
import { createQueueWorker, type WorkerOutage } from '../queue/worker.ts';
import { configuredPublicUrl } from '../http/public-url.ts';
import type { CallbackRepository } from './repository.ts';

export const CALLBACK_QUEUE = 'callbacks';
/** One job per article, ever: BullMQ ignores an add whose id exists (':' is not allowed in ids). */
export const callbackJobId = (articleId: string) => `cb_${articleId}`;

export interface CallbackJob {
  articleId: string;
}

/** Finished jobs are kept this long so a late duplicate add is still recognised. */
const KEEP_COMPLETED_SECONDS = 7 * 24 * 3600;

export class CallbackService {
  readonly queue: Queue<CallbackJob>;
  readonly records: CallbackRepository;
  private readonly articles: ArticleRepository;
  private readonly answers: AnswerRepository;
  private worker: Worker<CallbackJob> | undefined;
  private workerConnection: RedisConnection | undefined;
  /** The queue's name: hash-tagged on a Redis Cluster, so its keys share a slot. */
  private readonly queueName: string;

  constructor(
    connection: RedisConnection,
    private readonly config: Config,
    repos: { articles: ArticleRepository; answers: AnswerRepository; callbacks: CallbackRepository },
    private readonly log: Logger,
    cluster = false,
  ) {
    this.queueName = hashTagged(CALLBACK_QUEUE, cluster);
    this.articles = repos.articles;
    this.answers = repos.answers;
    this.records = repos.callbacks;
    this.queue = new Queue<CallbackJob>(this.queueName, { connection, prefix: config.queuePrefix });
    this.queue.on('error', () => {}); // reported through the shared connection's own handler
  }

  /** The dispatcher's onSettled hook: never throws, never blocks the job that settled. */
  settled(articleId: string): void {
    this.enqueueIfDone(articleId).catch((err: Error) =>
      this.log.warn({ articleId, err: err.message }, "could not check or enqueue the article's callback"),
    );
  }

  /** Enqueues the callback when the article has one and every server it goes to has settled. */
  async enqueueIfDone(articleId: string): Promise<boolean> {
    const article = await this.articles.byId(articleId);
    if (!article?.callbackUrl) return false;
    if (articleStatus(await this.answers.serverStates(articleId)) !== 'done') return false;
    if (await this.records.awaitsDelivery({ id: articleId, challengeId: article.challengeId, tasks: article.tasks })) return false;
    await this.queue.add(
      'callback',
      { articleId },
      {
        jobId: callbackJobId(articleId),
        attempts: this.config.callbackMaxAttempts,
        backoff: { type: 'exponential', delay: this.config.callbackRetryDelayMs },
        removeOnComplete: { age: KEEP_COMPLETED_SECONDS },
        removeOnFail: { age: 4 * KEEP_COMPLETED_SECONDS },
      },
    );
    return true;
  }

  /** Consumes the callbacks queue in this (worker) process. */
  startWorker(redis: RedisTarget, outage?: WorkerOutage): void {
    this.workerConnection = connectRedis(redis, { maxRetriesPerRequest: null });
    this.workerConnection.on('error', () => {}); // reported through the worker's error event
    this.worker = createQueueWorker<CallbackJob>({
      queue: this.queueName,
      process: async (job) => await this.process(job),
      connection: this.workerConnection,
      prefix: this.config.queuePrefix,
      concurrency: 8,
      lockDurationMs: Math.max(this.config.lockDurationMs, this.config.callbackTimeoutMs * 2),
      stalledIntervalMs: this.config.stalledIntervalMs,
      log: this.log,
      problem: 'callback worker problem',
      outage,
    });
    // In the background, so start-up does not wait on it; sweep() logs its own failures.
    void this.sweep();
  }

  /**
   * The hook runs after the answer is stored: a process killed in between would leave a
   * done article without its job. At worker start, such recent articles are enqueued
   * again (the job id makes this a no-op for those that have one already).
   */
  async sweep(): Promise<void> {
    try {
      for (const id of await this.records.unrecorded()) await this.enqueueIfDone(id);
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'could not look for articles whose callback was never enqueued');
    }
  }

  private async process(job: Job<CallbackJob>): Promise<void> {
    const { articleId } = job.data;
    const article = await this.articles.byId(articleId);
    if (!article?.callbackUrl) return;
    const record = await this.records.ensure(articleId, article.callbackUrl);
    if (record.state === 'delivered' || record.state === 'refused') return;
    const final = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const outcome = await postCallback(this.answers, article, this.config);
    if (outcome.refused) {
      // The URL rules hold at delivery time too (DNS may have changed): no retry can help.
      await this.records.attempted(articleId, 'refused', null, outcome.error);
      this.log.warn({ articleId, error: outcome.error }, 'callback not sent: its URL is refused');
      return;
    }
    if (outcome.ok) {
      await this.records.attempted(articleId, 'delivered', outcome.status, null);
      this.log.info({ articleId, status: outcome.status, attempt: job.attemptsMade + 1 }, 'callback delivered');
      return;
    }
    await this.records.attempted(articleId, final ? 'failed' : 'pending', outcome.status, outcome.error);
    this.log.info(
      { articleId, status: outcome.status, error: outcome.error, final },
      final ? 'callback failed for good' : 'callback failed; it will be retried',
    );
    throw new Error(outcome.error ?? 'the callback failed');
  }

  async close(): Promise<void> {
    await this.worker?.close();
    this.workerConnection?.disconnect();
    await this.queue.close();
  }
}

// One callback POST: the article view exactly as `GET /api/articles/:id` shows it to anyone
// (callbacks exist for on-demand articles, which are public), with one deadline. Redirects
// are not followed: the URL that passed the address rules is the one called.
export interface CallbackOutcome {
  ok: boolean;
  refused?: boolean;
  status: number | null;
  error: string | null;
}

/** With publicUrl set: Content-Location, where the body's article is read (the same view, newer later). Without it the worker has no address of the API to give. */
function articleLocation(config: Config, articleId: string): Record<string, string> {
  const base = configuredPublicUrl(config);
  return base ? { 'content-location': `${base}/api/articles/${encodeURIComponent(articleId)}` } : {};
}

export async function postCallback(answers: AnswerRepository, article: Article, config: Config): Promise<CallbackOutcome> {
  const url = article.callbackUrl!;
  const refused = (problem: string): CallbackOutcome => ({
    ok: false,
    refused: true,
    status: null,
    error: `the callback URL cannot be called: ${problem}`,
  });
  // Where a name resolves to is checked by the connection itself (policedAgent), as for server calls.
  const problem = urlProblem(url, config.publicUrlsOnly);
  if (problem) return refused(problem);
  const view = await articleView(answers, article, () => true);
  const body = JSON.stringify(view);
  const timeout = config.callbackTimeoutMs;
  try {
    const res = await request(url, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'metaserver-callback',
        'x-metaserver-article': article.id,
        ...articleLocation(config, article.id),
      },
      headersTimeout: timeout,
      bodyTimeout: timeout,
      signal: AbortSignal.timeout(timeout),
      dispatcher: policedAgent(config.publicUrlsOnly, timeout),
    });
    await res.body.dump().catch(() => {}); // the receiver's answer body is not needed
    if (res.statusCode >= 200 && res.statusCode < 300) return { ok: true, status: res.statusCode, error: null };
    return { ok: false, status: res.statusCode, error: `the callback URL answered HTTP ${res.statusCode}` };
  } catch (err) {
    if (err instanceof RefusedAddressError) return refused(err.message);
    const e = err as Error & { code?: string };
    const reason =
      e.name === 'TimeoutError' || e.name === 'AbortError' ? `no answer within ${timeout} ms` : `${e.code ?? e.name}: ${e.message}`;
    return { ok: false, status: null, error: `the callback could not be delivered: ${reason}` };
  }
}
