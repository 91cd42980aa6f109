// The trained ensemble of the BC II.5 paper (§5.5), for the task families of ranked lists
// that declare one (their `consensus.ensemble`: INT, IPT, …): every candidate item
// of a document (the union of each run's top k) gets three features per run —
// `guessed` (0/1), `1/rank` and `confidence` (0 when the run did not return it) — and a
// maximum-entropy classifier (logistic regression, logistic.ts) trained on answers with a
// gold standard predicts whether the item is in the gold; candidates are then ranked by
// that probability.
//
// Choices where the spec is silent (README.md in this folder):
// - Runs are named by the caller; the model keeps their order, and a run absent from a
//   document contributes all-zero features there.
// - Candidates come from each run's list ordered by rank (ties by item key), cut at that
//   run's selection cutoff (default 10); training uses the same cutoffs unless
//   `trainingCutoffs` are given (the paper found equal cutoffs best).
// - 1/rank uses the rank the run gave; a guessed item without a confidence has feature 0.
// - Training uses the gold documents only; λ = 1 by default.
// - The output confidence is the predicted probability (clamped into (0, 1]); ties in
//   probability are broken by item key, like every ranked list here.

import type { EnsembleCandidate, FamilyEnsemble } from '../families/family.ts';
import { familyOf, isTaskName, tasksWith, type AnswerResult, type TaskName } from '../families/registry.ts';
import { compareIds, type GoldItems } from '../scoring/index.ts';
import { predictLogistic, trainLogistic } from './logistic.ts';

/** A task whose family declares an ensemble (checked where a task arrives: ensembleOf). */
export type EnsembleTask = TaskName;

/** The tasks with a trained ensemble, registry order. */
export const ENSEMBLE_TASKS: readonly TaskName[] = tasksWith((f) => f.consensus?.ensemble);

/** The family's ensemble adapter; an Error for a task without one. */
export function ensembleOf(task: string): FamilyEnsemble<unknown, unknown> {
  const ensemble = isTaskName(task) ? familyOf(task).consensus?.ensemble : undefined;
  if (!ensemble) throw new Error(`ensemble model: unknown task ${JSON.stringify(task)}`);
  return ensemble;
}

/** One document with the answers of each run, by run name. */
export interface EnsembleDocument {
  id: string;
  runs: Readonly<Record<string, AnswerResult | undefined>>;
}

export interface EnsembleOptions {
  task: EnsembleTask;
  /** The runs to combine, in feature order; default: every run name seen, sorted. */
  runs?: string[];
  /** Selection cutoff per run (top k items taken from it); default `defaultCutoff`. */
  cutoffs?: Readonly<Record<string, number>>;
  /** Default 10. */
  defaultCutoff?: number;
  /** Training cutoff per run; default the selection cutoffs. */
  trainingCutoffs?: Readonly<Record<string, number>>;
  /** L2 strength; default 1. */
  lambda?: number;
}

export const ENSEMBLE_FORMAT = 'metaserver-ensemble';
export const ENSEMBLE_VERSION = 1;
export const FEATURES_PER_RUN = ['guessed', 'reciprocalRank', 'confidence'] as const;

export interface EnsembleModel {
  format: typeof ENSEMBLE_FORMAT;
  version: typeof ENSEMBLE_VERSION;
  task: EnsembleTask;
  runs: string[];
  /** Selection cutoff of each run, in `runs` order. */
  cutoffs: number[];
  features: readonly string[];
  /** Intercept, then for each run its FEATURES_PER_RUN weights. */
  weights: number[];
  lambda: number;
  training: { documents: number; candidates: number; positives: number; iterations: number; converged: boolean };
}

export interface EnsembleItem {
  /** The item's key as the family scores it (INT: the accession; IPT: the pair key, sorted accessions joined by TAB). */
  key: string;
  rank: number;
  probability: number;
}

type RankedItem = EnsembleCandidate;

function itemsOf(task: EnsembleTask, result: AnswerResult | undefined): RankedItem[] {
  const own = (result as Record<string, unknown> | undefined)?.[task];
  return own === undefined ? [] : ensembleOf(task).items(own);
}

function topK(items: RankedItem[], k: number): RankedItem[] {
  return [...items].sort((a, b) => a.rank - b.rank || compareIds(a.key, b.key)).slice(0, k);
}

/** The candidates of one document and their feature rows. */
function featuresOf(
  task: EnsembleTask,
  runs: readonly string[],
  cutoffs: readonly number[],
  doc: EnsembleDocument,
): { keys: string[]; rows: number[][] } {
  const perRun = runs.map((run, r) => new Map(topK(itemsOf(task, doc.runs[run]), cutoffs[r]).map((item) => [item.key, item])));
  const keys = [...new Set(perRun.flatMap((items) => [...items.keys()]))].sort(compareIds);
  const rows = keys.map((key) =>
    perRun.flatMap((items) => {
      const item = items.get(key);
      return item ? [1, 1 / item.rank, item.confidence ?? 0] : [0, 0, 0];
    }),
  );
  return { keys, rows };
}

function cutoffList(runs: readonly string[], cutoffs: Readonly<Record<string, number>> | undefined, fallback: number): number[] {
  return runs.map((run) => {
    const k = cutoffs?.[run] ?? fallback;
    if (!Number.isInteger(k) || k < 1) throw new RangeError(`cutoff of run ${run} must be an integer ≥ 1, got ${k}`);
    return k;
  });
}

export function trainEnsemble(documents: readonly EnsembleDocument[], gold: GoldItems, options: EnsembleOptions): EnsembleModel {
  ensembleOf(options.task);
  const runs = options.runs ?? [...new Set(documents.flatMap((d) => Object.keys(d.runs)))].sort(compareIds);
  if (runs.length === 0) throw new RangeError('an ensemble needs at least one run');
  const fallback = options.defaultCutoff ?? 10;
  const cutoffs = cutoffList(runs, options.cutoffs, fallback);
  const trainingCutoffs = options.trainingCutoffs ? cutoffList(runs, options.trainingCutoffs, fallback) : cutoffs;
  const xs: number[][] = [];
  const ys: number[] = [];
  let trainedDocs = 0;
  for (const doc of documents) {
    const goldKeys = gold.get(doc.id);
    if (!goldKeys) continue;
    trainedDocs++;
    const goldSet = new Set(goldKeys);
    const { keys, rows } = featuresOf(options.task, runs, trainingCutoffs, doc);
    keys.forEach((key, i) => {
      xs.push(rows[i]);
      ys.push(goldSet.has(key) ? 1 : 0);
    });
  }
  if (xs.length === 0) throw new RangeError('no training candidates: no run answered any gold document');
  const lambda = options.lambda ?? 1;
  const fit = trainLogistic(xs, ys, { lambda });
  return {
    format: ENSEMBLE_FORMAT,
    version: ENSEMBLE_VERSION,
    task: options.task,
    runs: [...runs],
    cutoffs,
    features: runs.flatMap((run) => FEATURES_PER_RUN.map((f) => `${run}:${f}`)),
    weights: fit.weights,
    lambda,
    training: {
      documents: trainedDocs,
      candidates: xs.length,
      positives: ys.filter((y) => y === 1).length,
      iterations: fit.iterations,
      converged: fit.converged,
    },
  };
}

/** The document's candidates ranked by predicted probability of being in the gold. */
export function applyEnsemble(model: EnsembleModel, doc: EnsembleDocument): EnsembleItem[] {
  const { keys, rows } = featuresOf(model.task, model.runs, model.cutoffs, doc);
  const scored = keys.map((key, i) => ({ key, probability: Math.max(predictLogistic(model.weights, rows[i]), Number.MIN_VALUE) }));
  scored.sort((a, b) => b.probability - a.probability || compareIds(a.key, b.key));
  return scored.map((s, i) => ({ key: s.key, rank: i + 1, probability: s.probability }));
}

/** The ensemble's answer for one document, as a result that can be stored, exported or scored. */
export function ensembleResult(model: EnsembleModel, doc: EnsembleDocument): AnswerResult {
  return { [model.task]: ensembleOf(model.task).asResult(applyEnsemble(model, doc)) };
}

export function serializeEnsemble(model: EnsembleModel): string {
  return JSON.stringify(model);
}

/** Reads a stored model, refusing other formats and versions instead of misusing their weights. */
export function parseEnsemble(json: string): EnsembleModel {
  const model = JSON.parse(json) as Partial<EnsembleModel>;
  if (model.format !== ENSEMBLE_FORMAT) throw new Error(`not an ensemble model (format ${JSON.stringify(model.format)})`);
  if (model.version !== ENSEMBLE_VERSION)
    throw new Error(`ensemble model version ${model.version} is not supported (expected ${ENSEMBLE_VERSION})`);
  const runs = model.runs;
  if (!Array.isArray(runs) || !Array.isArray(model.cutoffs) || model.cutoffs.length !== runs.length)
    throw new Error('ensemble model: runs and cutoffs must be parallel lists');
  if (
    !Array.isArray(model.weights) ||
    model.weights.length !== 1 + FEATURES_PER_RUN.length * runs.length ||
    model.weights.some((w) => typeof w !== 'number' || !Number.isFinite(w))
  ) {
    throw new Error(`ensemble model: expected ${1 + FEATURES_PER_RUN.length * runs.length} finite weights`);
  }
  ensembleOf(String(model.task));
  return model as EnsembleModel;
}
