// ACT voting: no threshold; the heavier side wins with its share of the weight as
// confidence; a tie is "relevant" (a triage miss costs a curator more than reading one
// more article) with confidence 0.5.

import type { WeightedAnswer } from '../family.ts';
import type { ActResult } from './types.ts';

export interface ActConsensus {
  relevant: boolean;
  /** The winning side's share of the weight. */
  confidence: number;
  support: { relevant: number; irrelevant: number };
  total: number;
  servers: Array<{ serverId: number; relevant: boolean; confidence: number }>;
}

export function voteAct(answers: ReadonlyArray<WeightedAnswer<ActResult>>): ActConsensus {
  const support = { relevant: 0, irrelevant: 0 };
  const servers: ActConsensus['servers'] = [];
  for (const { serverId, weight, result } of answers) {
    if (result.relevant) support.relevant += weight;
    else support.irrelevant += weight;
    servers.push({ serverId, relevant: result.relevant, confidence: result.confidence });
  }
  const total = support.relevant + support.irrelevant;
  const relevant = support.relevant >= support.irrelevant;
  const confidence = (relevant ? support.relevant : support.irrelevant) / total;
  return { relevant, confidence, support, total, servers };
}
