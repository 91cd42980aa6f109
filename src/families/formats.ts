// Answers of any task in the formats that hold several tasks, through the registry:
// BC II.5 result files (each family's `tsv`) and BioC collections (each family's `bioc`
// codec, registry order). The format modules themselves know no task (src/formats).

import { exportBiocJson as writeJson, importBiocJson as readJson } from '../formats/bioc-json.ts';
import type { AnyBiocCodec, BiocOptions } from '../formats/bioc-model.ts';
import { exportBiocXml as writeXml, importBiocXml as readXml } from '../formats/bioc-xml.ts';
import { FormatError, type ExportArticle as FormatArticle, type RunDocument as FormatRunDocument } from '../formats/common.ts';
import type { TsvExport, TsvImportOptions } from '../formats/tsv.ts';
import type { TsvFile } from './family.ts';
import { ALL_FAMILIES, familyOf, tasksWith, type AnswerResult, type TaskName } from './registry.ts';

/** An article with its answers as the families type them (the formats know them by shape only). */
export type ExportArticle = FormatArticle<AnswerResult>;
/** One document of one server's run, its result typed by the families. */
export type RunDocument = FormatRunDocument<AnswerResult>;

/** The tasks that have a BC II.5 result file. */
const TSV_TASKS: readonly TaskName[] = tasksWith((f) => f.tsv);

function tsvOf(task: TaskName): TsvFile<unknown> {
  const tsv = familyOf(task).tsv;
  if (!tsv) throw new FormatError('tsv', `${task} has no BC II.5 result file (tasks with one: ${TSV_TASKS.join(', ')})`);
  return tsv;
}

/** One task's results of a run as a result file; documents without that task are left out. */
export function exportTsv(task: TaskName, run: readonly RunDocument[]): TsvExport {
  const docs = run.flatMap((d) => {
    const result = (d.result as Record<string, unknown>)[task];
    return result === undefined ? [] : [{ id: d.id, result }];
  });
  return tsvOf(task).write(docs);
}

/** Reads a result file into one result per document, in the order documents first appear. */
export function importTsv(task: TaskName, text: string, options: TsvImportOptions = {}): RunDocument[] {
  return tsvOf(task)
    .read(text, { columns: options.columns ?? 'rank,confidence', file: options.file })
    .map((d) => ({ id: d.id, result: { [task]: d.result } }));
}

const BIOC_CODECS: readonly AnyBiocCodec[] = ALL_FAMILIES.flatMap((f) => (f.bioc ? [f.bioc] : []));

// The readers fill each task's key with what that family's own codec read, so the results
// are the families' AnswerResult; the format modules can only say so by shape.
export const exportBiocXml = (articles: readonly FormatArticle[], options: BiocOptions = {}): string =>
  writeXml(articles, BIOC_CODECS, options);
export const importBiocXml = (xml: string): ExportArticle[] => readXml(xml, BIOC_CODECS) as ExportArticle[];
export const exportBiocJson = (articles: readonly FormatArticle[], options: BiocOptions = {}): string =>
  writeJson(articles, BIOC_CODECS, options);
export const importBiocJson = (json: string): ExportArticle[] => readJson(json, BIOC_CODECS) as ExportArticle[];
