// The numeric core shared by every task: precision/recall/F, F-beta, the area under the
// interpolated precision/recall curve exactly as bc-evaluate 2.3.1 computes it, precision
// at full recall, MCC, mean and population standard deviation.
//
// Division by zero yields 0 everywhere (as the official script does), except where a
// value is genuinely absent (precision at full recall when full recall is never reached).

export interface PrPoint {
  p: number;
  r: number;
}

export interface Prf {
  p: number;
  r: number;
  f: number;
}

export function safeRatio(numerator: number, denominator: number): number {
  return denominator === 0 ? 0 : numerator / denominator;
}

export function f1(p: number, r: number): number {
  return p + r === 0 ? 0 : (2 * p * r) / (p + r);
}

/** F_β = (1+β²)·P·R / (β²·P + R): β > 1 weighs recall more (the paper's β = 10). */
export function fBeta(p: number, r: number, beta: number): number {
  const b2 = beta * beta;
  const denominator = b2 * p + r;
  return denominator === 0 ? 0 : ((1 + b2) * p * r) / denominator;
}

/** P, R and F1 from counts; fn counts gold items not found. */
export function prfFromCounts(tp: number, fp: number, fn: number): Prf {
  const p = safeRatio(tp, tp + fp);
  const r = safeRatio(tp, tp + fn);
  return { p, r, f: f1(p, r) };
}

/** Counts with their P, R and F1 (BC5CDR's tools, the relation and mention scorers print both). */
export interface PrfCounts extends Prf {
  tp: number;
  fp: number;
  fn: number;
}

export function prfCounts(tp: number, fp: number, fn: number): PrfCounts {
  return { tp, fp, fn, ...prfFromCounts(tp, fp, fn) };
}

/**
 * AUC iP/R from the (P, R) points recorded along a ranked list.
 *
 * The curve is interpolated the way bc-evaluate 2.3.1 does it: visit the distinct recall
 * values from the highest down and keep one only when its best precision is strictly
 * greater than the best kept so far (starting from 0); then sum P·(r − r_prev) over the
 * kept points in ascending recall, r_prev starting at 0. No point is added at recall 0 and
 * nothing is extrapolated to recall 1. Summing in ascending recall reproduces the script's
 * last bits.
 */
export function aucIPR(points: readonly PrPoint[]): number {
  const ps = new Array<number>(points.length);
  const rs = new Array<number>(points.length);
  for (let i = 0; i < points.length; i++) {
    ps[i] = points[i].p;
    rs[i] = points[i].r;
  }
  return aucFromCurve(ps, rs);
}

/** As {@link aucIPR}, on parallel arrays (the hot path avoids allocating point objects). */
export function aucFromCurve(ps: readonly number[], rs: readonly number[]): number {
  let order: number[] | undefined;
  for (let i = 1; i < rs.length; i++) {
    if (rs[i] < rs[i - 1]) {
      // Walks along a ranked list never lower recall; other callers may pass any order.
      order = rs.map((_, j) => j).sort((a, b) => rs[a] - rs[b] || a - b);
      break;
    }
  }
  const distinctR: number[] = [];
  const bestP: number[] = [];
  for (let k = 0; k < rs.length; k++) {
    const i = order ? order[k] : k;
    const last = distinctR.length - 1;
    if (last >= 0 && distinctR[last] === rs[i]) {
      if (ps[i] > bestP[last]) bestP[last] = ps[i];
    } else {
      distinctR.push(rs[i]);
      bestP.push(ps[i]);
    }
  }
  const keptR: number[] = [];
  const keptP: number[] = [];
  let bestKept = 0;
  for (let i = distinctR.length - 1; i >= 0; i--) {
    if (bestP[i] > bestKept) {
      bestKept = bestP[i];
      keptR.push(distinctR[i]);
      keptP.push(bestP[i]);
    }
  }
  let area = 0;
  let previousR = 0;
  for (let j = keptR.length - 1; j >= 0; j--) {
    area += keptP[j] * (keptR[j] - previousR);
    previousR = keptR[j];
  }
  return area;
}

/** The best precision recorded at recall 1, or null when recall 1 is never reached. */
export function precisionAtFullRecall(points: readonly PrPoint[]): number | null {
  let best: number | null = null;
  for (const point of points) {
    if (point.r === 1 && (best === null || point.p > best)) best = point.p;
  }
  return best;
}

/** Matthews correlation coefficient; 0 when any marginal is empty. */
export function mcc(tp: number, fp: number, fn: number, tn: number): number {
  const denominator = Math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn));
  return denominator === 0 ? 0 : (tp * tn - fp * fn) / denominator;
}

/** Arithmetic mean, summed in the order given (callers fix the order); 0 for no values. */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

/** Population standard deviation (divides by n, not n − 1); 0 for no values. */
export function populationSd(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const m = mean(values);
  let squares = 0;
  for (const value of values) squares += (value - m) * (value - m);
  return Math.sqrt(squares / values.length);
}
