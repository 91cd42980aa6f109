// MENTION voting: spans vote by (start, end, type), an untyped span as its own type; kept
// spans come in text order, their confidence their share of the weight.
//
// Concept ids are voted per kept span, among the servers that found that span and sent ids
// for it (an empty list counts: "could not normalise" is an opinion): an id is kept when
// its support reaches the threshold's share of those servers' weight. Not of the total: a
// server that did not find the span, or does not normalise at all, says nothing about which
// concept the span is, and counting it would keep an id only where nearly every server
// found the span. The item carries the kept ids and every id's support and share.

import { meanConfidence, passes, tally, type TaskVote, type VoteSupport } from '../../scoring/vote-tally.ts';
import { compareIds } from '../../scoring/index.ts';
import type { WeightedAnswer } from '../family.ts';
import type { MentionItem } from './types.ts';

/** One id's vote on a span: Σ weights of the servers that gave it, and its share of the weight of those that sent ids. */
export interface IdVote {
  id: string;
  support: number;
  share: number;
}

export type MentionConsensusItem = MentionItem & VoteSupport & { meanConfidence?: number; idVotes?: IdVote[] };

const spanKey = (m: MentionItem): string => `${m.start}\u0000${m.end}\u0000${m.type ?? ''}`;

/** Each server's ids by span key (its first mention of the span), for the servers that sent ids. */
function idsBySpan(answers: ReadonlyArray<WeightedAnswer<MentionItem[]>>): Map<string, Array<{ weight: number; ids: readonly string[] }>> {
  const bySpan = new Map<string, Array<{ weight: number; ids: readonly string[] }>>();
  for (const a of answers) {
    const seen = new Set<string>();
    for (const m of a.result) {
      const key = spanKey(m);
      if (seen.has(key)) continue;
      seen.add(key);
      if (m.ids === undefined) continue;
      (bySpan.get(key) ?? bySpan.set(key, []).get(key)!).push({ weight: a.weight, ids: [...new Set(m.ids)] });
    }
  }
  return bySpan;
}

/**
 * The span's id votes (most support first, then by id) and the ids kept; undefined when no
 * server that found the span sent ids for it.
 */
function voteIds(
  opinions: ReadonlyArray<{ weight: number; ids: readonly string[] }> | undefined,
  threshold: number,
): { votes: IdVote[]; kept: string[] } | undefined {
  if (!opinions || opinions.length === 0) return undefined;
  const judges = opinions.reduce((sum, o) => sum + o.weight, 0);
  const support = new Map<string, number>();
  for (const o of opinions) for (const id of o.ids) support.set(id, (support.get(id) ?? 0) + o.weight);
  const votes = [...support]
    .map(([id, s]) => ({ id, support: s, share: s / judges }))
    .sort((x, y) => y.support - x.support || compareIds(x.id, y.id));
  return { votes, kept: votes.filter((v) => passes(v.support, threshold, judges)).map((v) => v.id) };
}

export function voteMentions(answers: ReadonlyArray<WeightedAnswer<MentionItem[]>>, threshold: number): TaskVote<MentionConsensusItem> {
  const weighted = answers.map((a) => ({ serverId: a.serverId, weight: a.weight, items: a.result }));
  const { total, candidates } = tally(weighted, spanKey);
  const opinions = idsBySpan(answers);
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
    const ids = voteIds(opinions.get(c.key), threshold);
    if (ids) {
      item.ids = ids.kept;
      item.idVotes = ids.votes;
    }
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
    if (m.ids !== undefined) item.ids = m.ids;
    return item;
  });
}
