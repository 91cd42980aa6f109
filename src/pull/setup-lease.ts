// The setup check of a pull server: while its check waits for the agent (servers/setup-check/agent-wait.ts),
// the first lease an agent takes is the sample article of the setup check — even while the
// server is paused, since teams check before they start — and the check is the verdict on
// its answer, judged as the setup check judges a called server's.
import type { Challenge } from '../challenges/repository.ts';
import type { AnnotationServer, ServerCheck } from '../servers/repository.ts';
import { CHECK_ARTICLE, CHECK_GIVEN, checkOf } from '../servers/setup-check/call-server.ts';
import { awaitsSetupAnswer } from '../servers/setup-check/agent-wait.ts';
import type { AnswerReader } from '../dispatch/answer-reader.ts';
import type { Verdict } from '../dispatch/judge.ts';
import { newLeaseId, type LeaseRecord, type LeaseRecords } from './lease-records.ts';
import { judgeLeaseAnswer, leaseArticle, type LeaseReceipt } from './lease-answer.ts';

const SETUP_ARTICLE = { id: 'setup-check', organiserId: 'setup-check', text: CHECK_ARTICLE, given: CHECK_GIVEN };

export interface SetupLeaseDeps {
  records: LeaseRecords;
  answers: AnswerReader;
  saveCheck(serverId: number, check: ServerCheck): Promise<void>;
}

/** The offer's keepAliveSeconds, when the lease was taken with keep-alive. */
export function keepAliveOf(keepAliveMs: number): { keepAliveSeconds?: number } {
  return keepAliveMs > 0 ? { keepAliveSeconds: keepAliveMs / 1000 } : {};
}

export class SetupLeases {
  constructor(readonly deps: SetupLeaseDeps) {}

  async offer(server: AnnotationServer, challenge: Challenge, keepAliveMs: number) {
    if (!awaitsSetupAnswer(server.check)) return null;
    const id = newLeaseId();
    const startedAt = Date.now();
    const deadline = startedAt + challenge.timeoutSeconds * 1000;
    // One setup lease at a time; another agent of the server gets the queue's articles.
    if (!(await this.deps.records.takeSetup(server.id, id, deadline))) return null;
    const article = leaseArticle(SETUP_ARTICLE, server);
    await this.deps.records.save({
      id,
      kind: 'setup',
      serverId: server.id,
      teamId: server.teamId,
      jobId: '',
      articleId: SETUP_ARTICLE.id,
      n: 1,
      startedAt,
      deadline,
      bytesSent: Buffer.byteLength(JSON.stringify(article)),
      keepAliveMs,
    });
    return { lease: id, deadline: new Date(deadline).toISOString(), article, ...keepAliveOf(keepAliveMs) };
  }

  async answer(lease: LeaseRecord, server: AnnotationServer, challenge: Challenge, body: Buffer): Promise<LeaseReceipt> {
    const { verdict, ms } = await judgeLeaseAnswer(this.deps.answers, lease, SETUP_ARTICLE, server, challenge, body);
    return await this.record(lease, verdict, ms);
  }

  async fail(lease: LeaseRecord, message: string): Promise<LeaseReceipt> {
    const verdict: Verdict = {
      outcome: 'fault',
      detail: `the agent reported that the server failed: ${message}`,
      errors: [],
      errorCount: 0,
      warnings: [],
      warningCount: 0,
    };
    return await this.record(lease, verdict, Date.now() - lease.startedAt);
  }

  private async record(lease: LeaseRecord, verdict: Verdict, ms: number): Promise<LeaseReceipt> {
    // Whatever came back was an answer (or the agent's fault report): the server was reachable.
    const check = checkOf(verdict, ms);
    await this.deps.saveCheck(lease.serverId, check);
    await this.deps.records.dropSetup(lease.serverId);
    const { errors, errorCount, warnings, warningCount } = verdict;
    return {
      stored: false,
      outcome: verdict.outcome,
      detail:
        verdict.outcome === 'ok'
          ? 'the setup check passed: the sample article was answered validly (setup answers are not stored)'
          : `the setup check failed: ${'detail' in verdict ? verdict.detail : ''}`,
      attempt: 1,
      final: true,
      errors,
      errorCount,
      warnings,
      warningCount,
    };
  }
}
