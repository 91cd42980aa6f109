// The leaderboard proper, pure: a gold standard plus runs → one scored row per run, best
// first. All figures come from the scoring library, named as in `metaserver score`'s
// JSON, so a row here and the CLI's report on the same files agree field by field.
import {
  ScoringInputError,
  compareIds,
  flattenMetrics,
  formatTsv,
  type BoardSignificance,
  type DroppedLink,
  type Interval,
} from '../scoring/index.ts';
import type { ScoreSettings } from '../families/family.ts';
import { familyOf, type TaskName } from '../families/registry.ts';
import type { Gold, RunData } from './inputs.ts';
import { topGroupOf } from './board-significance.ts';

/** The scoring options of a request, maps parsed (organism-map errors name the "organism map"). */
export type LeaderboardOptions = Omit<ScoreSettings, 'organismMapFile'>;

export interface RunToScore {
  run: string;
  team: string;
  server?: number;
  /** S rows: the server's name (unique within its team only: pages show it with the team). */
  serverName?: string;
  /** S rows: how many articles with an organiser id the server answered for the task. */
  answered?: number;
  /** S: a server's online run; R: an offline run; C: a consensus (`?consensus=1`). */
  kind: 'S' | 'R' | 'C';
  /** R rows: the organiser's baseline (shown, not ranked; team ''). */
  baseline?: boolean;
  data: RunData;
}

export interface LeaderboardRow {
  run: string;
  team: string;
  server?: number;
  serverName?: string;
  /** S rows: articles answered for the task; 0: the server never answered (ranked after every run that did). */
  answered?: number;
  /** S: a server's online run; R: an offline run; C: a consensus (`?consensus=1`). */
  kind: 'S' | 'R' | 'C';
  /** true for the organiser's baselines (R rows of no team), false on every other row (always set on a built board). */
  baseline?: boolean;
  /**
   * 1 for the best ranked run, and so on; null for a row not ranked: a baseline, a server
   * that never answered, a run that could not be scored. Baselines sit among the rows by
   * their figures (to compare at a glance) but take no rank, so teams' ranks are as without them.
   * Set by rankLeaderboard.
   */
  rank?: number | null;
  metrics: Record<string, unknown>;
  /** Links not scored and why, where the family reports them (COREF; beside the metrics, as in `metaserver score`'s JSON). */
  droppedLinks?: DroppedLink[];
  /** Set instead of metrics when this run could not be scored (the others still are). */
  error?: string;
  /** `significance=1`: 95% bootstrap intervals of the main figures, by metric name (`strict.f`). */
  ci95?: Record<string, Interval>;
  /**
   * Once the challenge's post-challenge phase has opened, on every live row: the run has
   * something that arrived after the official close (a team's run uploaded then, a server
   * registered then or with an answer stored then). Absent before, and on official boards.
   */
  postChallenge?: boolean;
}

export interface Leaderboard {
  task: TaskName;
  options: Record<string, unknown>;
  runs: LeaderboardRow[];
  /** `significance=1`: approximate randomization between the runs (board-significance.ts). */
  significance?: Omit<BoardSignificance, 'intervals'>;
}

/** The metrics of one run (and, where the family reports them, the links not scored), exactly as the CLI reports them. */
function scoreRun(gold: Gold, data: RunData, o: LeaderboardOptions): Pick<LeaderboardRow, 'metrics' | 'droppedLinks'> {
  if (data.task !== gold.task) throw new Error(`a ${data.task} run cannot be scored against ${gold.task} gold`);
  return familyOf(gold.task).scoring.score(gold.gold, data.run, { ...o, organismMapFile: 'organism map' });
}

/** The figure a leaderboard is sorted by: the BC II.5 tables' main column of the task's family. */
function mainFigure(task: TaskName, metrics: Record<string, unknown>): number {
  const value = flattenMetrics(metrics).get(familyOf(task).scoring.mainFigure);
  return typeof value === 'number' ? value : -Infinity;
}

/** A row's fields besides its figures. */
export function rowBase(r: Omit<RunToScore, 'data'>): Omit<LeaderboardRow, 'metrics'> {
  return {
    run: r.run,
    team: r.team,
    ...(r.server !== undefined ? { server: r.server } : {}),
    ...(r.serverName !== undefined ? { serverName: r.serverName } : {}),
    ...(r.answered !== undefined ? { answered: r.answered } : {}),
    kind: r.kind,
    baseline: r.baseline === true,
  };
}

/** Scores every run; best main figure first, ties by run name; servers that never answered, then unscorable runs, last. */
export function buildLeaderboard(
  task: TaskName,
  gold: Gold,
  runs: RunToScore[],
  o: LeaderboardOptions,
  options: Record<string, unknown>,
): Leaderboard {
  const rows = runs.map((r) => {
    const base = rowBase(r);
    try {
      return { ...base, ...scoreRun(gold, r.data, o) };
    } catch (error) {
      // One bad run (say, a link to an undefined expression) must not hide all the others.
      if (error instanceof ScoringInputError) return { ...base, metrics: {}, error: error.message };
      throw error;
    }
  });
  return rankLeaderboard(task, rows, options);
}

/** Scored rows in leaderboard order: best main figure first, ties by run name; servers that never answered, then unscorable runs, last. */
export function rankLeaderboard(task: TaskName, unranked: LeaderboardRow[], options: Record<string, unknown>): Leaderboard {
  const rows: LeaderboardRow[] = unranked.map((row) => ({ ...row, baseline: row.baseline === true, rank: null }));
  const figure = new Map(rows.map((row) => [row, row.error ? -Infinity : mainFigure(task, row.metrics)]));
  // Runs that answered first (best first), then servers that never answered (their zeros
  // are not a result), then runs that could not be scored.
  const group = (row: LeaderboardRow) => (row.error ? 2 : row.answered === 0 ? 1 : 0);
  rows.sort((a, b) => group(a) - group(b) || figure.get(b)! - figure.get(a)! || compareIds(a.run, b.run));
  let rank = 0;
  for (const row of rows) if (group(row) === 0 && !row.baseline) row.rank = ++rank;
  return { task, options, runs: rows };
}

/** Free text in a TSV cell must not break the table. */
const oneCell = (text: string) => text.replace(/[\t\r\n]+/g, ' ');

/**
 * The table form: run, kind, team, server, then every metric as a `micro.p`-style column
 * (and, when significance was asked, the intervals and `topGroup`), then baseline and rank.
 */
export function leaderboardTsv(board: Leaderboard): string {
  const inTopGroup = topGroupOf(board);
  return formatTsv({
    task: board.task,
    options: board.options,
    runs: board.runs.map((r) => ({
      run: r.run,
      metrics: {
        kind: r.kind,
        team: oneCell(r.team),
        server: r.server ?? null,
        ...(r.error ? { error: oneCell(r.error) } : {}),
        ...r.metrics,
        // significance=1: the intervals as `ci95.strict.f.low` / `.high` columns.
        ...(r.ci95 ? { ci95: r.ci95 } : {}),
        ...(inTopGroup ? { topGroup: inTopGroup(r) } : {}),
        // Last, so the columns tables were read by before baselines keep their places.
        baseline: r.baseline === true,
        rank: r.rank ?? null,
        ...(r.postChallenge !== undefined ? { postChallenge: r.postChallenge } : {}),
      },
    })),
  });
}
