// `?significance=1` on a leaderboard: each ranked row's 95% bootstrap intervals of the
// family's main P/R/F, and approximate randomization between the runs
// (src/scoring/significance.ts, significance-board.ts). The counts come from the family's
// `documentCounts`, one per gold document (the gold's documents are what is resampled);
// the figures are seeded from the challenge, the task, the gold's load time, the options
// and each run's name and counts, so the same call on the same data answers the same.
import { boardSignificance, runCountsOf, type BoardSignificance } from '../scoring/index.ts';
import { hashSeed } from '../shared/prng.ts';
import { familyOf, tasksWith, type TaskName } from '../families/registry.ts';
import { badRequest } from '../http/api-error.ts';
import { goldDocuments, type Gold } from './inputs.ts';
import type { Leaderboard, LeaderboardOptions, LeaderboardRow, RunToScore } from './leaderboard.ts';

export const DEFAULT_TRIALS = 1_000;
export const MIN_TRIALS = 100;
export const MAX_TRIALS = 10_000;
/**
 * Gold documents above which significance is refused: every run's per-document counts are
 * held at once (a streamed leaderboard holds one page), and the trials' time grows with
 * documents × runs.
 */
export const SIGNIFICANCE_MAX_DOCUMENTS = 100_000;

/** What `significance` adds to the answer besides the rows' `ci95`. */
export type SignificanceSummary = Omit<BoardSignificance, 'intervals'>;

/** The families that can answer `significance=1` (they give per-document counts). */
export const significanceTasks = (): TaskName[] => tasksWith((f) => f.scoring.documentCounts);

/** The trials asked for, checked; a family without per-document counts is refused, naming those with. */
export function significanceTrials(task: TaskName, trials: number | undefined): number {
  if (!familyOf(task).scoring.documentCounts)
    throw badRequest(
      `significance=1 needs each document's counts of the main figures, which ${task} does not give (its figures are not sums over documents); it is available for ${significanceTasks().join(', ')}. Ask without significance`,
    );
  const asked = trials ?? DEFAULT_TRIALS;
  if (!Number.isInteger(asked) || asked < MIN_TRIALS || asked > MAX_TRIALS)
    throw badRequest(`trials must be a whole number from ${MIN_TRIALS} to ${MAX_TRIALS} (default ${DEFAULT_TRIALS}), not ${trials}`);
  return asked;
}

/** Refuses a gold standard too large to resample (before it is read). */
export function checkSignificanceSize(task: TaskName, documents: number): void {
  if (documents > SIGNIFICANCE_MAX_DOCUMENTS)
    throw badRequest(
      `significance=1 is computed for gold standards of at most ${SIGNIFICANCE_MAX_DOCUMENTS} documents; this ${task} gold has ${documents}. Ask without significance`,
    );
}

export interface SignificanceInput {
  gold: Gold;
  runs: readonly RunToScore[];
  settings: LeaderboardOptions;
  trials: number;
  /** The challenge, task, gold load time and options, as text: the seed's part that is not the runs. */
  seed: string;
}

/** The rows compared: scored and answered (a server that never answered is unranked, an error has no figures). */
const ranked = (row: LeaderboardRow) => row.error === undefined && row.answered !== 0;

/**
 * The compared rows in order: the ranked runs by rank, then the baselines. Baselines are
 * compared like any run (a team wants to know whether it beats one), but the first row is
 * topGroup's "top", which must be the best team run, not a baseline. A baseline not
 * significantly different from that run is in topGroup: that is worth seeing.
 */
const comparedRows = (rows: LeaderboardRow[]) => [
  ...rows.filter((row) => ranked(row) && !row.baseline),
  ...rows.filter((row) => ranked(row) && row.baseline),
];
/** Rows and runs matched by kind, baseline or not, and name (a baseline's name is no team run's, but say so here too). */
const keyOf = (r: { kind: string; baseline?: boolean; run: string }) => `${r.kind}\u0000${r.baseline === true}\u0000${r.run}`;

/** The board with `ci95` on each ranked row and the pairs' p-values. */
export function withSignificance(board: Leaderboard, input: SignificanceInput): Leaderboard {
  const counting = familyOf(board.task).scoring.documentCounts!;
  const documents = [...goldDocuments(input.gold)];
  const data = new Map(input.runs.map((r) => [keyOf(r), r.data]));
  const rows = comparedRows(board.runs);
  const counts = rows.map((row) => {
    const run = data.get(keyOf(row))!;
    return { run: row.run, counts: runCountsOf(documents, counting.count(input.gold.gold, run.run, input.settings)) };
  });
  const seed = [input.seed, ...counts.map((c) => `${c.run}:${hashSeed(Array.from(c.counts).join(','))}`)].join('\u0000');
  const { intervals, ...significance } = boardSignificance(counts, documents.length, input.trials, seed);
  rows.forEach((row, i) => {
    row.ci95 = Object.fromEntries(Object.entries(intervals[i]).map(([figure, interval]) => [`${counting.figures}.${figure}`, interval]));
  });
  return { ...board, significance };
}

/**
 * `significance=1`: whether a row is in the top group (true or false on every row, so the
 * TSV's column is whole); null when significance was not asked. Names match: a baseline's
 * name is no team run's.
 */
export function topGroupOf(board: Pick<Leaderboard, 'significance'>): ((row: Pick<LeaderboardRow, 'run'>) => boolean) | null {
  if (!board.significance) return null;
  const group = new Set(board.significance.topGroup);
  return (row) => group.has(row.run);
}
