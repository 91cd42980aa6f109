// Processes one job: send one article to one annotation server, once. Records the attempt,
// validates the answer, stores it exactly once, or records the failure and throws so BullMQ
// reissues the request with back-off.
import type { Job } from 'bullmq';
import type { Dispatcher } from 'undici';
import type { Logger } from '../log.ts';
import type { ArticleRepository } from '../articles/repository.ts';
import type { Challenge } from '../challenges/repository.ts';
import type { AnnotationServer } from '../servers/repository.ts';
import type { AccessionLookup } from '../uniprot/index.ts';
import { validateAnswer } from '../tasks/validate.ts';
import { callXmlRpc, createServerAgent } from '../xmlrpc/client.ts';
import { AttemptFailedError } from './errors.ts';
import type { DispatchJob } from './queues.ts';
import { RequestBodies } from './request-body.ts';
import type { DispatchStore, FinishedAttempt } from './store.ts';

export interface PerformDeps {
  log: Logger;
  store: DispatchStore;
  articles: ArticleRepository;
  /** Server and challenge as they are now: settings changed mid-run apply to the next attempt. */
  lookupServer(serverId: number): Promise<{ server: AnnotationServer; challenge: Challenge } | null>;
  accessions: () => AccessionLookup | null;
  maxAnswerBytes: number;
  /** Called when an (article, server) pair reaches done or failed for good. */
  onSettled?: (articleId: string, serverId: number) => void;
}

export class JobPerformer {
  private readonly bodies = new RequestBodies();
  private readonly agents = new Map<number, Dispatcher>();

  constructor(private readonly deps: PerformDeps) {}

  private agent(server: AnnotationServer): Dispatcher {
    let agent = this.agents.get(server.id);
    if (!agent) {
      agent = createServerAgent({ connections: server.concurrency });
      this.agents.set(server.id, agent);
    }
    return agent;
  }

  async perform(job: Job<DispatchJob>, signal?: AbortSignal): Promise<void> {
    const { articleId, serverId } = job.data;
    const { store, log } = this.deps;
    const found = await this.deps.lookupServer(serverId);
    if (!found) {
      log.warn({ serverId, articleId }, 'job for an annotation server that no longer exists; dropped');
      return;
    }
    const { server, challenge } = found;
    if (await store.hasAnswer(articleId, serverId)) {
      // A job delivered twice (a worker died after storing): the answer is already there.
      await store.markDone(articleId, serverId);
      return;
    }
    const article = await this.deps.articles.forDispatch(articleId);
    if (!article) {
      log.warn({ serverId, articleId }, 'job for an article that no longer exists; dropped');
      return;
    }

    const n = await store.beginAttempt(articleId, serverId);
    const body = this.bodies.build(article, server, challenge.tasks);
    const call = await callXmlRpc(
      { url: server.url, body, deadlineMs: challenge.timeoutSeconds * 1000, maxResponseBytes: this.deps.maxAnswerBytes, signal },
      this.agent(server),
    );
    const attempt: FinishedAttempt = {
      articleId, serverId, n, ms: call.ms, outcome: 'ok', detail: null, bytesSent: call.bytesSent, bytesReceived: call.bytesReceived,
    };
    const final = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);

    if (call.ok) {
      const validated = validateAnswer(call.value, {
        tasks: article.tasks ? server.tasks.filter((t) => article.tasks!.includes(t)) : server.tasks,
        text: article.text,
        given: article.given,
        mentionTypes: challenge.mentionTypes,
        accessions: this.deps.accessions(),
      });
      if (validated.errors.length === 0) {
        const fresh = await store.storeAnswer(attempt, validated.result, validated.warnings);
        log.debug({ serverId, articleId, attempt: n, ms: call.ms, stored: fresh }, 'answer stored');
        this.deps.onSettled?.(articleId, serverId);
        return;
      }
      const shown = validated.errors.slice(0, 3).map((e) => `${e.path}: ${e.message}`).join('; ');
      const more = validated.errors.length > 3 ? ` (and ${validated.errors.length - 3} more)` : '';
      attempt.outcome = 'invalid';
      attempt.detail = `the answer failed validation: ${shown}${more}`;
      attempt.errors = validated.errors;
    } else {
      attempt.outcome = call.kind;
      attempt.detail = call.detail;
    }
    await store.recordFailure(attempt, final);
    log.info({ serverId, articleId, attempt: n, outcome: attempt.outcome, detail: attempt.detail, final }, final ? 'request failed for good' : 'request failed; it will be reissued');
    if (final) this.deps.onSettled?.(articleId, serverId);
    throw new AttemptFailedError(attempt.outcome, attempt.detail ?? '');
  }

  async close(): Promise<void> {
    await Promise.all([...this.agents.values()].map((a) => a.close().catch(() => {})));
    this.agents.clear();
  }
}
