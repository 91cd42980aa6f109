// Where each point's name goes in a scatter plot: beside its point, not over another name,
// another point or an iso-F label, and never cut by the plot's edge. Greedy, best-ranked
// point first (the caller's order): each tries positions around its point, then farther out
// with a leader line; a name that fits nowhere is replaced by a number, and the plot's key
// names it. Text widths are estimated (11 px labels), with a margin for wider fonts.

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Estimated width of a label's character at the plot's label size, generous on purpose. */
const CHAR_WIDTH = 6.6;
const LINE_HEIGHT = 12;
/** Height of one line of the key under the plot. */
export const KEY_LINE = 16;

/** The box a text covers, from its anchor point (baseline) as SVG draws it. */
export function textBox(x: number, baseline: number, text: string, anchor: 'start' | 'middle' | 'end'): Box {
  const w = Array.from(text).length * CHAR_WIDTH;
  const left = anchor === 'start' ? x : anchor === 'end' ? x - w : x - w / 2;
  return { x: left, y: baseline - LINE_HEIGHT + 2, w, h: LINE_HEIGHT };
}

export const overlaps = (a: Box, b: Box): boolean => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** Whether segments ab and cd cross (touching ends do not count). */
export function segmentsCross(
  a: { x: number; y: number },
  b: { x: number; y: number },
  c: { x: number; y: number },
  d: { x: number; y: number },
): boolean {
  const side = (p: { x: number; y: number }, q: { x: number; y: number }, r: { x: number; y: number }) =>
    Math.sign((q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x));
  return side(a, b, c) * side(a, b, d) < 0 && side(c, d, a) * side(c, d, b) < 0;
}

const inside = (b: Box, area: Box): boolean =>
  b.x >= area.x && b.y >= area.y && b.x + b.w <= area.x + area.w && b.y + b.h <= area.y + area.h;

export interface PlacedLabel {
  x: number;
  y: number;
  anchor: 'start' | 'middle' | 'end';
  text: string;
  /** Where a leader line from the point ends, when the name sits away from it. */
  leader?: { x: number; y: number };
}

// Directions around a point: [dx, dy of the anchor per unit distance, anchor, baseline shift].
const DIRECTIONS: Array<[number, number, 'start' | 'middle' | 'end', number]> = [
  [1, 0, 'start', 4],
  [-1, 0, 'end', 4],
  [0, -1, 'middle', 0],
  [0, 1, 'middle', 9],
  [1, -1, 'start', 0],
  [1, 1, 'start', 9],
  [-1, -1, 'end', 0],
  [-1, 1, 'end', 9],
];
const DISTANCES = [8, 18, 30, 44];

export function placeLabels(
  points: ReadonlyArray<{ x: number; y: number; label: string }>,
  obstacles: readonly Box[],
  area: Box,
): { labels: PlacedLabel[]; numbered: Array<{ index: number; number: number }> } {
  const taken: Box[] = [...obstacles, ...points.map((p) => ({ x: p.x - 6, y: p.y - 6, w: 12, h: 12 }))];
  const numbered: Array<{ index: number; number: number }> = [];
  // Leader lines drawn so far: a new one may not cross any of them.
  const leaders: Array<[{ x: number; y: number }, { x: number; y: number }]> = [];
  const labels = points.map((p, index): PlacedLabel => {
    const free = (b: Box) => inside(b, area) && taken.every((t) => !overlaps(b, t));
    const tryText = (text: string): PlacedLabel | undefined => {
      for (const distance of DISTANCES) {
        for (const [dx, dy, anchor, shift] of DIRECTIONS) {
          const ax = p.x + dx * distance;
          const ay = p.y + dy * distance + shift;
          const box = textBox(ax, ay, text, anchor);
          if (!free(box)) continue;
          const end =
            distance > DISTANCES[0]
              ? { x: Math.round((p.x + dx * (distance - 6)) * 10) / 10, y: Math.round((p.y + dy * (distance - 6)) * 10) / 10 }
              : undefined;
          if (end && leaders.some(([a, b]) => segmentsCross(p, end, a, b))) continue;
          if (end) leaders.push([{ x: p.x, y: p.y }, end]);
          taken.push(box);
          return { x: Math.round(ax * 10) / 10, y: Math.round(ay * 10) / 10, anchor, text, ...(end ? { leader: end } : {}) };
        }
      }
      return undefined;
    };
    const named = tryText(p.label);
    if (named) return named;
    const number = numbered.length + 1;
    numbered.push({ index, number });
    // A number is short; if even that fits nowhere it sits on the point's right regardless.
    return tryText(String(number)) ?? { x: p.x + 8, y: p.y + 4, anchor: 'start', text: String(number) };
  });
  return { labels, numbered };
}
