// Filling in ranks that a server did not send (validation.md): by confidence descending,
// ties by list order; with neither rank nor confidence, list order.

export interface Rankable {
  rank?: number;
  confidence?: number;
}

export interface FilledRanks {
  ranks: number[];
  /** Some items had ranks and others not: the unranked ones were placed after them. */
  partial: boolean;
}

/**
 * The rank of every item, in list order. When every item has a rank, those are kept.
 * Items without a rank are ordered by confidence descending (items without confidence
 * after those with one), ties by list order, and numbered after the highest rank given,
 * so a partly ranked list keeps the ranks the server chose.
 */
export function fillRanks(items: readonly Rankable[]): FilledRanks {
  const ranks = items.map((item) => item.rank ?? 0);
  const unranked = items.map((_, i) => i).filter((i) => items[i].rank === undefined);
  if (unranked.length === 0) return { ranks, partial: false };
  const partial = unranked.length < items.length;
  unranked.sort((i, j) => {
    const ci = items[i].confidence;
    const cj = items[j].confidence;
    if (ci !== undefined && cj !== undefined && ci !== cj) return cj - ci;
    if (ci === undefined && cj !== undefined) return 1;
    if (ci !== undefined && cj === undefined) return -1;
    return i - j;
  });
  let next = 0;
  for (const item of items) if (item.rank !== undefined && item.rank > next) next = item.rank;
  for (const i of unranked) ranks[i] = ++next;
  return { ranks, partial };
}
