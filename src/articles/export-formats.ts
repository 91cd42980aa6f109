// Which export format can carry which task, and the files one server's answers make in a
// format (src/formats writes them, each family says which it offers). The export routes
// (export-routes.ts), the pages' export form and `metaserver export` read the same lists.
import type { ExportDoc, ExportFormatName, ExportResult } from '../families/family.ts';
import { ALL_FAMILIES, familyOf, type AnswerResult, type TaskName } from '../families/registry.ts';
import type { ArticleSection } from '../formats/common.ts';

/** The tasks each format can carry: 'tsv' for families with a result file, the others as each family offers them. */
const FORMAT_TASKS = new Map<ExportFormatName, TaskName[]>();
for (const family of ALL_FAMILIES) {
  const formats = [...(family.scoring.exportTsv ? ['tsv' as const] : []), ...(Object.keys(family.exports) as ExportFormatName[])];
  for (const format of formats) FORMAT_TASKS.set(format, [...(FORMAT_TASKS.get(format) ?? []), family.name as TaskName]);
}

/** Every export format some family offers; tsv first. */
export const EXPORT_FORMATS: readonly ExportFormatName[] = [...FORMAT_TASKS.keys()].sort(
  (a, b) => Number(b === 'tsv') - Number(a === 'tsv'),
);
export type ExportFormat = ExportFormatName;

/** The tasks a format can carry (none for a format no family offers). */
export const tasksCarriedBy = (format: ExportFormat): TaskName[] => FORMAT_TASKS.get(format) ?? [];

/** The export formats that can carry a task (for the pages' export form). */
export const formatsFor = (task: string): ExportFormatName[] =>
  EXPORT_FORMATS.filter((f) => (FORMAT_TASKS.get(f) as string[] | undefined)?.includes(task));

/** Files for one run; `docs` are the server's answered articles in load order. */
export function exportFiles(
  format: ExportFormat,
  task: TaskName,
  run: string,
  docs: Array<{ id: string; text: string; result: AnswerResult; sections?: readonly ArticleSection[] | null }>,
  options: { sourcedb: string },
): ExportResult {
  if (format === 'tsv') throw new Error('tsv is exported by the leaderboard module');
  const write = familyOf(task).exports[format];
  if (!write) throw new Error(`${task} has no ${format} export`);
  // Only documents the server answered for this task (as the route selects them).
  // A corpus article's sections go along: BioC and PubTator write its passages back.
  const own: ExportDoc<unknown>[] = docs.flatMap((d) =>
    d.result[task] === undefined
      ? []
      : [{ id: d.id, text: d.text, result: d.result[task], ...(d.sections ? { sections: d.sections } : {}) }],
  );
  return write(own, { run, sourcedb: options.sourcedb });
}
