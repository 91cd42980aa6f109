// Plots that read at 20+ runs (issue 31): axes fitted to the runs (the full 0–1 range on
// request), names drawn for the leading runs only, the others on hover, focus or tap, no
// two leader lines crossing, and every point reachable by keyboard and named.
import { describe, expect, it } from 'vitest';
import { segmentsCross } from '../../src/web/plot-labels.ts';
import { fitDomain, LABELLED_RUNS, scatterPlot, tickStep } from '../../src/web/plots.ts';

/** 20 runs bunched between 0.1 and 0.3, as BC II.5's were on fixed 0–1 axes; a fixed pseudo-random spread. */
const runs = Array.from({ length: 20 }, (_, i) => ({
  label: `T${i + 1}_S1`,
  x: 0.1 + ((i * 37) % 20) / 100,
  y: 0.1 + ((i * 53) % 20) / 100,
  kind: i % 4 === 3 ? ('R' as const) : ('S' as const),
}));
const options = { title: 'F-score vs AUC iP/R', xLabel: 'AUC iP/R', yLabel: 'F-score' };
const circles = (svg: string) =>
  [...svg.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)" r="5">/g)].map((m) => ({ x: Number(m[1]), y: Number(m[2]) }));

describe('plots at 20 runs', () => {
  it('fits the axes to the runs, in whole ticks, inside 0–1 and at least 0.1 wide', () => {
    expect(fitDomain([0.1, 0.29])).toEqual([0.05, 0.3]);
    expect(fitDomain([0.5, 0.5])).toEqual([0.44, 0.56]);
    expect(fitDomain([0, 1])).toEqual([0, 1]);
    expect(fitDomain([0.98, 1])).toEqual([0.9, 1]);
    expect(tickStep([0.05, 0.3])).toBe(0.05);
    const svg = scatterPlot(runs, options).value;
    // The runs spread over most of the plot's width and height (pixels 56–464, 32–312), not a corner of it.
    const xs = circles(svg).map((c) => c.x);
    const ys = circles(svg).map((c) => c.y);
    expect(Math.max(...xs) - Math.min(...xs)).toBeGreaterThan(300);
    expect(Math.max(...ys) - Math.min(...ys)).toBeGreaterThan(200);
    expect(svg).toMatch(/axes fitted to the runs \(AUC iP\/R 0.05–0.3, F-score 0.05–0.3\)/);
    const full = scatterPlot(runs, { ...options, fullAxes: true }).value;
    const fullXs = circles(full).map((c) => c.x);
    expect(Math.max(...fullXs) - Math.min(...fullXs)).toBeLessThan(100);
  });

  it('names the leading runs, the others on hover or focus, and every point is focusable and named', () => {
    const svg = scatterPlot(runs, options).value;
    const drawn = [...svg.matchAll(/<text class="point-label" [^>]*>([^<]+)<\/text>/g)].map((m) => m[1]);
    const onDemand = [...svg.matchAll(/<text class="point-label on-demand" [^>]*>([^<]+)<\/text>/g)].map((m) => m[1]);
    expect(drawn).toHaveLength(LABELLED_RUNS);
    expect(onDemand).toEqual(runs.slice(LABELLED_RUNS).map((r) => r.label));
    const focusable = [...svg.matchAll(/<g class="point [^"]*" tabindex="0" role="img" aria-label="([^"]+)">/g)].map((m) => m[1]);
    expect(focusable).toHaveLength(20);
    expect(focusable[0]).toBe(`T1_S1: AUC iP/R ${runs[0].x.toFixed(3)}, F-score ${runs[0].y.toFixed(3)}`);
    expect(svg).toMatch(/^<svg [^>]*role="group"/);
  });

  it('never draws two leader lines that cross', () => {
    for (const labelled of [6, 20]) {
      const svg = scatterPlot(runs, { ...options, labelled }).value;
      const lines = [...svg.matchAll(/<line class="leader" x1="([\d.]+)" y1="([\d.]+)" x2="([\d.]+)" y2="([\d.]+)"\/>/g)].map(
        (m) =>
          [
            { x: +m[1], y: +m[2] },
            { x: +m[3], y: +m[4] },
          ] as const,
      );
      for (const [i, [a, b]] of lines.entries()) for (const [c, d] of lines.slice(i + 1)) expect(segmentsCross(a, b, c, d)).toBe(false);
    }
  });
});
