// Online runs: one server's stored, validated answers for one task, turned into the task
// family's run structure and keyed by the article's organiser id (the `doc` column of the
// gold standard). Answers of articles without an organiser id (on-demand articles) cannot
// be matched to any gold document and are left out.
import type { Queryable } from '../db/database.ts';
import type { OnlineAnswer } from '../families/family.ts';
import { familyOf, type TaskName } from '../families/registry.ts';
import { compareIds } from '../scoring/index.ts';
import type { RunData } from './inputs.ts';

export type { OnlineAnswer } from '../families/family.ts';

/** The server's answers for the task, in organiser-id order (so "line order" is stable). */
export async function loadOnlineAnswers(db: Queryable, serverId: number, task: TaskName): Promise<OnlineAnswer[]> {
  const rows = await db.query<{ doc: string; value: unknown }>(
    `select a.organiser_id as doc, an.result -> $2 as value
     from answers an join articles a on a.id = an.article_id
     where an.server_id = $1 and a.organiser_id is not null and (an.result -> $2) is not null`,
    [serverId, task],
  );
  return rows.sort((x, y) => compareIds(x.doc, y.doc));
}

export function onlineRun(task: TaskName, answers: readonly OnlineAnswer[]): RunData {
  return { task, run: familyOf(task).scoring.onlineRun(answers) };
}

/** An online run as a tab-separated result file the official scorer reads. */
export function exportRunTsv(data: RunData): string {
  const exportTsv = familyOf(data.task).scoring.exportTsv;
  if (!exportTsv) throw new Error(`${data.task} runs have no BC II.5 TSV form`);
  return exportTsv(data.run);
}
