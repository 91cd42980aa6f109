// BC II.5 result files (scoring.md, "Inputs"): one line per item, TAB-separated —
//   ACT  doc  classification  rank  confidence
//   INT  doc  accession       rank  confidence
//   IPT  doc  accessionA  accessionB  rank  confidence
// Export writes what the official bc-evaluate script reads; import goes through the
// scoring library's parsers, so an uploaded run and an imported one obey the same rules.
//
// Choices: the confidence column is written only when every item of the run has one
// (the returned `columns` says which layout was written, as bc-evaluate's switches need
// it); ACT ranks are numbered within each predicted class by confidence descending, ties
// by document id (the ACT ordering of the BC II.5 paper); numbers are written in
// JavaScript's shortest round-tripping form. INT `taxid`/`evidence` and IPT `evidence`
// have no column and are not exported. Importing an ACT file needs its confidence column.

import {
  orderModeOf,
  orderRankedKeys,
  pairOf,
  parseActRun,
  parseIntRun,
  parseIptRun,
  ScoringInputError,
  compareIds,
  type ColumnLayout,
  type RankedEntry,
} from '../scoring/index.ts';
import type { ActResult, NormalizationItem, PairItem } from '../tasks/types.ts';
import { FormatError, type RunDocument } from './common.ts';

export type TsvTask = 'ACT' | 'INT' | 'IPT';

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

function actLines(run: readonly RunDocument[]): string[] {
  const entries = run.flatMap((doc) => (doc.result.ACT ? [{ id: doc.id, act: doc.result.ACT }] : []));
  const rankOf = new Map<string, number>();
  for (const relevant of [true, false]) {
    const side = entries.filter((e) => e.act.relevant === relevant);
    side.sort((x, y) => y.act.confidence - x.act.confidence || compareIds(x.id, y.id));
    side.forEach((e, i) => rankOf.set(e.id, i + 1));
  }
  // Lines keep the run's document order: with ranks given, the scorer does not need another.
  return entries.map((e) => `${e.id}\t${e.act.relevant ? 1 : 0}\t${rankOf.get(e.id)}\t${e.act.confidence}`);
}

export function exportTsv(task: TsvTask, run: readonly RunDocument[]): TsvExport {
  if (task === 'ACT') {
    const lines = actLines(run);
    return { text: lines.map((l) => `${l}\n`).join(''), columns: 'rank,confidence' };
  }
  const docs = run.flatMap((doc) => {
    const items: Array<NormalizationItem | PairItem> | undefined = task === 'INT' ? doc.result.INT : doc.result.IPT;
    return items ? [{ id: doc.id, items: [...items].sort((x, y) => x.rank - y.rank) }] : [];
  });
  const withConfidence = docs.every((d) => d.items.every((i) => i.confidence !== undefined));
  let text = '';
  for (const { id, items } of docs) {
    for (const item of items) {
      const what = 'accession' in item ? item.accession : `${item.a}\t${item.b}`;
      text += `${id}\t${what}\t${item.rank}${withConfidence ? `\t${item.confidence}` : ''}\n`;
    }
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

interface RankedLine {
  key: string;
  rank: number;
  confidence?: number;
}

/** INT/IPT entries in ranked order: given ranks are kept, otherwise the list order numbers them. */
function rankedLines(entries: readonly RankedEntry[], columns: ColumnLayout): RankedLine[] {
  const byKey = new Map(entries.map((e) => [e.key, e]));
  return orderRankedKeys(entries, orderModeOf(columns)).map((key, i) => {
    const entry = byKey.get(key)!;
    const line: RankedLine = { key, rank: entry.rank ?? i + 1 };
    if (entry.confidence !== undefined) line.confidence = entry.confidence;
    return line;
  });
}

/** Reads a BC II.5 result file into one result per document, in the order documents first appear. */
export function importTsv(task: TsvTask, text: string, options: TsvImportOptions = {}): RunDocument[] {
  const columns = options.columns ?? 'rank,confidence';
  const parseOptions = { columns, file: options.file };
  if (task === 'ACT') {
    if (columns === 'rank' || columns === 'order') throw new FormatError('tsv', 'an ACT result needs its confidence column to be imported');
    const entries = wrapped(() => parseActRun(text, parseOptions)).value;
    return entries.map((e) => ({ id: e.doc, result: { ACT: { relevant: e.relevant, confidence: e.confidence! } satisfies ActResult } }));
  }
  const run = wrapped(() => (task === 'INT' ? parseIntRun(text, parseOptions) : parseIptRun(text, parseOptions)));
  return [...run].map(([id, entries]): RunDocument => {
    const lines = rankedLines(entries, columns);
    if (task === 'INT') {
      return { id, result: { INT: lines.map(({ key, ...rest }): NormalizationItem => ({ accession: key, ...rest })) } };
    }
    return {
      id,
      result: {
        IPT: lines.map(({ key, ...rest }): PairItem => {
          const [a, b] = pairOf(key);
          return { a, b, ...rest };
        }),
      },
    };
  });
}
