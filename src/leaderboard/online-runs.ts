// Online runs: one server's stored, validated answers for one task, turned into the
// scoring library's run structures and keyed by the article's organiser id (the `doc`
// column of the gold standard). Answers of articles without an organiser id (on-demand
// articles) cannot be matched to any gold document and are left out.
import type { Queryable } from '../db/database.ts';
import { pairKey, type ActEntry, type CorefAnnotation, type Expression, type Mention, type RankedEntry, type RankedRun } from '../scoring/index.ts';
import { compareIds } from '../scoring/index.ts';
import type { ActResult, CorefResult, MentionItem, NormalizationItem, PairItem, TaskName } from '../tasks/types.ts';
import { UNTYPED, type RunData } from './inputs.ts';

/** One stored answer's part for the task, with the article's organiser id. */
export interface OnlineAnswer {
  doc: string;
  value: unknown;
}

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

/**
 * ACT answers carry no rank: the order is by confidence (ties by document id), which is
 * the BC II.5 online ranking (trues by confidence descending, then falses ascending).
 */
function actRun(answers: OnlineAnswer[]): RunData {
  const entries: ActEntry[] = answers.map((a, i) => {
    const act = a.value as ActResult;
    return { doc: a.doc, relevant: act.relevant, confidence: act.confidence, line: i + 1 };
  });
  return { task: 'ACT', entries, mode: 'confidence' };
}

/** INT/IPT answers always carry ranks (validation fills missing ones), so ranks decide. */
function rankedRun(task: 'INT' | 'IPT', answers: OnlineAnswer[]): RunData {
  const run: RankedRun = new Map();
  let line = 0;
  for (const a of answers) {
    const items = (a.value as (NormalizationItem | PairItem)[]) ?? [];
    const entries: RankedEntry[] = items.map((item) => ({
      key: task === 'INT' ? (item as NormalizationItem).accession : pairKey((item as PairItem).a, (item as PairItem).b),
      rank: item.rank,
      confidence: item.confidence,
      line: ++line,
    }));
    // A document answered with an empty list has no results, as a run file without lines for it.
    if (entries.length > 0) run.set(a.doc, entries);
  }
  return { task, run, mode: 'rank' };
}

function mentionRun(answers: OnlineAnswer[]): RunData {
  const mentions: Mention[] = [];
  for (const a of answers) {
    for (const m of (a.value as MentionItem[]) ?? []) mentions.push({ doc: a.doc, start: m.start, end: m.end, type: m.type ?? UNTYPED });
  }
  return { task: 'MENTION', mentions };
}

function corefRun(answers: OnlineAnswer[]): RunData {
  const docs = new Map<string, CorefAnnotation>();
  for (const a of answers) {
    const result = (a.value as CorefResult) ?? { expressions: [], links: [] };
    const expressions = new Map<string, Expression>();
    for (const e of result.expressions) {
      const expression: Expression = { id: e.id, start: e.start, end: e.end, text: e.text };
      if (e.min) expression.min = { start: e.min.start, end: e.min.end };
      expressions.set(e.id, expression);
    }
    // `line` only places errors; the link's position stands in for it.
    const links = result.links.map((l, i) => ({ id: l.id, anaphor: l.anaphor, antecedent: l.antecedent, antecedents: [l.antecedent], line: i + 1 }));
    docs.set(a.doc, { expressions, links });
  }
  return { task: 'COREF', docs };
}

export function onlineRun(task: TaskName, answers: OnlineAnswer[]): RunData {
  switch (task) {
    case 'ACT':
      return actRun(answers);
    case 'INT':
    case 'IPT':
      return rankedRun(task, answers);
    case 'MENTION':
      return mentionRun(answers);
    case 'COREF':
      return corefRun(answers);
  }
}
