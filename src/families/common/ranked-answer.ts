// The validation every family of ranked document-level ids shares (INT accessions, IPT
// pairs, TX taxa), in its two passes. First the list as sent: an array of structs, each
// read by the family, confidences and ranks checked, an id given twice and a rank used
// twice refused (any error refuses the whole answer). Then the list as kept: missing ranks
// filled in, each id resolved by the family against its release (mapped or dropped with a
// warning), two items that became the same id reduced to the better-ranked one, in rank
// order. A family says only how an entry is read and how an item is resolved.

import { keepBestRanked } from '../../tasks/accessions.ts';
import {
  checkArray,
  checkConfidence,
  checkRank,
  checkStruct,
  checkUniqueRanks,
  type FieldSpec,
  type Report,
  type Struct,
} from '../../tasks/checks.ts';
import { fillRanks } from '../../tasks/ranking.ts';

/** An item of the list as sent: its position (for messages), and its rank and confidence when given. */
export interface ListedItem {
  index: number;
  rank?: number;
  confidence?: number;
}

/** One entry as the family read it: the item's own fields and the id that finds a repeat. */
export interface EntryRead<F> {
  fields: F;
  /** Equal for two entries that name the same thing (a second one is an error). */
  id: string | number;
  /** Where and how a repeat is reported, given the first entry's position. */
  repeated(firstIndex: number): [path: string, message: string];
}

export interface RankedAnswerSpec<F> {
  /** The answer's key (`normalizations`, `pairs`, `taxons`). */
  key: string;
  /** What one entry is, for "expected an array of …". */
  shape: string;
  fields: Record<string, FieldSpec>;
  /** What the items are called in the partial-ranks warning ("items", "pairs", "taxa"). */
  noun: string;
  /** Reads the family's fields of one entry (errors to the report); undefined when its id is unusable. */
  read(fields: Struct, path: string, report: Report): EntryRead<F> | undefined;
}

/** The first pass: the list as sent, or undefined (with the errors reported) when it cannot be taken. */
export function readRankedAnswer<F>(value: unknown, spec: RankedAnswerSpec<F>, report: Report): (F & ListedItem)[] | undefined {
  const list = checkArray(value, spec.key, spec.shape, report);
  if (!list) return undefined;
  const errorsBefore = report.errors.length;
  const parsed: (F & ListedItem)[] = [];
  const ranks: (number | undefined)[] = [];
  const firstUse = new Map<string | number, number>();
  list.forEach((entry, index) => {
    const path = `${spec.key}[${index}]`;
    const fields = checkStruct(entry, path, spec.fields, report);
    if (!fields) return;
    const read = spec.read(fields, path, report);
    const confidence = fields.confidence === undefined ? undefined : checkConfidence(fields.confidence, `${path}.confidence`, report);
    const rank = fields.rank === undefined ? undefined : checkRank(fields.rank, `${path}.rank`, report);
    ranks[index] = rank;
    if (read === undefined) return;
    const first = firstUse.get(read.id);
    if (first !== undefined) report.error(...read.repeated(first));
    else firstUse.set(read.id, index);
    parsed.push({ ...read.fields, index, rank, confidence });
  });
  checkUniqueRanks(ranks, spec.key, report);
  return report.errors.length > errorsBefore ? undefined : parsed;
}

/** How the second pass keeps an item: resolved by the family, and the key two items share once they are the same. */
export interface KeepSpec<T> {
  /** The item as stored, or undefined when it is dropped (the family warns why). */
  resolve(item: T, position: number): T | undefined;
  identity(item: T): string;
  /** The field a "given twice after mapping" warning names, and what the mapping was. */
  field: string;
  mapped?: string;
}

/** The second pass: ranks filled in, items resolved, one per identity (the better ranked), in rank order. */
export function keepRankedAnswer<T extends ListedItem>(
  parsed: T[],
  spec: Pick<RankedAnswerSpec<unknown>, 'key' | 'noun'>,
  keep: KeepSpec<T>,
  report: Report,
): (T & { rank: number })[] {
  const filled = fillRanks(parsed);
  if (filled.partial)
    report.warn(
      spec.key,
      `some ${spec.noun} have a rank and others not: the unranked ones were ranked after them, by confidence then list order`,
    );
  const kept: (T & { rank: number })[] = [];
  parsed.forEach((item, i) => {
    const resolved = keep.resolve(item, i);
    if (resolved !== undefined) kept.push({ ...resolved, rank: filled.ranks[i] });
  });
  const distinct = keepBestRanked(kept, keep.identity, spec.key, keep.field, report, keep.mapped);
  return distinct.sort((x, y) => x.rank - y.rank);
}
