// BC II.5 ACT (article classification) scoring, as bc-evaluate 2.3.1 does it.
//
// Two independent parts. The ranking part walks the run's documents in ACT order (trues,
// then falses reversed) and ignores the system's own labels; its FN starts at ALL gold
// positives, so a positive missing from the run makes full recall unreachable. The
// classification part is a confusion matrix over the gold documents present in the run
// only (a missing document is neither a FN nor a TN). Run documents not in the gold are
// ignored by both.

import { aucFromCurve, mcc, safeRatio } from './metrics.ts';
import { orderActEntries } from './ranking.ts';
import type { ActEntry, ActGold, OrderMode } from './types.ts';

export interface ActScore {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  accuracy: number;
  sensitivity: number;
  specificity: number;
  mcc: number;
  /** Best precision at recall 1 along the ranking, null when recall 1 is never reached. */
  pAtFullR: number | null;
  aucIPR: number;
}

export interface ActRankingScore {
  aucIPR: number;
  pAtFullR: number | null;
}

/**
 * The ranking part alone, from gold labels in ranked order plus the number of gold
 * positives (which may exceed the positives in the list).
 */
export function scoreActRanking(labelsInOrder: readonly boolean[], goldPositives: number): ActRankingScore {
  const ps: number[] = [];
  const rs: number[] = [];
  let tp = 0;
  let pAtFullR: number | null = null;
  for (let i = 0; i < labelsInOrder.length; i++) {
    if (labelsInOrder[i]) tp++;
    const p = tp / (i + 1);
    const r = safeRatio(tp, goldPositives);
    ps.push(p);
    rs.push(r);
    if (r === 1 && (pAtFullR === null || p > pAtFullR)) pAtFullR = p;
  }
  return { aucIPR: aucFromCurve(ps, rs), pAtFullR };
}

export function scoreActRun(gold: ActGold, entries: readonly ActEntry[], mode: OrderMode): ActScore {
  const present = entries.filter((entry) => gold.has(entry.doc));
  let goldPositives = 0;
  for (const relevant of gold.values()) if (relevant) goldPositives++;

  const ordered = orderActEntries(present, mode);
  const ranking = scoreActRanking(
    ordered.map((entry) => gold.get(entry.doc) === true),
    goldPositives,
  );

  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  for (const entry of present) {
    const truth = gold.get(entry.doc) === true;
    if (entry.relevant && truth) tp++;
    else if (entry.relevant) fp++;
    else if (truth) fn++;
    else tn++;
  }
  return {
    tp,
    fp,
    fn,
    tn,
    accuracy: safeRatio(tp + tn, tp + fp + fn + tn),
    sensitivity: safeRatio(tp, tp + fn),
    specificity: safeRatio(tn, tn + fp),
    mcc: mcc(tp, fp, fn, tn),
    pAtFullR: ranking.pAtFullR,
    aucIPR: ranking.aucIPR,
  };
}
