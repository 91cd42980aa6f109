// Plot labels: placed beside their points without overlapping each other, a point or an
// iso-F label, never outside the plot; a name that fits nowhere becomes a number in a key.
import { describe, expect, it } from 'vitest';
import { overlaps, placeLabels, segmentsCross, textBox, type Box } from '../../src/web/plot-labels.ts';
import { scatterPlot } from '../../src/web/plots.ts';

const AREA: Box = { x: 58, y: 24, w: 420, h: 288 };
const inside = (b: Box) => b.x >= AREA.x && b.y >= AREA.y && b.x + b.w <= AREA.x + AREA.w && b.y + b.h <= AREA.y + AREA.h;

describe('label placement', () => {
  it('keeps names of clustered points apart, inside the plot, and clear of every point', () => {
    // Eight runs within a few pixels of each other near the top right corner.
    const points = Array.from({ length: 8 }, (_, i) => ({ x: 440 + (i % 3) * 4, y: 40 + Math.floor(i / 3) * 5, label: `T${i + 1}_S1` }));
    const { labels, numbered } = placeLabels(points, [], AREA);
    // Names placed by name (a number that fits nowhere sits on its point's right regardless).
    const named = labels.filter((l, i) => !numbered.some((n) => n.index === i));
    const boxes = named.map((l) => textBox(l.x, l.y, l.text, l.anchor));
    for (const [i, a] of boxes.entries()) {
      expect(inside(a), JSON.stringify(a)).toBe(true);
      for (const b of boxes.slice(i + 1)) expect(overlaps(a, b)).toBe(false);
      for (const p of points) expect(overlaps(a, { x: p.x - 6, y: p.y - 6, w: 12, h: 12 })).toBe(false);
    }
    // Far from their points, names get a leader line, and no two leader lines cross.
    expect(labels.some((l) => l.leader)).toBe(true);
    const leaders = labels.flatMap((l, i) => (l.leader ? [[points[i], l.leader] as const] : []));
    for (const [i, [a, b]] of leaders.entries()) for (const [c, d] of leaders.slice(i + 1)) expect(segmentsCross(a, b, c, d)).toBe(false);
    expect(numbered.length).toBeLessThanOrEqual(2);
  });

  it('avoids the iso-F labels and numbers a name that fits nowhere', () => {
    const iso = textBox(476, 100, 'F=0.8', 'end');
    const { labels } = placeLabels([{ x: 470, y: 104, label: 'T1_S1' }], [iso], AREA);
    expect(overlaps(textBox(labels[0].x, labels[0].y, labels[0].text, labels[0].anchor), iso)).toBe(false);
    const tiny: Box = { x: 0, y: 0, w: 40, h: 40 };
    const crowded = placeLabels([{ x: 20, y: 20, label: 'a-very-long-run-name' }], [], tiny);
    expect(crowded.numbered).toEqual([{ index: 0, number: 1 }]);
    expect(crowded.labels[0].text).toBe('1');
  });

  it('draws the key of numbered points under the plot, escaped', () => {
    const points = Array.from({ length: 60 }, (_, i) => ({
      label: `<run ${i}>`,
      x: 0.5 + (i % 6) * 0.001,
      y: 0.5 + Math.floor(i / 6) * 0.001,
      kind: 'S' as const,
    }));
    const svg = scatterPlot(points, { title: 't', xLabel: 'x', yLabel: 'y', fullAxes: true, labelled: 60 }).value;
    expect(svg).toMatch(/<text class="key" x="56" y="\d+">\d+: &lt;run \d+&gt;<\/text>/);
    expect(svg).not.toContain('<run');
    const height = Number(/viewBox="0 0 480 (\d+)"/.exec(svg)![1]);
    expect(height).toBeGreaterThan(360);
  });
});
