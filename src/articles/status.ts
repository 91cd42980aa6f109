// The state of one article across the servers it was sent to, with the stored answers
// (read by AnswerRepository.serverStates).
import type { AnswerResult } from '../families/registry.ts';
import type { ValidationIssue } from '../tasks/types.ts';

/** An article's delivery to one server (dispatch writes it; defined here so articles/ needs nothing of dispatch/). */
export type DeliveryState = 'queued' | 'active' | 'done' | 'failed';

export interface ArticleServerState {
  serverId: number;
  name: string;
  /** The annotator protocol the server speaks. */
  protocol: string;
  team: string;
  teamId: number;
  state: DeliveryState;
  attempts: number;
  lastOutcome: string | null;
  lastDetail: string | null;
  result?: AnswerResult;
  warnings?: ValidationIssue[];
}

export type ArticleStatus = 'pending' | 'running' | 'done';

/** How far an article got: the servers it was sent to, how many answered, how many failed for good. */
export interface ArticleProgress {
  servers: number;
  answered: number;
  failed: number;
}

/**
 * pending: sent nowhere yet; running: some server still working; done: settled — every
 * server answered or failed for good. The one place that says it, for the article (its
 * servers' states) and for the organiser's list (counts from SQL).
 */
export function statusOf(p: ArticleProgress): ArticleStatus {
  if (p.servers === 0) return 'pending';
  return p.answered + p.failed >= p.servers ? 'done' : 'running';
}

/** What happened, in words: "answered by 19 of 20 servers, failed at 1", the same on the list and the article page. */
export function describeProgress(p: ArticleProgress): string {
  if (p.servers === 0) return 'not sent to any server yet';
  const working = p.servers - p.answered - p.failed;
  const parts = [`answered by ${p.answered} of ${p.servers} ${p.servers === 1 ? 'server' : 'servers'}`];
  if (p.failed > 0) parts.push(`failed at ${p.failed}`);
  if (working > 0) parts.push(`${working} still at work`);
  return parts.join(', ');
}

export function progressOf(servers: ArticleServerState[]): ArticleProgress {
  return {
    servers: servers.length,
    answered: servers.filter((s) => s.state === 'done').length,
    failed: servers.filter((s) => s.state === 'failed').length,
  };
}

export function articleStatus(servers: ArticleServerState[]): ArticleStatus {
  return statusOf(progressOf(servers));
}
