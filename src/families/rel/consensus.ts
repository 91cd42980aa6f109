// REL voting: a relation is its (type, arg1, arg2), voted on as INT and IPT vote their
// items (each server once per relation, weighted; kept when its support reaches the
// threshold's share of the weight that answered), ordered by support, then mean
// confidence, then the key. Its share is the consensus result's confidence.

import { meanConfidence, passes, tally } from '../../scoring/vote-tally.ts';
import type { FamilyConsensus } from '../family.ts';
import type { RelGold } from './scoring.ts';
import type { RelGivenEntity, RelItem, RelResult, RelVote } from './types.ts';

const keyOf = (r: RelItem): string => `${r.type}\t${r.arg1}\t${r.arg2}`;

export const relConsensus: FamilyConsensus<RelResult, RelGold, RelVote> = {
  vote(answers, threshold) {
    const { total, candidates } = tally(
      answers.map((a) => ({ serverId: a.serverId, weight: a.weight, items: a.result.relations })),
      keyOf,
    );
    const kept = candidates
      .filter((c) => passes(c.support, threshold, total))
      .map((c) => ({ c, conf: meanConfidence(c.servers) ?? 0 }))
      .sort((x, y) => y.c.support - x.c.support || y.conf - x.conf || (x.c.key < y.c.key ? -1 : x.c.key > y.c.key ? 1 : 0));
    const items = kept.map(({ c }) => ({
      type: c.first.type,
      arg1: c.first.arg1,
      arg2: c.first.arg2,
      share: c.support / total,
      servers: c.servers.map((s) => s.serverId),
    }));
    const named = new Set(items.flatMap((i) => [i.arg1, i.arg2]));
    const entities = new Map<string, RelGivenEntity>();
    for (const a of answers) for (const e of a.result.entities) if (named.has(e.id) && !entities.has(e.id)) entities.set(e.id, e);
    return { items, entities: [...entities.values()] };
  },
  asResult: (vote) => ({
    relations: vote.items.map((i, k) => ({ type: i.type, arg1: i.arg1, arg2: i.arg2, confidence: i.share, rank: k + 1 })),
    entities: vote.entities,
  }),
};
