// What travels on a lease: the article as the JSON protocol sends it (the same parts, the
// same `given` rule: dispatch/annotators/parts.ts), and the answer, read by the JSON
// protocol's decoder and the same validators as every other answer, judged as dispatch
// judges a call (dispatch/judge.ts).
import type { AnnotationServer } from '../servers/repository.ts';
import type { AnswerReader } from '../dispatch/answer-reader.ts';
import type { AnswerContext, AnswerText } from '../dispatch/decode-and-validate.ts';
import { requestParts } from '../dispatch/annotators/parts.ts';
import { PULL_WIRE_PROTOCOL } from '../dispatch/annotators/registry.ts';
import type { CallOutcome } from '../dispatch/annotators/outcome.ts';
import { judgeCall, type Verdict } from '../dispatch/judge.ts';
import type { TaskName } from '../families/registry.ts';
import type { ValidationIssue } from '../tasks/types.ts';
import type { LeaseRecord } from './lease-records.ts';
import { challengeRules, type ChallengeRules } from '../families/family.ts';

/** The article of a lease: `id` only to servers registered with sendMetadata, `given` only to COREF servers. */
export interface LeaseArticle {
  id?: string;
  text: string;
  given?: string;
  tasks: TaskName[];
}

/** What the answer to a lease came to, told to the agent at once. */
export interface LeaseReceipt {
  stored: boolean;
  outcome: string;
  detail?: string;
  attempt: number;
  /** No attempt is left: the article is not offered again. */
  final: boolean;
  errors: ValidationIssue[];
  errorCount: number;
  warnings: ValidationIssue[];
  warningCount: number;
}

export interface ArticleForLease {
  id: string;
  organiserId: string | null;
  text: string;
  given: string;
  tasks?: TaskName[] | null;
}

/** The tasks asked of the server for this article (an on-demand article may ask for fewer). */
function tasksAsked(article: ArticleForLease, server: Pick<AnnotationServer, 'tasks'>): TaskName[] {
  return article.tasks ? server.tasks.filter((t) => article.tasks!.includes(t)) : server.tasks;
}

export function leaseArticle(article: ArticleForLease, server: Pick<AnnotationServer, 'tasks' | 'sendMetadata'>): LeaseArticle {
  const parts = requestParts(article, server);
  return {
    ...(parts.meta ? { id: parts.meta.article } : {}),
    text: parts.text,
    ...(parts.given !== undefined ? { given: parts.given } : {}),
    tasks: tasksAsked(article, server),
  };
}

/**
 * Reads and judges an answer to the lease, as dispatch judges a JSON server's answer. The
 * attempt's time runs from the lease to the answer's arrival (`arrivedAt`), as a called
 * server's runs from the request to its answer: what the meta-server does before it hands
 * the article out and after the answer came is its own time, not the team's server's.
 */
export async function judgeLeaseAnswer(
  answers: AnswerReader,
  lease: LeaseRecord,
  article: ArticleForLease,
  server: AnnotationServer,
  challenge: ChallengeRules,
  body: Buffer,
  arrivedAt = Date.now(),
): Promise<{ verdict: Verdict; ms: number }> {
  const context: AnswerContext = {
    tasks: tasksAsked(article, server),
    text: article.text,
    given: article.given,
    ...challengeRules(challenge),
  };
  const counters = { ms: Math.max(0, arrivedAt - lease.startedAt), bytesSent: lease.bytesSent, bytesReceived: body.length };
  let call: CallOutcome<AnswerText>;
  try {
    const decoded = await answers.decoder(context, PULL_WIRE_PROTOCOL)(body, 'utf-8');
    call =
      decoded.kind === 'fault'
        ? {
            ok: false,
            kind: 'fault',
            detail: `fault ${typeof decoded.code === 'string' ? JSON.stringify(decoded.code) : decoded.code}: ${decoded.message}`,
            faultCode: decoded.code,
            ...counters,
          }
        : { ok: true, value: decoded.value, ...counters };
  } catch (err) {
    call = { ok: false, kind: 'protocol', detail: (err as Error).message, ...counters };
  }
  return { verdict: judgeCall(call, { ...server, protocol: PULL_WIRE_PROTOCOL }), ms: counters.ms };
}
