// TOPIC voting: each label is voted on as INT votes its ids — a label is kept when the
// servers that gave it hold at least the threshold's share of the weight of the servers
// that answered TOPIC. A server that answered without a label voted against it, so at the
// default threshold of 0.5 this is ACT's majority taken label by label; the organiser's
// threshold applies as for every other set-valued task (ACT, a single yes/no, ignores it).
// Kept labels are ordered by support, then mean confidence, then name.

import { meanConfidence, passes, tally, type ServerVote } from '../../scoring/vote-tally.ts';
import type { WeightedAnswer } from '../family.ts';
import type { TopicItem, TopicResult } from './types.ts';

export interface TopicVoteItem {
  label: string;
  /** Σ weights of the servers that gave the label. */
  support: number;
  /** support / total. */
  share: number;
  meanConfidence?: number;
  servers: ServerVote[];
}

export interface TopicConsensus {
  /** Total weight of the servers that answered TOPIC. */
  total: number;
  items: TopicVoteItem[];
}

export function voteTopics(answers: ReadonlyArray<WeightedAnswer<TopicResult>>, threshold: number): TopicConsensus {
  const { total, candidates } = tally(
    answers.map((a) => ({ serverId: a.serverId, weight: a.weight, items: a.result })),
    (item: TopicItem) => item.label,
  );
  const items = candidates
    .filter((c) => passes(c.support, threshold, total))
    .map((c): TopicVoteItem => {
      const confidence = meanConfidence(c.servers);
      return {
        label: c.key,
        support: c.support,
        share: c.support / total,
        ...(confidence !== undefined ? { meanConfidence: confidence } : {}),
        servers: c.servers,
      };
    });
  items.sort(
    (x, y) =>
      y.support - x.support || (y.meanConfidence ?? 0) - (x.meanConfidence ?? 0) || (x.label < y.label ? -1 : x.label > y.label ? 1 : 0),
  );
  return { total, items };
}

/** The vote as an answer: the kept labels, each with its share of the weight as confidence. */
export const topicConsensusResult = (vote: TopicConsensus): TopicResult => vote.items.map((i) => ({ label: i.label, confidence: i.share }));
