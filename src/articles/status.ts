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

/** pending: sent nowhere yet; running: some server still working; done: every server answered or failed for good. */
export function articleStatus(servers: ArticleServerState[]): ArticleStatus {
  if (servers.length === 0) return 'pending';
  return servers.every((s) => s.state === 'done' || s.state === 'failed') ? 'done' : 'running';
}
