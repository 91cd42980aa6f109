// CREL voting: a relation is its (type, unordered pair of concepts), voted on as REL's
// relations (each server once, weighted; kept when its support reaches the threshold's
// share of the weight that answered), ordered by support, mean confidence, key. Novelty is
// voted among the servers that returned the relation: the value of the greater weight, a
// tie or no value given leaves it out. The share is the consensus result's confidence.

import { meanConfidence, passes, tally } from '../../scoring/vote-tally.ts';
import type { FamilyConsensus, WeightedAnswer } from '../family.ts';
import type { CrelGold } from './scoring.ts';
import type { CrelItem, CrelMention, CrelResult, CrelVote, Novelty } from './types.ts';

const keyOf = (r: CrelItem): string => `${r.type}\t${r.concept1}\t${r.concept2}`;

/** The novelty of the greater weight among the voters' (undefined on a tie or when none gave one). */
function votedNovelty(key: string, voters: readonly number[], answers: ReadonlyArray<WeightedAnswer<CrelResult>>): Novelty | undefined {
  const weight = { Novel: 0, No: 0 };
  for (const a of answers) {
    if (!voters.includes(a.serverId)) continue;
    const novelty = a.result.relations.find((r) => keyOf(r) === key)?.novelty;
    if (novelty) weight[novelty] += a.weight;
  }
  return weight.Novel > weight.No ? 'Novel' : weight.No > weight.Novel ? 'No' : undefined;
}

export const crelConsensus: FamilyConsensus<CrelResult, CrelGold, CrelVote> = {
  vote(answers, threshold) {
    const { total, candidates } = tally(
      answers.map((a) => ({ serverId: a.serverId, weight: a.weight, items: a.result.relations })),
      keyOf,
    );
    const kept = candidates
      .filter((c) => passes(c.support, threshold, total))
      .map((c) => ({ c, conf: meanConfidence(c.servers) ?? 0 }))
      .sort((x, y) => y.c.support - x.c.support || y.conf - x.conf || (x.c.key < y.c.key ? -1 : x.c.key > y.c.key ? 1 : 0));
    const items = kept.map(({ c }) => {
      const servers = c.servers.map((s) => s.serverId);
      const novelty = votedNovelty(c.key, servers, answers);
      return {
        type: c.first.type,
        concept1: c.first.concept1,
        concept2: c.first.concept2,
        ...(novelty ? { novelty } : {}),
        share: c.support / total,
        servers,
      };
    });
    const related = new Set(items.flatMap((i) => [i.concept1, i.concept2]));
    const mentions = new Map<string, CrelMention>();
    for (const a of answers)
      for (const m of a.result.mentions)
        if (m.ids.some((id) => related.has(id)) && !mentions.has(`${m.start}:${m.end}`)) mentions.set(`${m.start}:${m.end}`, m);
    return { items, mentions: [...mentions.values()].sort((x, y) => x.start - y.start || x.end - y.end) };
  },
  asResult: (vote) => ({
    relations: vote.items.map((i, k) => ({
      type: i.type,
      concept1: i.concept1,
      concept2: i.concept2,
      ...(i.novelty ? { novelty: i.novelty } : {}),
      confidence: i.share,
      rank: k + 1,
    })),
    mentions: vote.mentions,
  }),
};
