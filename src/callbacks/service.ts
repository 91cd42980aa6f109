// Completion callbacks of on-demand articles. When a server settles an article (answer
// stored, or failed for good) the worker checks whether the article is now done and, if
// it has a callbackUrl, enqueues one job on the `callbacks` queue. The job id is derived
// from the article id, so two workers settling the last two servers at once enqueue one
// job; jobs live in Redis, so a restart does not lose them; BullMQ retries a failed POST
// with exponential back-off. The outcome of every try lands in callback_deliveries.
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { request } from 'undici';
import type { Config } from '../config.ts';
import type { Database, Queryable } from '../db/database.ts';
import type { Logger } from '../log.ts';
import type { Article, ArticleRepository } from '../articles/repository.ts';
import { articleStatus, articleServers } from '../articles/status.ts';
import { articleView } from '../articles/view.ts';
import { policedAgent } from '../servers/policed-agent.ts';
import { RefusedAddressError, urlProblem } from '../servers/url-policy.ts';
import { CallbackRepository } from './repository.ts';

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
  private worker: Worker<CallbackJob> | undefined;
  private workerConnection: Redis | undefined;

  constructor(
    connection: Redis,
    private readonly config: Config,
    private readonly db: Database,
    private readonly articles: ArticleRepository,
    private readonly log: Logger,
  ) {
    this.queue = new Queue<CallbackJob>(CALLBACK_QUEUE, { connection, prefix: config.queuePrefix });
    this.queue.on('error', () => {}); // reported through the shared connection's own handler
    this.records = new CallbackRepository(db);
  }

  /** The dispatcher's onSettled hook: never throws, never blocks the job that settled. */
  settled(articleId: string): void {
    this.enqueueIfDone(articleId).catch((err: Error) => this.log.warn({ articleId, err: err.message }, 'could not check or enqueue the article\'s callback'));
  }

  /** Enqueues the callback when the article has one and every server it goes to has settled. */
  async enqueueIfDone(articleId: string): Promise<boolean> {
    const article = await this.articles.byId(articleId);
    if (!article?.callbackUrl) return false;
    if (articleStatus(await articleServers(this.db, articleId)) !== 'done') return false;
    // Deliveries are written server by server as the article is queued: "every delivery
    // settled" is only "done" once each active server taking it has its delivery row.
    const missing = await this.db.query(
      `select 1 from servers s
       where s.challenge_id = $1 and s.state = 'active' and ($2::text[] is null or s.tasks && $2::text[])
         and not exists (select 1 from deliveries d where d.article_id = $3 and d.server_id = s.id)
       limit 1`,
      [article.challengeId, article.tasks, articleId],
    );
    if (missing.length > 0) return false;
    await this.queue.add('callback', { articleId }, {
      jobId: callbackJobId(articleId),
      attempts: this.config.callbackMaxAttempts,
      backoff: { type: 'exponential', delay: this.config.callbackRetryDelayMs },
      removeOnComplete: { age: KEEP_COMPLETED_SECONDS },
      removeOnFail: { age: 4 * KEEP_COMPLETED_SECONDS },
    });
    return true;
  }

  /** Consumes the callbacks queue in this (worker) process. */
  startWorker(redisUrl: string): void {
    this.workerConnection = new Redis(redisUrl, { maxRetriesPerRequest: null });
    this.workerConnection.on('error', () => {}); // reported through the worker's error event
    this.worker = new Worker<CallbackJob>(CALLBACK_QUEUE, async (job) => await this.process(job), {
      connection: this.workerConnection,
      prefix: this.config.queuePrefix,
      concurrency: 8,
      lockDuration: Math.max(this.config.lockDurationMs, this.config.callbackTimeoutMs * 2),
      stalledInterval: this.config.stalledIntervalMs,
    });
    this.worker.on('error', (err) => this.log.warn({ err: err.message }, 'callback worker problem; it retries by itself'));
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
      const rows = await this.db.query<{ id: string }>(
        `select a.id from articles a
         where a.callback_url is not null and a.created_at > now() - interval '7 days'
           and not exists (select 1 from callback_deliveries c where c.article_id = a.id)
         order by a.seq limit 10000`,
      );
      for (const r of rows) await this.enqueueIfDone(r.id);
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
    const outcome = await postCallback(this.db, article, this.config);
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
    this.log.info({ articleId, status: outcome.status, error: outcome.error, final }, final ? 'callback failed for good' : 'callback failed; it will be retried');
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

export async function postCallback(db: Queryable, article: Article, config: Config): Promise<CallbackOutcome> {
  const url = article.callbackUrl!;
  const refused = (problem: string): CallbackOutcome => ({ ok: false, refused: true, status: null, error: `the callback URL cannot be called: ${problem}` });
  // Where a name resolves to is checked by the connection itself (policedAgent), as for server calls.
  const problem = urlProblem(url, config.publicUrlsOnly);
  if (problem) return refused(problem);
  const view = await articleView(db, article, () => true);
  const body = JSON.stringify(view);
  const timeout = config.callbackTimeoutMs;
  try {
    const res = await request(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'metaserver-callback', 'x-metaserver-article': article.id },
      headersTimeout: timeout,
      bodyTimeout: timeout,
      signal: AbortSignal.timeout(timeout),
      dispatcher: policedAgent(config.publicUrlsOnly),
    });
    await res.body.dump().catch(() => {}); // the receiver's answer body is not needed
    if (res.statusCode >= 200 && res.statusCode < 300) return { ok: true, status: res.statusCode, error: null };
    return { ok: false, status: res.statusCode, error: `the callback URL answered HTTP ${res.statusCode}` };
  } catch (err) {
    if (err instanceof RefusedAddressError) return refused(err.message);
    const e = err as Error & { code?: string };
    const reason = e.name === 'TimeoutError' || e.name === 'AbortError' ? `no answer within ${timeout} ms` : `${e.code ?? e.name}: ${e.message}`;
    return { ok: false, status: null, error: `the callback could not be delivered: ${reason}` };
  }
}
