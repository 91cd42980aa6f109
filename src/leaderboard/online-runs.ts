// Online runs: one server's stored, validated answers for one task, turned into the task
// family's run structure and keyed by the article's organiser id (the `doc` column of the
// gold standard); AnswerRepository.onlineAnswers reads them.
import type { OnlineAnswer } from '../families/family.ts';
import { familyOf, type TaskName } from '../families/registry.ts';
import type { RunData } from './inputs.ts';

export type { OnlineAnswer } from '../families/family.ts';

export function onlineRun(task: TaskName, answers: readonly OnlineAnswer[]): RunData {
  return { task, run: familyOf(task).scoring.onlineRun(answers) };
}

/** An online run as a tab-separated result file the official scorer reads. */
export function exportRunTsv(data: RunData): string {
  const exportTsv = familyOf(data.task).scoring.exportTsv;
  if (!exportTsv) throw new Error(`${data.task} runs have no BC II.5 TSV form`);
  return exportTsv(data.run);
}
