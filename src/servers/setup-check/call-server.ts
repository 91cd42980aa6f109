// The setup check: call the server with a short built-in article and report whether it
// answers, how long it took and whether the answer passes validation, exactly as dispatch
// would judge it (`metaserver check-server` sends more articles the same way).
// Registration succeeds whatever the result; teams register before their servers are up.
import type { Dispatcher } from 'undici';
import type { AnswerReader } from '../../dispatch/answer-reader.ts';
import { judgeCall, type Verdict } from '../../dispatch/judge.ts';
import { RequestBodies } from '../../dispatch/request-body.ts';
import { AnnotatorClient } from '../../dispatch/annotators/client.ts';
import { policedAgent } from '../../dispatch/annotators/policed-agent.ts';
import type { AnnotationServer, ServerCheck } from '../repository.ts';
import { challengeRules, type ChallengeRules } from '../../families/family.ts';

/** Includes a character outside the Basic Multilingual Plane, so offset bugs show up at setup. */
export const CHECK_ARTICLE = [
  'Binding of 𝛼-synuclein to BRCA1 in yeast',
  '',
  'We show that SNCA (P37840) interacts with BRCA1 (P38398) and that the complex is stable.',
  'It binds TP53 as well.',
].join('\n');

export const CHECK_GIVEN = 'T1\tProtein 11 22\t𝛼-synuclein\nT2\tProtein 26 31\tBRCA1';

/** The protocol is XML-RPC when not given. */
export type ServerToCheck = Pick<AnnotationServer, 'url' | 'method' | 'tasks' | 'sendMetadata'> & {
  protocol?: AnnotationServer['protocol'];
  /** A server registered for batches is checked in the batch form (a batch of one). */
  batchSize?: number;
};

export interface CheckOptions {
  deadlineMs: number;
  maxAnswerBytes: number;
  /** Reads answers as dispatch does: a big one off the event loop, against the same release indexes. */
  answers: AnswerReader;
  publicUrlsOnly: boolean;
  /** The challenge's rules for its tasks (none: any mention type, DrugProt's relations, LitCovid's labels). */
  rules?: ChallengeRules;
  /**
   * Connections to use instead of the shared policed ones. Several articles sent one after
   * the other to a server that serves one connection at a time (Perl's HTTP::Daemon) need
   * an agent of one connection: the shared pool may open a second one while the first is
   * still held open for keep-alive, and wait seconds for it.
   */
  agent?: Dispatcher;
}

export interface ArticleCheck {
  verdict: Verdict;
  ms: number;
}

/**
 * Sends one article the way dispatch does (through the same annotator client: the same
 * request in the server's protocol, `given` only to COREF servers) and judges the answer
 * the way dispatch does. `text` must be the text as sent
 * (see textAsSent): offsets in the answer are checked against it.
 */
export async function checkArticle(
  server: ServerToCheck,
  article: { id: string; text: string; given: string },
  opts: CheckOptions,
): Promise<ArticleCheck> {
  const client = new AnnotatorClient({ answers: opts.answers, maxAnswerBytes: opts.maxAnswerBytes, bodies: new RequestBodies(1) });
  const context = {
    tasks: server.tasks,
    text: article.text,
    given: article.given,
    ...opts.rules,
  };
  const call = await client.call(server, { ...article, organiserId: article.id }, context, {
    deadlineMs: opts.deadlineMs,
    dispatcher: opts.agent ?? policedAgent(opts.publicUrlsOnly, opts.deadlineMs),
  });
  return { verdict: judgeCall(call, server), ms: call.ms };
}

export async function checkServer(server: ServerToCheck, challenge: ChallengeRules, opts: CheckOptions): Promise<ServerCheck> {
  const at = new Date().toISOString();
  const { verdict, ms } = await checkArticle(
    server,
    { id: 'setup-check', text: CHECK_ARTICLE, given: CHECK_GIVEN },
    {
      ...opts,
      rules: challengeRules(challenge),
    },
  );
  return checkOf(verdict, ms, at);
}

/**
 * The stored setup check of a verdict on the sample article, for a called server and for a
 * pull server's agent alike. The first errors and warnings are shown and kept (their numbers
 * too): a server answering the sample article with 100,000 wrong mentions gets its point
 * across with those. A server that answered at all was reachable.
 */
export function checkOf(verdict: Verdict, ms: number, at = new Date().toISOString()): ServerCheck {
  const counted = verdict.warningCount > verdict.warnings.length ? { warningCount: verdict.warningCount } : {};
  if (verdict.outcome === 'ok')
    return { ok: true, reachable: true, at, ms, outcome: 'ok', errors: [], warnings: verdict.warnings, ...counted };
  const reachable = verdict.outcome !== 'connection' && verdict.outcome !== 'timeout';
  return {
    ok: false,
    reachable,
    at,
    ms,
    outcome: verdict.outcome,
    detail: verdict.detail,
    errors: verdict.errors,
    warnings: verdict.warnings,
    ...counted,
  };
}
