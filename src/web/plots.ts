// Server-side SVG charts, pure (data in, markup out): the F-score vs AUC iP/R scatter of
// the BC II.5 overview (Figs 2-3), precision/recall points with iso-F curves, and the
// response-time histogram of a server. Every label goes through the `html` escaper.
import { html, join, type SafeHtml } from './html.ts';
import { KEY_LINE, placeLabels, textBox } from './plot-labels.ts';

export type Domain = readonly [number, number];

/** A linear map from a data domain to a pixel range; a zero-width domain maps to the middle. */
export function linearScale(domain: Domain, range: Domain): (value: number) => number {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  if (d1 === d0) return () => (r0 + r1) / 2;
  return (value) => r0 + ((value - d0) / (d1 - d0)) * (r1 - r0);
}

/** Evenly spaced tick values including both ends. */
export function ticks(domain: Domain, count = 5): number[] {
  const [d0, d1] = domain;
  if (d1 === d0) return [d0];
  return Array.from({ length: count + 1 }, (_, i) => Number((d0 + ((d1 - d0) * i) / count).toPrecision(12)));
}

export interface ScatterPoint {
  label: string;
  x: number;
  y: number;
  /** S: online server run (filled marker); R: offline run (hollow), as in the BC II.5 figures. */
  kind: 'S' | 'R';
  /** The 95% bootstrap interval of x or y (a leaderboard with `significance=1`): drawn as a bar with caps. */
  xInterval?: PlotInterval;
  yInterval?: PlotInterval;
}

export interface PlotInterval {
  low: number;
  high: number;
}

export interface ScatterOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  xDomain?: Domain;
  yDomain?: Domain;
  /** Draw curves of equal F-score (for precision/recall plots: x = recall, y = precision). */
  isoF?: readonly number[];
  /** Axes over the whole domain (0–1 unless given) rather than fitted to the points. */
  fullAxes?: boolean;
  /** How many points (the first ones: the caller ranks them) carry their name; the others show it on hover, focus or tap. Default 6. */
  labelled?: number;
}

/** Points named at once by default; with 20 runs, naming them all crowded the plot with leader lines. */
export const LABELLED_RUNS = 6;

/** Tick steps for fitted axes: the smallest that gives at most six intervals. */
const STEPS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.25];

/** The step between ticks of a domain (at most six intervals). */
export function tickStep(domain: Domain): number {
  const width = domain[1] - domain[0];
  return STEPS.find((s) => width / s <= 6 + 1e-9) ?? 0.25;
}

/**
 * A domain fitted to the values, inside `bounds`: padded by a twentieth of their spread,
 * rounded out to whole ticks, at least 0.1 wide — 19 runs between 0.1 and 0.3 fill the plot
 * instead of a corner of it.
 */
export function fitDomain(values: readonly number[], bounds: Domain = [0, 1]): Domain {
  if (values.length === 0) return bounds;
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const pad = Math.max((hi - lo) / 20, 0.01);
  let d0 = Math.max(bounds[0], lo - pad);
  let d1 = Math.min(bounds[1], hi + pad);
  if (d1 - d0 < 0.1) {
    const mid = (d0 + d1) / 2;
    d0 = Math.max(bounds[0], Math.min(mid - 0.05, bounds[1] - 0.1));
    d1 = Math.min(bounds[1], d0 + 0.1);
  }
  // Rounding out can make more than six intervals (0.275–0.825 by 0.1 is 0.2–0.9, seven):
  // then the next step up, so the ticks stay whole steps.
  let rounded: Domain = [d0, d1];
  for (const step of STEPS.filter((s) => s >= tickStep([d0, d1]))) {
    rounded = [Math.max(bounds[0], Math.floor(d0 / step + 1e-9) * step), Math.min(bounds[1], Math.ceil(d1 / step - 1e-9) * step)];
    if ((rounded[1] - rounded[0]) / step <= 6 + 1e-9) break;
  }
  return [Number(rounded[0].toFixed(2)), Number(rounded[1].toFixed(2))];
}

const WIDTH = 480;
const HEIGHT = 360;
const MARGIN = { left: 56, right: 16, top: 32, bottom: 48 };
const round = (n: number) => Math.round(n * 10) / 10;

/** role: 'img' for a picture read as one; 'group' when its points are reachable one by one. */
function frame(title: string, body: SafeHtml, description: string, height = HEIGHT, role: 'img' | 'group' = 'img'): SafeHtml {
  return html`<svg xmlns="http://www.w3.org/2000/svg" class="plot" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="${role}" aria-label="${title}"><title>${title}</title><desc>${description}</desc><text class="plot-title" x="${MARGIN.left}" y="20" text-anchor="start">${title}</text>${body}</svg>`;
}

function axes(
  x: (v: number) => number,
  y: (v: number) => number,
  xDomain: Domain,
  yDomain: Domain,
  xLabel: string,
  yLabel: string,
  xTicks = ticks(xDomain),
  yTicks = ticks(yDomain),
): SafeHtml {
  const bottom = HEIGHT - MARGIN.bottom;
  const xt = xTicks.map(
    (t) =>
      html`<line class="grid" x1="${round(x(t))}" x2="${round(x(t))}" y1="${MARGIN.top}" y2="${bottom}"/><text class="tick" x="${round(x(t))}" y="${bottom + 16}" text-anchor="middle">${t}</text>`,
  );
  const yt = yTicks.map(
    (t) =>
      html`<line class="grid" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${round(y(t))}" y2="${round(y(t))}"/><text class="tick" x="${MARGIN.left - 6}" y="${round(y(t)) + 4}" text-anchor="end">${t}</text>`,
  );
  return html`<g class="axes">${xt}${yt}<line class="axis" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${bottom}" y2="${bottom}"/><line class="axis" x1="${MARGIN.left}" x2="${MARGIN.left}" y1="${MARGIN.top}" y2="${bottom}"/><text class="axis-label" x="${(MARGIN.left + WIDTH - MARGIN.right) / 2}" y="${HEIGHT - 10}" text-anchor="middle">${xLabel}</text><text class="axis-label" transform="rotate(-90)" x="${-(MARGIN.top + bottom) / 2}" y="14" text-anchor="middle">${yLabel}</text></g>`;
}

/** Where the iso-F curve of f leaves the plot (recall 1, or the top edge), or null when it is not in the plot. */
function isoLabelAt(f: number, xDomain: Domain, yDomain: Domain): { r: number; p: number } | null {
  const atOne = f / (2 - f);
  if (xDomain[1] >= 1 && atOne >= yDomain[0] && atOne <= yDomain[1]) return { r: 1, p: atOne };
  // p = f·r / (2r − f) at the right edge, or r = f·p / (2p − f) at the top edge.
  const r = xDomain[1];
  const p = (f * r) / (2 * r - f);
  if (2 * r > f && p >= yDomain[0] && p <= yDomain[1]) return { r, p };
  const top = yDomain[1];
  const rTop = (f * top) / (2 * top - f);
  if (2 * top > f && rTop >= xDomain[0] && rTop <= xDomain[1]) return { r: rTop, p: top };
  return null;
}

function noData(title: string): SafeHtml {
  return frame(
    title,
    html`<text class="no-data" x="${WIDTH / 2}" y="${HEIGHT / 2}" text-anchor="middle">no data to plot yet</text>`,
    'no data',
  );
}

/** Half the length of an interval bar's caps, in pixels. */
const CAP = 4;

/** The values an axis must show: the points, and the ends of their intervals (so no bar is cut). */
function axisValues(points: readonly ScatterPoint[], axis: 'x' | 'y'): number[] {
  return points.flatMap((p) => {
    const interval = axis === 'x' ? p.xInterval : p.yInterval;
    return interval ? [p[axis], interval.low, interval.high] : [p[axis]];
  });
}

/**
 * One bar per point and interval, with caps at both ends, under the markers. Each carries
 * its run, axis and ends as data (the test and a reader's tools check them against the scale).
 */
function intervalBars(points: readonly ScatterPoint[], x: (v: number) => number, y: (v: number) => number): SafeHtml {
  const bars = points.flatMap((p) => {
    const cx = round(x(p.x));
    const cy = round(y(p.y));
    const drawn: SafeHtml[] = [];
    if (p.xInterval) {
      const [a, b] = [round(x(p.xInterval.low)), round(x(p.xInterval.high))];
      drawn.push(
        html`<g class="interval-bar" data-run="${p.label}" data-axis="x" data-low="${p.xInterval.low}" data-high="${p.xInterval.high}"><line x1="${a}" x2="${b}" y1="${cy}" y2="${cy}"/><line class="cap" x1="${a}" x2="${a}" y1="${cy - CAP}" y2="${cy + CAP}"/><line class="cap" x1="${b}" x2="${b}" y1="${cy - CAP}" y2="${cy + CAP}"/></g>`,
      );
    }
    if (p.yInterval) {
      const [a, b] = [round(y(p.yInterval.low)), round(y(p.yInterval.high))];
      drawn.push(
        html`<g class="interval-bar" data-run="${p.label}" data-axis="y" data-low="${p.yInterval.low}" data-high="${p.yInterval.high}"><line x1="${cx}" x2="${cx}" y1="${a}" y2="${b}"/><line class="cap" x1="${cx - CAP}" x2="${cx + CAP}" y1="${a}" y2="${a}"/><line class="cap" x1="${cx - CAP}" x2="${cx + CAP}" y1="${b}" y2="${b}"/></g>`,
      );
    }
    return drawn;
  });
  return bars.length ? html`<g class="interval-bars" aria-hidden="true">${bars}</g>` : html``;
}

/** " (95% interval 0.400–0.600)" after a figure that has one. */
const intervalWords = (i: PlotInterval | undefined) => (i ? ` (95% interval ${i.low.toFixed(3)}–${i.high.toFixed(3)})` : '');

/** What a point says to a screen reader and in the plot's description. */
const pointWords = (p: ScatterPoint, o: ScatterOptions) =>
  `${o.xLabel} ${p.x.toFixed(3)}${intervalWords(p.xInterval)}, ${o.yLabel} ${p.y.toFixed(3)}${intervalWords(p.yInterval)}`;

/** The description's last words when bars are drawn. */
const barsWords = (points: readonly ScatterPoint[]) =>
  points.some((p) => p.xInterval || p.yInterval) ? '; bars: 95% bootstrap intervals over the documents' : '';

/** One marker per run; S runs filled, R runs hollow; each labelled with its run name; interval bars where a point has them. */
export function scatterPlot(points: readonly ScatterPoint[], o: ScatterOptions): SafeHtml {
  const usable = points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
  if (usable.length === 0) return noData(o.title);
  const xDomain = o.fullAxes ? (o.xDomain ?? [0, 1]) : fitDomain(axisValues(usable, 'x'), o.xDomain);
  const yDomain = o.fullAxes ? (o.yDomain ?? [0, 1]) : fitDomain(axisValues(usable, 'y'), o.yDomain);
  const named = o.labelled ?? LABELLED_RUNS;
  const x = linearScale(xDomain, [MARGIN.left, WIDTH - MARGIN.right]);
  const y = linearScale(yDomain, [HEIGHT - MARGIN.bottom, MARGIN.top]);
  const curves = (o.isoF ?? []).map((f) => {
    // Precision as a function of recall at a fixed F: p = f·r / (2r − f), defined for r > f/2.
    const steps = 40;
    const pts: string[] = [];
    for (let i = 0; i <= steps; i++) {
      const r = f / 2 + ((1 - f / 2) * i) / steps + 1e-9;
      const p = (f * r) / (2 * r - f);
      if (p <= yDomain[1] && p >= yDomain[0] && r >= xDomain[0] && r <= xDomain[1]) pts.push(`${round(x(r))},${round(y(p))}`);
    }
    // The curve's name where it leaves the plot: at recall 1, or at the top edge when fitted axes cut it there.
    const at = isoLabelAt(f, xDomain, yDomain);
    return pts.length < 2 || !at
      ? html``
      : html`<polyline class="iso-f" points="${pts.join(' ')}"/><text class="iso-label" x="${round(x(at.r)) - 2}" y="${round(y(at.p)) - 3}" text-anchor="end">F=${f}</text>`;
  });
  const isoBoxes = (o.isoF ?? []).flatMap((f) => {
    const at = isoLabelAt(f, xDomain, yDomain);
    return at ? [textBox(round(x(at.r)) - 2, round(y(at.p)) - 3, `F=${f}`, 'end')] : [];
  });
  const placed = placeLabels(
    usable.slice(0, named).map((p) => ({ x: round(x(p.x)), y: round(y(p.y)), label: p.label })),
    [...isoBoxes, ...usable.slice(named).map((p) => ({ x: round(x(p.x)) - 6, y: round(y(p.y)) - 6, w: 12, h: 12 }))],
    // Inside the axes, clear of the title and legend line above and the tick labels below.
    { x: MARGIN.left + 2, y: MARGIN.top - 8, w: WIDTH - MARGIN.left - 4, h: HEIGHT - MARGIN.bottom - MARGIN.top + 8 },
  );
  // Every point is reachable with Tab and named for screen readers; the names not drawn at
  // once show beside their point on hover, on keyboard focus and on a tap (which focuses it).
  const marks = usable.map((p, i) => {
    const cx = round(x(p.x));
    const cy = round(y(p.y));
    const cls = p.kind === 'S' ? 'point online' : 'point offline';
    const said = `${p.label}: ${pointWords(p, o)}`;
    const at = placed.labels[i];
    if (!at) {
      const right = cx < WIDTH - MARGIN.right - 120;
      return html`<g class="${cls} unnamed" tabindex="0" role="img" aria-label="${said}"><circle cx="${cx}" cy="${cy}" r="5"><title>${said}</title></circle><text class="point-label on-demand" x="${right ? cx + 8 : cx - 8}" y="${cy + 4}" text-anchor="${right ? 'start' : 'end'}">${p.label}</text></g>`;
    }
    const leader = at.leader ? html`<line class="leader" x1="${cx}" y1="${cy}" x2="${at.leader.x}" y2="${at.leader.y}"/>` : '';
    return html`<g class="${cls}" tabindex="0" role="img" aria-label="${said}"><circle cx="${cx}" cy="${cy}" r="5"><title>${said}</title></circle>${leader}<text class="point-label" x="${at.x}" y="${at.y}" text-anchor="${at.anchor}">${at.text}</text></g>`;
  });
  const legend = html`<g class="legend"><circle class="online" cx="${WIDTH - 150}" cy="16" r="5"/><text x="${WIDTH - 140}" y="20">online (S)</text><circle class="offline" cx="${WIDTH - 70}" cy="16" r="5"/><text x="${WIDTH - 60}" y="20">offline (R)</text></g>`;
  // Points whose name did not fit carry a number; the key under the plot names them.
  const keyLines = placed.numbered.map(
    (n, j) => html`<text class="key" x="${MARGIN.left}" y="${HEIGHT + 14 + j * KEY_LINE}">${n.number}: ${usable[n.index].label}</text>`,
  );
  const height = HEIGHT + (placed.numbered.length ? placed.numbered.length * KEY_LINE + 8 : 0);
  const fitted = o.fullAxes
    ? ''
    : `; axes fitted to the runs (${o.xLabel} ${xDomain[0]}–${xDomain[1]}, ${o.yLabel} ${yDomain[0]}–${yDomain[1]})`;
  const description = usable.map((p) => `${p.label} (${p.kind}): ${pointWords(p, o)}`).join('; ') + fitted + barsWords(usable);
  // Drawn last, so a focused point's name is on top of the others.
  const tickCount = (d: Domain) => (o.fullAxes ? 5 : Math.max(1, Math.round((d[1] - d[0]) / tickStep(d))));
  return frame(
    o.title,
    join([
      axes(x, y, xDomain, yDomain, o.xLabel, o.yLabel, ticks(xDomain, tickCount(xDomain)), ticks(yDomain, tickCount(yDomain))),
      join(curves),
      join(keyLines),
      legend,
      intervalBars(usable, x, y),
      join(marks),
    ]),
    description,
    height,
    'group',
  );
}

export interface HistogramBar {
  fromMs: number;
  toMs: number | null;
  count: number;
}

/** Human bin label: 20 ms, 1.5 s, 2 min. */
export function durationLabel(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${ms / 1000} s`;
  return `${ms / 60_000} min`;
}

/** Equal-width bars over (usually logarithmic) bins, labelled with their lower edges. */
export function histogramChart(bins: readonly HistogramBar[], title = 'Response times of answered articles'): SafeHtml {
  const total = bins.reduce((n, b) => n + b.count, 0);
  if (bins.length === 0 || total === 0) return noData(title);
  const max = Math.max(...bins.map((b) => b.count));
  const left = MARGIN.left;
  const width = WIDTH - MARGIN.left - MARGIN.right;
  const slot = width / bins.length;
  const y = linearScale([0, max], [HEIGHT - MARGIN.bottom, MARGIN.top]);
  const bars = bins.map((b, i) => {
    const label = b.toMs === null ? `≥ ${durationLabel(b.fromMs)}` : `${durationLabel(b.fromMs)}–${durationLabel(b.toMs)}`;
    const top = round(y(b.count));
    return html`<g class="bar"><rect x="${round(left + i * slot + 2)}" y="${top}" width="${round(Math.max(1, slot - 4))}" height="${round(HEIGHT - MARGIN.bottom - top)}"><title>${label}: ${b.count}</title></rect><text class="tick" x="${round(left + i * slot + slot / 2)}" y="${HEIGHT - MARGIN.bottom + 16}" text-anchor="middle">${durationLabel(b.fromMs)}</text></g>`;
  });
  const yTicks = ticks([0, max], Math.min(max, 5)).filter((t) => Number.isInteger(t));
  const yAxis = yTicks.map(
    (t) =>
      html`<line class="grid" x1="${left}" x2="${WIDTH - MARGIN.right}" y1="${round(y(t))}" y2="${round(y(t))}"/><text class="tick" x="${left - 6}" y="${round(y(t)) + 4}" text-anchor="end">${t}</text>`,
  );
  const axisLines = html`<line class="axis" x1="${left}" x2="${WIDTH - MARGIN.right}" y1="${HEIGHT - MARGIN.bottom}" y2="${HEIGHT - MARGIN.bottom}"/><text class="axis-label" x="${left + width / 2}" y="${HEIGHT - 10}" text-anchor="middle">response time (bin start)</text><text class="axis-label" transform="rotate(-90)" x="${-(HEIGHT / 2)}" y="14" text-anchor="middle">articles</text>`;
  const description = bins
    .map((b) => `${durationLabel(b.fromMs)}${b.toMs === null ? ' and more' : ` to ${durationLabel(b.toMs)}`}: ${b.count}`)
    .join('; ');
  return frame(title, join([join(yAxis), join(bars), axisLines]), description);
}
