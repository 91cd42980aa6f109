// The SVG plots: scales, escaping of labels, and what an empty chart looks like.
import { describe, expect, it } from 'vitest';
import { durationLabel, histogramChart, linearScale, scatterPlot, ticks } from '../../src/web/plots.ts';

describe('scales', () => {
  it('maps a domain linearly onto a range, inverted ranges included', () => {
    const x = linearScale([0, 1], [56, 464]);
    expect(x(0)).toBe(56);
    expect(x(0.5)).toBe(260);
    expect(x(1)).toBe(464);
    const y = linearScale([-1, 1], [312, 32]);
    expect(y(-1)).toBe(312);
    expect(y(0)).toBe(172);
    expect(y(1)).toBe(32);
  });

  it('puts a zero-width domain in the middle and gives even ticks', () => {
    expect(linearScale([3, 3], [0, 100])(3)).toBe(50);
    expect(ticks([0, 1])).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(ticks([2, 2])).toEqual([2]);
  });

  it('labels durations', () => {
    expect([durationLabel(20), durationLabel(1500), durationLabel(120_000)]).toEqual(['20 ms', '1.5 s', '2 min']);
  });
});

describe('scatter plot', () => {
  const options = { title: 'F-score vs AUC iP/R', xLabel: 'AUC iP/R', yLabel: 'F-score' };

  it('places each run by the scales, filled for online and hollow for offline runs', () => {
    const svg = scatterPlot(
      [
        { label: 'T1_S1', x: 0.5, y: 0.5, kind: 'S' },
        { label: 'T2_R1', x: 1, y: 0, kind: 'R' },
      ],
      { ...options, fullAxes: true },
    ).value;
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain('role="img"');
    // x: 56 + 0.5 * (480 - 16 - 56) = 260; y: 312 - 0.5 * (312 - 32) = 172.
    expect(svg).toContain(
      '<g class="point online" tabindex="0" role="img" aria-label="T1_S1: AUC iP/R 0.500, F-score 0.500"><circle cx="260" cy="172" r="5">',
    );
    expect(svg).toContain(
      '<g class="point offline" tabindex="0" role="img" aria-label="T2_R1: AUC iP/R 1.000, F-score 0.000"><circle cx="464" cy="312" r="5">',
    );
    expect(svg).toContain('<desc>T1_S1 (S): AUC iP/R 0.500, F-score 0.500; T2_R1 (R): AUC iP/R 1.000, F-score 0.000</desc>');
  });

  it('escapes run names and titles', () => {
    const svg = scatterPlot([{ label: '<T&1>', x: 0.1, y: 0.2, kind: 'S' }], { ...options, title: 'a "b" <c>' }).value;
    expect(svg).not.toContain('<T&1>');
    expect(svg).toContain('&lt;T&amp;1&gt;');
    expect(svg).toContain('aria-label="a &quot;b&quot; &lt;c&gt;"');
  });

  it('draws iso-F curves only when asked, and says so when there is nothing to plot', () => {
    const withCurves = scatterPlot([{ label: 'r', x: 0.5, y: 0.5, kind: 'S' }], { ...options, isoF: [0.2, 0.5], fullAxes: true }).value;
    expect(withCurves.match(/class="iso-f"/g)).toHaveLength(2);
    expect(withCurves).toContain('F=0.5');
    const empty = scatterPlot([{ label: 'nan', x: Number.NaN, y: 0.5, kind: 'S' }], options).value;
    expect(empty).toContain('no data to plot yet');
    expect(empty).not.toContain('<circle');
  });
});

describe('histogram', () => {
  it('draws one bar per bin scaled to the largest count', () => {
    const svg = histogramChart([
      { fromMs: 10, toMs: 20, count: 1 },
      { fromMs: 20, toMs: 50, count: 0 },
      { fromMs: 50, toMs: null, count: 2 },
    ]).value;
    expect(svg.match(/<rect /g)).toHaveLength(3);
    expect(svg).toContain('<title>10 ms–20 ms: 1</title>');
    expect(svg).toContain('<title>≥ 50 ms: 2</title>');
    // The tallest bar reaches the top of the plot area (y = 32), an empty one has height 0.
    expect(svg).toMatch(/y="32" width="[\d.]+" height="280"><title>≥ 50 ms: 2/);
    expect(svg).toMatch(/height="0"><title>20 ms–50 ms: 0/);
  });

  it('says so when nothing was answered yet', () => {
    expect(histogramChart([]).value).toContain('no data to plot yet');
    expect(histogramChart([{ fromMs: 0, toMs: 10, count: 0 }]).value).toContain('no data to plot yet');
  });
});
