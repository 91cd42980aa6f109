// MENTION voting: spans vote by (start, end, type), an untyped span as its own type; kept
// spans come in text order, their confidence their share of the weight.

import { meanConfidence, passes, tally, type TaskVote, type VoteSupport } from '../../scoring/vote-tally.ts';
import { compareIds } from '../../scoring/index.ts';
import type { WeightedAnswer } from '../family.ts';
import type { MentionItem } from './types.ts';

export type MentionConsensusItem = MentionItem & VoteSupport & { meanConfidence?: number };

export function voteMentions(answers: ReadonlyArray<WeightedAnswer<MentionItem[]>>, threshold: number): TaskVote<MentionConsensusItem> {
  const weighted = answers.map((a) => ({ serverId: a.serverId, weight: a.weight, items: a.result }));
  const { total, candidates } = tally(weighted, (m) => `${m.start}\u0000${m.end}\u0000${m.type ?? ''}`);
  const kept = candidates.filter((c) => passes(c.support, threshold, total));
  kept.sort((x, y) => x.first.start - y.first.start || x.first.end - y.first.end || compareIds(x.first.type ?? '', y.first.type ?? ''));
  const items = kept.map((c) => {
    const item: MentionConsensusItem = {
      start: c.first.start,
      end: c.first.end,
      text: c.first.text,
      confidence: c.support / total,
      support: c.support,
      share: c.support / total,
      servers: c.servers,
    };
    if (c.first.type !== undefined) item.type = c.first.type;
    const conf = meanConfidence(c.servers);
    if (conf !== undefined) item.meanConfidence = conf;
    return item;
  });
  return { total, items };
}

export function mentionsOfVote(vote: TaskVote<MentionConsensusItem>): MentionItem[] {
  return vote.items.map((m) => {
    const item: MentionItem = { start: m.start, end: m.end, text: m.text, confidence: m.confidence };
    if (m.type !== undefined) item.type = m.type;
    return item;
  });
}
