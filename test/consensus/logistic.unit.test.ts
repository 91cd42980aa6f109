import { describe, expect, it } from 'vitest';
import { predictLogistic, sigmoid, trainLogistic } from '../../src/consensus/logistic.ts';

describe('trainLogistic', () => {
  it('fits the intercept alone to the log-odds of the labels', () => {
    // No features: the unpenalised intercept solves σ(w0) = mean(y) = 3/4 → w0 = ln 3.
    const fit = trainLogistic([[], [], [], []], [1, 1, 1, 0]);
    expect(fit.converged).toBe(true);
    expect(fit.weights[0]).toBeCloseTo(Math.log(3), 10);
  });

  it('reaches the optimum of the regularised objective (zero gradient)', () => {
    const xs = [
      [0, 1],
      [1, 0.5],
      [2, 0.2],
      [3, 0.9],
      [4, 0.1],
      [5, 0.7],
      [1.5, 0.3],
      [3.5, 0.4],
    ];
    const ys = [0, 0, 1, 0, 1, 1, 0, 1];
    const lambda = 0.5;
    const { weights, converged } = trainLogistic(xs, ys, { lambda });
    expect(converged).toBe(true);
    const gradient = weights.map(
      (w, j) =>
        xs.reduce((sum, x, i) => sum + (predictLogistic(weights, x) - ys[i]) * (j === 0 ? 1 : x[j - 1]), 0) + (j === 0 ? 0 : lambda * w),
    );
    for (const g of gradient) expect(Math.abs(g)).toBeLessThan(1e-9);
    expect(weights[1]).toBeGreaterThan(0);
  });

  it('stays finite on separable data thanks to the penalty, and is deterministic', () => {
    const xs = [[0], [1], [2], [3]];
    const ys = [0, 0, 1, 1];
    const a = trainLogistic(xs, ys);
    expect(a.weights.every(Number.isFinite)).toBe(true);
    expect(trainLogistic(xs, ys)).toEqual(a);
    expect(sigmoid(-800)).toBe(0);
    expect(sigmoid(800)).toBe(1);
  });
});
