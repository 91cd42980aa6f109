// Weighted voting over the answers of several servers for one article (consensus.md).
//
// Choices where the spec is silent (README.md in this folder repeats them):
// - A server with weight 0 counts as not chosen: it adds neither support nor total.
// - The total of a task is the weight of the chosen servers that answered that task.
// - Threshold comparison allows a relative slack of 1e-9, so 2/3 of the weight passes a
//   2/3 threshold despite floating-point rounding.
// - Means (reciprocal rank, confidence) are plain means over the supporting servers;
//   confidence means only over those that sent one; a missing mean sorts as 0.
// - The consensus item's confidence is its share of the total (support / total), in
//   (0, 1], so a consensus can be exported and scored like any run.
// - ACT: no threshold; the heavier side wins; a tie is "relevant" (triage misses cost
//   more than extra reading) with confidence 0.5.
// - MENTION: untyped spans vote as their own type; kept spans come in text order.
// - A task enters the consensus once `minServers` (default 2) chosen servers answered it.

import { compareIds } from '../scoring/index.ts';
import type { AnswerResult, MentionItem, NormalizationItem, PairItem } from '../tasks/types.ts';

export interface VoteInput {
  serverId: number;
  result: AnswerResult;
}

export interface VoteOptions {
  /** Weight per server id; default 1; must be finite and ≥ 0. */
  weights?: Readonly<Record<number, number>>;
  /** Fraction of the total weight an item needs; default 0.5; in [0, 1]. */
  threshold?: number;
  /** Servers that must have answered a task for it to get a consensus; default 2. */
  minServers?: number;
}

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

export type IntConsensusItem = NormalizationItem & RankedSupport;
export type IptConsensusItem = PairItem & RankedSupport;
export type MentionConsensusItem = MentionItem & VoteSupport & { meanConfidence?: number };

export interface ActConsensus {
  relevant: boolean;
  /** The winning side's share of the weight. */
  confidence: number;
  support: { relevant: number; irrelevant: number };
  total: number;
  servers: Array<{ serverId: number; relevant: boolean; confidence: number }>;
}

export interface TaskVote<T> {
  /** Total weight of the chosen servers that answered the task. */
  total: number;
  items: T[];
}

export interface Consensus {
  ACT?: ActConsensus;
  INT?: TaskVote<IntConsensusItem>;
  IPT?: TaskVote<IptConsensusItem>;
  MENTION?: TaskVote<MentionConsensusItem>;
}

const SLACK = 1e-9;

function weightOf(serverId: number, options: VoteOptions): number {
  const weight = options.weights?.[serverId] ?? 1;
  if (!Number.isFinite(weight) || weight < 0) throw new RangeError(`weight of server ${serverId} must be a finite number ≥ 0, got ${weight}`);
  return weight;
}

function checkedThreshold(options: VoteOptions): number {
  const threshold = options.threshold ?? 0.5;
  if (!(threshold >= 0 && threshold <= 1)) throw new RangeError(`threshold must be in [0, 1], got ${threshold}`);
  return threshold;
}

const meanOf = (values: number[]): number | undefined => (values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0) / values.length);

interface Candidate<T> {
  key: string;
  first: T;
  support: number;
  servers: ServerVote[];
}

/** Tallies items by key over the weighted servers; returns the candidates and the total. */
function tally<T extends { rank?: number; confidence?: number }>(
  answers: Array<{ serverId: number; weight: number; items: T[] }>,
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

function passes(support: number, threshold: number, total: number): boolean {
  return support > 0 && support >= threshold * total - SLACK * total;
}

function rankedVote<T extends NormalizationItem | PairItem, O>(
  answers: Array<{ serverId: number; weight: number; items: T[] }>,
  threshold: number,
  keyOf: (item: T) => string,
  build: (first: T, rank: number, support: RankedSupport) => O,
): TaskVote<O> {
  const { total, candidates } = tally(answers, keyOf);
  const scored = candidates
    .filter((c) => passes(c.support, threshold, total))
    .map((c) => ({
      c,
      mrr: meanOf(c.servers.map((s) => 1 / (s.rank as number))) ?? 0,
      conf: meanOf(c.servers.flatMap((s) => (s.confidence === undefined ? [] : [s.confidence]))),
    }));
  scored.sort((x, y) => y.c.support - x.c.support || y.mrr - x.mrr || (y.conf ?? 0) - (x.conf ?? 0) || compareIds(x.c.key, y.c.key));
  const items = scored.map(({ c, mrr, conf }, i) => {
    const support: RankedSupport = { support: c.support, share: c.support / total, servers: c.servers, meanReciprocalRank: mrr };
    if (conf !== undefined) support.meanConfidence = conf;
    return build(c.first, i + 1, support);
  });
  return { total, items };
}

function voteAct(answers: Array<{ serverId: number; weight: number; result: AnswerResult }>): ActConsensus {
  const support = { relevant: 0, irrelevant: 0 };
  const servers: ActConsensus['servers'] = [];
  for (const { serverId, weight, result } of answers) {
    const act = result.ACT!;
    if (act.relevant) support.relevant += weight;
    else support.irrelevant += weight;
    servers.push({ serverId, relevant: act.relevant, confidence: act.confidence });
  }
  const total = support.relevant + support.irrelevant;
  const relevant = support.relevant >= support.irrelevant;
  const confidence = (relevant ? support.relevant : support.irrelevant) / total;
  return { relevant, confidence, support, total, servers };
}

function voteMentions(answers: Array<{ serverId: number; weight: number; items: MentionItem[] }>, threshold: number): TaskVote<MentionConsensusItem> {
  const { total, candidates } = tally(answers, (m) => `${m.start}\u0000${m.end}\u0000${m.type ?? ''}`);
  const kept = candidates.filter((c) => passes(c.support, threshold, total));
  kept.sort((x, y) => x.first.start - y.first.start || x.first.end - y.first.end || compareIds(x.first.type ?? '', y.first.type ?? ''));
  const items = kept.map((c) => {
    const item: MentionConsensusItem = { start: c.first.start, end: c.first.end, text: c.first.text, confidence: c.support / total, support: c.support, share: c.support / total, servers: c.servers };
    if (c.first.type !== undefined) item.type = c.first.type;
    const conf = meanOf(c.servers.flatMap((s) => (s.confidence === undefined ? [] : [s.confidence])));
    if (conf !== undefined) item.meanConfidence = conf;
    return item;
  });
  return { total, items };
}

/** The weighted-voting consensus of the chosen servers' valid answers for one article. */
export function voteConsensus(inputs: readonly VoteInput[], options: VoteOptions = {}): Consensus {
  const threshold = checkedThreshold(options);
  const minServers = options.minServers ?? 2;
  const weighted = inputs.map((input) => ({ ...input, weight: weightOf(input.serverId, options) })).filter((input) => input.weight > 0);
  const answering = <K extends keyof AnswerResult>(task: K) => weighted.filter((input) => input.result[task] !== undefined);
  const consensus: Consensus = {};

  const act = answering('ACT');
  if (act.length >= minServers && act.length > 0) consensus.ACT = voteAct(act);

  const int = answering('INT');
  if (int.length >= minServers && int.length > 0) {
    consensus.INT = rankedVote(
      int.map((a) => ({ serverId: a.serverId, weight: a.weight, items: a.result.INT! })),
      threshold,
      (item) => item.accession,
      (first, rank, support): IntConsensusItem => ({ accession: first.accession, rank, confidence: support.share, ...support }),
    );
  }

  const ipt = answering('IPT');
  if (ipt.length >= minServers && ipt.length > 0) {
    consensus.IPT = rankedVote(
      ipt.map((a) => ({ serverId: a.serverId, weight: a.weight, items: a.result.IPT! })),
      threshold,
      (item) => `${item.a}\t${item.b}`,
      (first, rank, support): IptConsensusItem => ({ a: first.a, b: first.b, rank, confidence: support.share, ...support }),
    );
  }

  const mention = answering('MENTION');
  if (mention.length >= minServers && mention.length > 0) {
    consensus.MENTION = voteMentions(mention.map((a) => ({ serverId: a.serverId, weight: a.weight, items: a.result.MENTION! })), threshold);
  }
  return consensus;
}

/** The consensus as a plain answer (items' share as confidence), to store, export or score as a run. */
export function consensusAsResult(consensus: Consensus): AnswerResult {
  const result: AnswerResult = {};
  if (consensus.ACT) result.ACT = { relevant: consensus.ACT.relevant, confidence: consensus.ACT.confidence };
  if (consensus.INT) result.INT = consensus.INT.items.map((i) => ({ accession: i.accession, rank: i.rank, confidence: i.confidence }));
  if (consensus.IPT) result.IPT = consensus.IPT.items.map((i) => ({ a: i.a, b: i.b, rank: i.rank, confidence: i.confidence }));
  if (consensus.MENTION) {
    result.MENTION = consensus.MENTION.items.map((m) => {
      const item: MentionItem = { start: m.start, end: m.end, text: m.text, confidence: m.confidence };
      if (m.type !== undefined) item.type = m.type;
      return item;
    });
  }
  return result;
}
