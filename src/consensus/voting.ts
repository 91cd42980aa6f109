// Weighted voting over the answers of several servers for one article (consensus.md):
// each task family's vote (src/families/*, on the counting of scoring/vote-tally.ts), run here
// for every family that has one.
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

import { ALL_FAMILIES, type AnswerResult, type Consensus } from '../families/registry.ts';

export type { Consensus } from '../families/registry.ts';

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

function weightOf(serverId: number, options: VoteOptions): number {
  const weight = options.weights?.[serverId] ?? 1;
  if (!Number.isFinite(weight) || weight < 0)
    throw new RangeError(`weight of server ${serverId} must be a finite number ≥ 0, got ${weight}`);
  return weight;
}

function checkedThreshold(options: VoteOptions): number {
  const threshold = options.threshold ?? 0.5;
  if (!(threshold >= 0 && threshold <= 1)) throw new RangeError(`threshold must be in [0, 1], got ${threshold}`);
  return threshold;
}

/** The weighted-voting consensus of the chosen servers' valid answers for one article: each family with a vote, registry order. */
export function voteConsensus(inputs: readonly VoteInput[], options: VoteOptions = {}): Consensus {
  const threshold = checkedThreshold(options);
  const minServers = options.minServers ?? 2;
  const weighted = inputs.map((input) => ({ ...input, weight: weightOf(input.serverId, options) })).filter((input) => input.weight > 0);
  const consensus: Record<string, unknown> = {};
  for (const family of ALL_FAMILIES) {
    if (!family.consensus) continue;
    const answering = weighted.flatMap(({ serverId, weight, result }) => {
      const own = (result as Record<string, unknown>)[family.name];
      return own === undefined ? [] : [{ serverId, weight, result: own }];
    });
    if (answering.length >= minServers && answering.length > 0) consensus[family.name] = family.consensus.vote(answering, threshold);
  }
  return consensus;
}

/** The consensus as a plain answer (items' share as confidence), to store, export or score as a run. */
export function consensusAsResult(consensus: Consensus): AnswerResult {
  const result: Record<string, unknown> = {};
  for (const family of ALL_FAMILIES) {
    const vote = (consensus as Record<string, unknown>)[family.name];
    if (vote !== undefined && family.consensus) result[family.name] = family.consensus.asResult(vote);
  }
  return result;
}
