// BC II.5 result files (scoring.md, "Inputs"): one line per item, TAB-separated —
//   classification  doc  classification  rank  confidence      (ACT)
//   ranked items    doc  item [item B]  rank  confidence        (INT accessions, IPT pairs, …)
// Export writes what the official bc-evaluate script reads; import goes through the
// scoring library's parsers, so an uploaded run and an imported one obey the same rules.
// Which task's results become which lines is the task family's (its `tsv`).
//
// Choices: the confidence column is written only when every item of the run has one
// (the returned `columns` says which layout was written, as bc-evaluate's switches need
// it); classification ranks are numbered within each predicted class by confidence
// descending, ties by document id (the ACT ordering of the BC II.5 paper); numbers are
// written in JavaScript's shortest round-tripping form. Importing a classification file
// needs its confidence column.

import {
  orderModeOf,
  orderRankedKeys,
  parseActRun,
  parseRankedRun,
  ScoringInputError,
  compareIds,
  type ColumnLayout,
  type RankedEntry,
  type RankedLayout,
} from '../scoring/index.ts';
import { FormatError } from './common.ts';

export interface TsvExport {
  text: string;
  /** The optional columns written, for the scorer's `columns` option. */
  columns: ColumnLayout;
}

export interface TsvImportOptions {
  /** Which optional columns the file has; default both. */
  columns?: ColumnLayout;
  /** Named in error messages. */
  file?: string;
}

/** One document's classification. */
export interface ClassificationLine {
  id: string;
  relevant: boolean;
  confidence: number;
}

/** One ranked item: `key` is its item column(s), a pair's two joined by TAB. */
export interface RankedLine {
  key: string;
  rank: number;
  confidence?: number;
}

export function writeClassificationTsv(entries: readonly ClassificationLine[]): TsvExport {
  const rankOf = new Map<string, number>();
  for (const relevant of [true, false]) {
    const side = entries.filter((e) => e.relevant === relevant);
    side.sort((x, y) => y.confidence - x.confidence || compareIds(x.id, y.id));
    side.forEach((e, i) => rankOf.set(e.id, i + 1));
  }
  // Lines keep the run's document order: with ranks given, the scorer does not need another.
  const text = entries.map((e) => `${e.id}\t${e.relevant ? 1 : 0}\t${rankOf.get(e.id)}\t${e.confidence}\n`).join('');
  return { text, columns: 'rank,confidence' };
}

export function writeRankedTsv(docs: ReadonlyArray<{ id: string; items: readonly RankedLine[] }>): TsvExport {
  const sorted = docs.map((d) => ({ id: d.id, items: [...d.items].sort((x, y) => x.rank - y.rank) }));
  const withConfidence = sorted.every((d) => d.items.every((i) => i.confidence !== undefined));
  let text = '';
  for (const { id, items } of sorted) {
    for (const item of items) text += `${id}\t${item.key}\t${item.rank}${withConfidence ? `\t${item.confidence}` : ''}\n`;
  }
  return { text, columns: withConfidence ? 'rank,confidence' : 'rank' };
}

function wrapped<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof ScoringInputError) throw new FormatError('tsv', error.message);
    throw error;
  }
}

/** Entries in ranked order: given ranks are kept, otherwise the list order numbers them. */
function rankedLines(entries: readonly RankedEntry[], columns: ColumnLayout): RankedLine[] {
  const byKey = new Map(entries.map((e) => [e.key, e]));
  return orderRankedKeys(entries, orderModeOf(columns)).map((key, i) => {
    const entry = byKey.get(key)!;
    const line: RankedLine = { key, rank: entry.rank ?? i + 1 };
    if (entry.confidence !== undefined) line.confidence = entry.confidence;
    return line;
  });
}

/** Reads a classification file: one line per document, in file order. */
export function readClassificationTsv(text: string, options: TsvImportOptions = {}): ClassificationLine[] {
  const columns = options.columns ?? 'rank,confidence';
  if (columns === 'rank' || columns === 'order')
    throw new FormatError('tsv', 'a classification result needs its confidence column to be imported');
  const entries = wrapped(() => parseActRun(text, { columns, file: options.file })).value;
  return entries.map((e) => ({ id: e.doc, relevant: e.relevant, confidence: e.confidence! }));
}

/** Reads a ranked result file into each document's items, in the order documents first appear. */
export function readRankedTsv(
  text: string,
  layout: RankedLayout,
  options: TsvImportOptions = {},
): Array<{ id: string; items: RankedLine[] }> {
  const columns = options.columns ?? 'rank,confidence';
  const run = wrapped(() => parseRankedRun(text, layout, { columns, file: options.file }));
  return [...run].map(([id, entries]) => ({ id, items: rankedLines(entries, columns) }));
}
