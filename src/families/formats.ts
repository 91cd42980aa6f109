// Answers of any task in the formats that hold several tasks, through the registry:
// BC II.5 result files (each family's `tsv`) and BioC collections (each family's `bioc`
// codec, registry order). The format modules themselves know no task (src/formats).

import { exportBiocJson as writeJson, importBiocJson as readJson } from '../formats/bioc-json.ts';
import type { AnyBiocCodec, BiocOptions } from '../formats/bioc-model.ts';
import { exportBiocXml as writeXml, importBiocXml as readXml } from '../formats/bioc-xml.ts';
import { FormatError, type ExportArticle, type RunDocument } from '../formats/common.ts';
import type { TsvExport, TsvImportOptions } from '../formats/tsv.ts';
import type { TsvFile } from './family.ts';
import { ALL_FAMILIES, familyOf, tasksWith, type TaskName } from './registry.ts';

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

export const exportBiocXml = (articles: readonly ExportArticle[], options: BiocOptions = {}): string =>
  writeXml(articles, BIOC_CODECS, options);
export const importBiocXml = (xml: string): ExportArticle[] => readXml(xml, BIOC_CODECS);
export const exportBiocJson = (articles: readonly ExportArticle[], options: BiocOptions = {}): string =>
  writeJson(articles, BIOC_CODECS, options);
export const importBiocJson = (json: string): ExportArticle[] => readJson(json, BIOC_CODECS);
