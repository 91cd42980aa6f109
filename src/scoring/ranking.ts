// Ordering rules for ranked lists (BC II.5 as bc-evaluate 2.3.1 applies them).
//
// INT/IPT: rank ascending (gaps allowed), else confidence descending with ties broken by
// the item key ascending (for pairs, the sorted pair), else line order.
// ACT: predicted-true documents first, in that same order; then predicted-false ones in
// the reverse order (rank descending / confidence ascending / reverse line order), so the
// least confident "false" comes right after the trues. Confidence ties are broken by
// document id ascending in both classes, as the script does.

import type { ActEntry, OrderMode, RankedEntry } from './types.ts';

/** Plain string order by UTF-16 code units: ids are ASCII, so this equals byte order. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function byRank(a: { rank?: number }, b: { rank?: number }): number {
  return (a.rank as number) - (b.rank as number);
}

function byLine(a: { line: number }, b: { line: number }): number {
  return a.line - b.line;
}

/** The keys of INT/IPT entries in ranked order (the input array is not modified). */
export function orderRankedKeys(entries: readonly RankedEntry[], mode: OrderMode): string[] {
  const sorted = entries.slice();
  if (mode === 'rank') sorted.sort(byRank);
  else if (mode === 'confidence') {
    sorted.sort((a, b) => (b.confidence as number) - (a.confidence as number) || compareIds(a.key, b.key));
  } else sorted.sort(byLine);
  const keys = new Array<string>(sorted.length);
  for (let i = 0; i < sorted.length; i++) keys[i] = sorted[i].key;
  return keys;
}

/** ACT entries in ACT order: trues in ranked order, then falses in reverse order. */
export function orderActEntries(entries: readonly ActEntry[], mode: OrderMode): ActEntry[] {
  const trues = entries.filter((entry) => entry.relevant);
  const falses = entries.filter((entry) => !entry.relevant);
  if (mode === 'rank') {
    trues.sort(byRank);
    falses.sort((a, b) => byRank(b, a));
  } else if (mode === 'confidence') {
    const conf = (e: ActEntry) => e.confidence as number;
    trues.sort((a, b) => conf(b) - conf(a) || compareIds(a.doc, b.doc));
    falses.sort((a, b) => conf(a) - conf(b) || compareIds(a.doc, b.doc));
  } else {
    trues.sort(byLine);
    falses.sort((a, b) => byLine(b, a));
  }
  return trues.concat(falses);
}
