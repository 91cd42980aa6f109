// Shapes shared by the BC II.5 parsers and scorers (ACT, INT, IPT).

/**
 * Which optional columns a run file carries after its fixed ones, as bc-evaluate's
 * column switches state it: both (default), confidence only, rank only, or neither
 * (the line order is the ranking).
 */
export type ColumnLayout = 'rank,confidence' | 'confidence' | 'rank' | 'order';

export const COLUMN_LAYOUTS: readonly ColumnLayout[] = ['rank,confidence', 'confidence', 'rank', 'order'];

/** What decides the order of a ranked list. */
export type OrderMode = 'rank' | 'confidence' | 'line';

export function orderModeOf(columns: ColumnLayout): OrderMode {
  if (columns === 'confidence') return 'confidence';
  if (columns === 'order') return 'line';
  // With both columns, ranks decide and confidence is only range-checked.
  return 'rank';
}

/** One INT accession or IPT pair in a run, as read from its line. */
export interface RankedEntry {
  /** INT: the accession; IPT: the pair key (see unorderedPairKey), so one spelling per pair. */
  key: string;
  rank?: number;
  confidence?: number;
  /** 1-based line in the run file; also the line order. */
  line: number;
}

/** A whole INT or IPT run: document id → its entries in file order. */
export type RankedRun = Map<string, RankedEntry[]>;

/** INT/IPT gold standard: document id → its distinct item keys, in file order. */
export type GoldItems = Map<string, string[]>;

/** One ACT line of a run. */
export interface ActEntry {
  doc: string;
  relevant: boolean;
  rank?: number;
  confidence?: number;
  line: number;
}

/** ACT gold standard: document id → relevant or not. */
export type ActGold = Map<string, boolean>;

/** gold accession → its homonym orthologs (keyed by gold accession only; not symmetric). */
export type HomonymOrthologMap = Map<string, string[]>;

/** accession → taxon id. */
export type OrganismMap = Map<string, string>;

/** Parsed input plus warnings about quirks that did not stop the parse. */
export interface Parsed<T> {
  value: T;
  warnings: string[];
}

/** IPT pairs are undirected: the key is the two accessions sorted, joined by TAB (pairOf reads it back). */
export function unorderedPairKey(a: string, b: string): string {
  return a <= b ? `${a}\t${b}` : `${b}\t${a}`;
}

export function pairOf(key: string): [string, string] {
  const tab = key.indexOf('\t');
  return [key.slice(0, tab), key.slice(tab + 1)];
}
