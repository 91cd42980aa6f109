// L2-regularised logistic regression (a binary maximum-entropy classifier), trained by
// Newton's method (IRLS) with step halving. Small and deterministic: the ensemble has a
// handful of features per run, so the d×d Newton system is solved directly (Cholesky),
// and the same data always gives the same weights — no randomness, no external service.
//
// Objective (minimised): Σ_i −[y_i log p_i + (1 − y_i) log(1 − p_i)] + λ/2 · Σ_{j≥1} w_j²,
// with p_i = σ(w · x_i); weight 0 is the intercept and is not penalised.

export interface LogisticOptions {
  /** L2 strength λ; default 1. */
  lambda?: number;
  /** Newton iterations at most; default 100. */
  maxIterations?: number;
  /** Stop when no weight moves more than this; default 1e-10. */
  tolerance?: number;
}

export interface LogisticFit {
  /** Intercept first, then one weight per feature. */
  weights: number[];
  iterations: number;
  converged: boolean;
}

export function sigmoid(z: number): number {
  // Two branches keep exp() from overflowing for large |z|.
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}

/** log(1 + e^z) without overflow. */
function softplus(z: number): number {
  return z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z));
}

function dot(w: readonly number[], x: readonly number[]): number {
  let s = w[0];
  for (let j = 0; j < x.length; j++) s += w[j + 1] * x[j];
  return s;
}

function objective(w: readonly number[], xs: readonly number[][], ys: readonly number[], lambda: number): number {
  let loss = 0;
  for (let i = 0; i < xs.length; i++) {
    const z = dot(w, xs[i]);
    // −log σ(z) = softplus(−z); −log(1 − σ(z)) = softplus(z).
    loss += ys[i] === 1 ? softplus(-z) : softplus(z);
  }
  for (let j = 1; j < w.length; j++) loss += (lambda / 2) * w[j] * w[j];
  return loss;
}

/** Solves A·x = b for a symmetric positive definite A (Cholesky). */
function solveSpd(a: number[][], b: number[]): number[] {
  const n = b.length;
  const l = a.map(() => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i][j];
      for (let k = 0; k < j; k++) s -= l[i][k] * l[j][k];
      if (i === j) {
        if (!(s > 0)) throw new Error('logistic regression: the Newton system is not positive definite');
        l[i][i] = Math.sqrt(s);
      } else l[i][j] = s / l[j][j];
    }
  }
  const y = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= l[i][k] * y[k];
    y[i] = s / l[i][i];
  }
  const x = new Array<number>(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = y[i];
    for (let k = i + 1; k < n; k++) s -= l[k][i] * x[k];
    x[i] = s / l[i][i];
  }
  return x;
}

/** Fits weights to feature rows `xs` (all the same length) and labels `ys` (0 or 1). */
export function trainLogistic(xs: readonly number[][], ys: readonly number[], options: LogisticOptions = {}): LogisticFit {
  const lambda = options.lambda ?? 1;
  const maxIterations = options.maxIterations ?? 100;
  const tolerance = options.tolerance ?? 1e-10;
  if (!(lambda > 0)) throw new RangeError('lambda must be > 0 (it keeps separable data from diverging)');
  if (xs.length !== ys.length) throw new RangeError('one label per feature row');
  const d = (xs[0]?.length ?? 0) + 1;
  let w = new Array<number>(d).fill(0);
  let current = objective(w, xs, ys, lambda);
  for (let iteration = 1; iteration <= maxIterations; iteration++) {
    const gradient = new Array<number>(d).fill(0);
    const hessian = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    for (let i = 0; i < xs.length; i++) {
      const row = [1, ...xs[i]];
      const p = sigmoid(dot(w, xs[i]));
      const r = p - ys[i];
      const s = p * (1 - p);
      for (let j = 0; j < d; j++) {
        gradient[j] += r * row[j];
        for (let k = 0; k <= j; k++) hessian[j][k] += s * row[j] * row[k];
      }
    }
    for (let j = 0; j < d; j++) {
      for (let k = 0; k < j; k++) hessian[k][j] = hessian[j][k];
      // The intercept gets a tiny ridge only, so an all-saturated fit stays solvable.
      hessian[j][j] += j === 0 ? 1e-12 : lambda;
      if (j > 0) gradient[j] += lambda * w[j];
    }
    const step = solveSpd(hessian, gradient);
    // Step halving: Newton can overshoot far from the optimum; the objective must not grow.
    let scale = 1;
    let next = w.map((v, j) => v - step[j]);
    let value = objective(next, xs, ys, lambda);
    while (value > current && scale > 1e-6) {
      scale /= 2;
      next = w.map((v, j) => v - scale * step[j]);
      value = objective(next, xs, ys, lambda);
    }
    const moved = Math.max(...next.map((v, j) => Math.abs(v - w[j])));
    w = next;
    current = value;
    if (moved < tolerance) return { weights: w, iterations: iteration, converged: true };
  }
  return { weights: w, iterations: maxIterations, converged: false };
}

/** σ(w · x) for a fitted model. */
export function predictLogistic(weights: readonly number[], x: readonly number[]): number {
  return sigmoid(dot(weights, x));
}
