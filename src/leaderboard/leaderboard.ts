// The leaderboard proper, pure: a gold standard plus runs → one scored row per run, best
// first. All figures come from the scoring library, named as in `metaserver score`'s
// JSON, so a row here and the CLI's report on the same files agree field by field.
import {
  ScoringInputError, compareIds, flattenMetrics, formatTsv, scoreActRun, scoreCoref, scoreMentions, scoreRankedRun,
  type CorefDocumentInput, type DroppedLink, type HomonymOrthologMap, type OrganismMap,
} from '../scoring/index.ts';
import type { TaskName } from '../tasks/types.ts';
import type { Gold, RunData } from './inputs.ts';

export interface LeaderboardOptions {
  cutoff?: number;
  all?: boolean;
  beta?: number;
  orthologMap?: HomonymOrthologMap;
  organismMap?: OrganismMap;
  singleClass?: boolean;
}

export interface RunToScore {
  run: string;
  team: string;
  server?: number;
  /** S: a server's online run; R: an offline run; C: a consensus (`?consensus=1`). */
  kind: 'S' | 'R' | 'C';
  data: RunData;
}

export interface LeaderboardRow {
  run: string;
  team: string;
  server?: number;
  /** S: a server's online run; R: an offline run; C: a consensus (`?consensus=1`). */
  kind: 'S' | 'R' | 'C';
  metrics: Record<string, unknown>;
  /** COREF: the links not scored and why (beside the metrics, as in `metaserver score`'s JSON). */
  droppedLinks?: DroppedLink[];
  /** Set instead of metrics when this run could not be scored (the others still are). */
  error?: string;
}

export interface Leaderboard {
  task: TaskName;
  options: Record<string, unknown>;
  runs: LeaderboardRow[];
}

function mismatch(gold: Gold, data: RunData): never {
  throw new Error(`a ${data.task} run cannot be scored against ${gold.task} gold`);
}

/** The metrics of one run (and, for COREF, the links not scored), exactly as the CLI reports them. */
export function scoreRun(gold: Gold, data: RunData, o: LeaderboardOptions): Pick<LeaderboardRow, 'metrics' | 'droppedLinks'> {
  if (gold.task === 'ACT') {
    if (data.task !== 'ACT') mismatch(gold, data);
    return { metrics: { ...scoreActRun(gold.gold, data.entries, data.mode) } };
  }
  if (gold.task === 'INT' || gold.task === 'IPT') {
    if (data.task !== gold.task) mismatch(gold, data);
    const { documents: _perDocument, ...metrics } = scoreRankedRun(gold.gold, data.run, {
      task: gold.task, mode: data.mode, all: o.all === true, cutoff: o.cutoff, beta: o.beta,
      orthologMap: o.orthologMap, organismMap: o.organismMap, organismMapFile: 'organism map',
    });
    return { metrics };
  }
  if (gold.task === 'MENTION') {
    if (data.task !== 'MENTION') mismatch(gold, data);
    // Documents outside the gold are ignored, as for every other task.
    const response = data.mentions.filter((m) => gold.docs.has(m.doc));
    return { metrics: { ...scoreMentions(gold.mentions, response, { singleClass: o.singleClass === true }) } };
  }
  if (gold.task !== 'COREF' || data.task !== 'COREF') mismatch(gold, data);
  const inputs: CorefDocumentInput[] = [...gold.docs.keys()].sort(compareIds).map((doc) => {
    const g = gold.docs.get(doc)!;
    // A document the run left out is an empty response: its gold links are all missed.
    const response = data.docs.get(doc) ?? { expressions: new Map(), links: [] };
    return { doc, proteins: g.proteins, gold: g.gold, response, goldFile: `gold ${doc}`, responseFile: `run ${doc}` };
  });
  const { droppedLinks, ...metrics } = scoreCoref(inputs);
  return { metrics, droppedLinks };
}

/** The figure a leaderboard is sorted by: the BC II.5 tables' main column per task. */
export const MAIN_FIGURE: Record<TaskName, string> = {
  ACT: 'mcc',
  INT: 'macro.f',
  IPT: 'macro.f',
  MENTION: 'strict.f',
  COREF: 'protein.f',
};

export function mainFigure(task: TaskName, metrics: Record<string, unknown>): number {
  const value = flattenMetrics(metrics).get(MAIN_FIGURE[task]);
  return typeof value === 'number' ? value : -Infinity;
}

/** Scores every run; best main figure first, ties by run name; unscorable runs last. */
export function buildLeaderboard(task: TaskName, gold: Gold, runs: RunToScore[], o: LeaderboardOptions, options: Record<string, unknown>): Leaderboard {
  const rows: LeaderboardRow[] = runs.map((r) => {
    const base = { run: r.run, team: r.team, ...(r.server !== undefined ? { server: r.server } : {}), kind: r.kind };
    try {
      return { ...base, ...scoreRun(gold, r.data, o) };
    } catch (error) {
      // One bad run (say, a link to an undefined expression) must not hide all the others.
      if (error instanceof ScoringInputError) return { ...base, metrics: {}, error: error.message };
      throw error;
    }
  });
  const figure = new Map(rows.map((row) => [row, row.error ? -Infinity : mainFigure(task, row.metrics)]));
  rows.sort((a, b) => figure.get(b)! - figure.get(a)! || compareIds(a.run, b.run));
  return { task, options, runs: rows };
}

/** Free text in a TSV cell must not break the table. */
const oneCell = (text: string) => text.replace(/[\t\r\n]+/g, ' ');

/** The table form: run, kind, team, server, then every metric as a `micro.p`-style column. */
export function leaderboardTsv(board: Leaderboard): string {
  return formatTsv({
    task: board.task,
    options: board.options,
    runs: board.runs.map((r) => ({
      run: r.run,
      metrics: { kind: r.kind, team: oneCell(r.team), server: r.server ?? null, ...(r.error ? { error: oneCell(r.error) } : {}), ...r.metrics },
    })),
  });
}
