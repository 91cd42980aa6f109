// The counting behind weighted voting, for any task: items are tallied by key over the
// weighted servers, kept when their support reaches the threshold's share of the total,
// and ranked lists ranked by support, mean reciprocal rank, mean confidence and key. Each
// task family builds its vote from these (src/families/*); consensus/voting.ts runs them all.

import { compareIds } from './ranking.ts';

/** One server's vote for an item. */
export interface ServerVote {
  serverId: number;
  rank?: number;
  confidence?: number;
}

export interface VoteSupport {
  /** Σ weights of the servers that returned the item. */
  support: number;
  /** support / total weight of the servers that answered the task. */
  share: number;
  servers: ServerVote[];
}

export interface RankedSupport extends VoteSupport {
  meanReciprocalRank: number;
  meanConfidence?: number;
}

export interface TaskVote<T> {
  /** Total weight of the chosen servers that answered the task. */
  total: number;
  items: T[];
}

/** One chosen server's items for the task, with its weight. */
export interface WeightedItems<T> {
  serverId: number;
  weight: number;
  items: readonly T[];
}

const SLACK = 1e-9;

export const meanOf = (values: number[]): number | undefined =>
  values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0) / values.length;

export interface Candidate<T> {
  key: string;
  first: T;
  support: number;
  servers: ServerVote[];
}

/** Tallies items by key over the weighted servers; returns the candidates and the total. */
export function tally<T extends { rank?: number; confidence?: number }>(
  answers: ReadonlyArray<WeightedItems<T>>,
  keyOf: (item: T) => string,
): { total: number; candidates: Candidate<T>[] } {
  const byKey = new Map<string, Candidate<T>>();
  let total = 0;
  for (const { serverId, weight, items } of answers) {
    total += weight;
    const seen = new Set<string>();
    for (const item of items) {
      const key = keyOf(item);
      // A server votes once per item, whatever it repeats.
      if (seen.has(key)) continue;
      seen.add(key);
      let candidate = byKey.get(key);
      if (!candidate) byKey.set(key, (candidate = { key, first: item, support: 0, servers: [] }));
      candidate.support += weight;
      const vote: ServerVote = { serverId };
      if (item.rank !== undefined) vote.rank = item.rank;
      if (item.confidence !== undefined) vote.confidence = item.confidence;
      candidate.servers.push(vote);
    }
  }
  return { total, candidates: [...byKey.values()] };
}

/**
 * support ≥ threshold · total, with a relative slack of 1e-9 so 2/3 of the weight passes a
 * 2/3 threshold despite floating-point rounding.
 */
export function passes(support: number, threshold: number, total: number): boolean {
  return support > 0 && support >= threshold * total - SLACK * total;
}

/** The mean of the confidences the supporting servers sent, if any sent one. */
export const meanConfidence = (servers: readonly ServerVote[]): number | undefined =>
  meanOf(servers.flatMap((s) => (s.confidence === undefined ? [] : [s.confidence])));

/** Voting on ranked lists: kept items ranked by support, mean reciprocal rank, mean confidence, key. */
export function rankedVote<T extends { rank?: number; confidence?: number }, O>(
  answers: ReadonlyArray<WeightedItems<T>>,
  threshold: number,
  keyOf: (item: T) => string,
  build: (first: T, rank: number, support: RankedSupport) => O,
): TaskVote<O> {
  const { total, candidates } = tally(answers, keyOf);
  const scored = candidates
    .filter((c) => passes(c.support, threshold, total))
    .map((c) => ({ c, mrr: meanOf(c.servers.map((s) => 1 / (s.rank as number))) ?? 0, conf: meanConfidence(c.servers) }));
  scored.sort((x, y) => y.c.support - x.c.support || y.mrr - x.mrr || (y.conf ?? 0) - (x.conf ?? 0) || compareIds(x.c.key, y.c.key));
  const items = scored.map(({ c, mrr, conf }, i) => {
    const support: RankedSupport = { support: c.support, share: c.support / total, servers: c.servers, meanReciprocalRank: mrr };
    if (conf !== undefined) support.meanConfidence = conf;
    return build(c.first, i + 1, support);
  });
  return { total, items };
}
