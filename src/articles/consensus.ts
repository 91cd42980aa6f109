// The consensus of one article's answers, as the article view and the consensus route show
// it: weighted voting over the servers the caller may see, with weights and threshold from
// the query string (`?weights=3:2,5:1&threshold=0.5`), checked here so nonsense is a 400
// naming the bad part rather than a 500 from the voting code.
import { voteConsensus, type Consensus, type VoteOptions } from '../consensus/index.ts';
import { badRequest } from '../http/api-error.ts';
import type { AnswerResult } from '../families/registry.ts';
import type { ArticleServerState } from './status.ts';

export interface VoteQuery {
  weights?: string;
  threshold?: string;
}

export interface ParsedVote {
  weights: Record<number, number>;
  threshold: number;
}

const NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/** `3:2,5:1` → {3: 2, 5: 1}; threshold a number in [0, 1]; defaults: every weight 1, threshold 0.5. */
export function parseVoteQuery(query: VoteQuery): ParsedVote {
  const weights: Record<number, number> = {};
  if (query.weights !== undefined && query.weights.trim() !== '') {
    for (const part of query.weights.split(',')) {
      const match = /^\s*([1-9][0-9]{0,9}):([^:]+?)\s*$/.exec(part);
      if (!match || !NUMBER.test(match[2])) {
        throw badRequest(`weights: "${part}" is not "<server id>:<weight>"; write e.g. weights=3:2,5:1 (weights are numbers ≥ 0)`);
      }
      const id = Number(match[1]);
      const weight = Number(match[2]);
      if (!Number.isFinite(weight)) throw badRequest(`weights: the weight of server ${id} is not a finite number`);
      if (id in weights) throw badRequest(`weights: server ${id} is named twice`);
      weights[id] = weight;
    }
  }
  let threshold = 0.5;
  if (query.threshold !== undefined) {
    if (!NUMBER.test(query.threshold.trim())) throw badRequest(`threshold must be a number between 0 and 1, not "${query.threshold}"`);
    threshold = Number(query.threshold);
    if (!(threshold >= 0 && threshold <= 1)) throw badRequest(`threshold must be between 0 and 1, not ${threshold}`);
  }
  return { weights, threshold };
}

/** The answered servers among those shown, in server-id order. */
function answered(states: readonly Pick<ArticleServerState, 'serverId' | 'result'>[]): Array<{ serverId: number; result: AnswerResult }> {
  return states.flatMap((s) => (s.result ? [{ serverId: s.serverId, result: s.result }] : []));
}

export interface VoteView extends Consensus {
  method: 'vote';
  threshold: number;
  /** Weights as used: every server that answered, 1 unless given. */
  weights: Record<string, number>;
  /** The servers whose answers were counted (weight > 0). */
  servers: number[];
}

/**
 * Weighted voting over the shown servers' answers; undefined while fewer than two of them
 * answered (consensus.md: the consensus exists "once at least two servers answered").
 */
export function voteView(states: readonly Pick<ArticleServerState, 'serverId' | 'result'>[], vote: ParsedVote): VoteView | undefined {
  const inputs = answered(states);
  if (inputs.length < 2) return undefined;
  const weights: Record<string, number> = {};
  for (const input of inputs) weights[String(input.serverId)] = vote.weights[input.serverId] ?? 1;
  const options: VoteOptions = { weights: vote.weights, threshold: vote.threshold };
  const consensus = voteConsensus(inputs, options);
  return {
    method: 'vote',
    threshold: vote.threshold,
    weights,
    servers: inputs.filter((i) => (vote.weights[i.serverId] ?? 1) > 0).map((i) => i.serverId),
    ...consensus,
  };
}
