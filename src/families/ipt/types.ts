// IPT: a ranked list of undirected interaction pairs per article, as stored and served.

export interface PairItem {
  /** a ≤ b (string order), so a pair has one spelling. */
  a: string;
  b: string;
  rank: number;
  confidence?: number;
  evidence?: string;
}
