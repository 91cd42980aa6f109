// A task's leaderboard like the BC II.5 tables (online S and offline R runs together, best
// first), the F-score vs AUC iP/R scatter (Figs 2-3), precision against recall with iso-F
// curves (the API gives one P/R point per run, not whole curves), and downloads.
import { fmt, html, type SafeHtml } from '../html.ts';
import { fragment } from '../layout.ts';
import { scatterPlot, type ScatterPoint } from '../plots.ts';
import { flattenMetrics } from '../../scoring/index.ts';
import type { FamilyWeb } from '../../families/family.ts';
import { familyOf, isTaskName } from '../../families/registry.ts';

interface Row { run: string; team: string; server?: number; kind: 'S' | 'R'; metrics: Record<string, unknown>; droppedLinks?: Array<{ side: string }>; error?: string }
export interface BoardJson { task: string; options: Record<string, unknown>; runs: Row[] }

/** A column computed from the row's list of response links not scored (COREF). */
const DROPPED = 'droppedLinks';

/** The task family's table columns and plots (as in the papers); an unknown task shows every figure. */
function layoutOf(task: string): { web: FamilyWeb<unknown, unknown>['leaderboard']; exportable: boolean } {
  if (!isTaskName(task)) return { web: {}, exportable: false };
  const family = familyOf(task);
  return { web: family.web.leaderboard, exportable: family.scoring.exportTsv !== undefined };
}

export function leaderboardPageBody(slug: string, task: string): SafeHtml {
  const api = `/api/challenges/${encodeURIComponent(slug)}/scores/${encodeURIComponent(task)}`;
  return html`<h1>Leaderboard: ${task} in ${slug}</h1>
<p>Online runs (S, the servers' answers) and offline runs (R, uploaded files), scored against the gold standard; best first.</p>
<div class="buttons"><button type="button" data-download="${api}?format=tsv" data-filename="${slug}-${task}-leaderboard.tsv">Download TSV</button> <button type="button" data-download="${api}" data-filename="${slug}-${task}-leaderboard.json">Download JSON</button></div>
${fragment(`/fragments/challenges/${encodeURIComponent(slug)}/leaderboard/${encodeURIComponent(task)}`, { label: 'Leaderboard' })}`;
}

/** Counts print as integers, figures with three decimals. */
const COUNT = /(^|\.)(tp|fp|fn|gold|response)$/;
function cell(key: string, value: unknown): string {
  if (typeof value !== 'number') return String(value ?? '—');
  return (key === DROPPED || COUNT.test(key)) && Number.isInteger(value) ? String(value) : fmt(value);
}

function points(rows: Array<{ row: Row; flat: Map<string, unknown> }>, x: string, y: string): ScatterPoint[] {
  return rows.flatMap(({ row, flat }) => {
    const xv = flat.get(x);
    const yv = flat.get(y);
    return typeof xv === 'number' && typeof yv === 'number' ? [{ label: row.run, x: xv, y: yv, kind: row.kind }] : [];
  });
}

export function leaderboardFragment(slug: string, board: BoardJson): SafeHtml {
  const rows = board.runs.map((row) => {
    const flat: Map<string, unknown> = flattenMetrics(row.metrics);
    if (row.droppedLinks) flat.set(DROPPED, row.droppedLinks.filter((d) => d.side === 'response').length);
    return { row, flat };
  });
  const { web, exportable } = layoutOf(board.task);
  const columns = web.columns ?? [...new Set(rows.flatMap((r) => [...r.flat.keys()]))].map((k): [string, string] => [k, k]);
  const table = html`<div class="table-scroll"><table class="leaderboard"><caption>${board.task} results${Object.keys(board.options).length ? ` (${JSON.stringify(board.options)})` : ''}</caption>
<thead><tr><th scope="col">Run</th><th scope="col">Kind</th><th scope="col">Team</th>${columns.map(([, label]) => html`<th scope="col">${label}</th>`)}${exportable ? html`<th scope="col">Export</th>` : ''}</tr></thead>
<tbody>${rows.map(({ row, flat }) => html`<tr data-run="${row.run}"><th scope="row">${row.run}</th><td>${row.kind}</td><td>${row.team}</td>${
    row.error ? html`<td colspan="${columns.length}" class="error">${row.error}</td>` : columns.map(([key]) => html`<td>${cell(key, flat.get(key))}</td>`)
  }${exportable ? html`<td>${row.server !== undefined ? html`<button type="button" data-download="/api/challenges/${slug}/export/${board.task}?server=${row.server}" data-filename="${row.run}.${board.task}.tsv">TSV</button>` : ''}</td>` : ''}</tr>`)}</tbody></table></div>`;
  const { scatter, pr } = web;
  const figures = [
    scatter
      ? html`<figure class="plot-figure" data-plot="scatter">${scatterPlot(points(rows, scatter.x, scatter.y), { title: `${scatter.yLabel} vs AUC iP/R`, xLabel: 'AUC iP/R', yLabel: scatter.yLabel, yDomain: scatter.yDomain })}<figcaption>Each run's ${scatter.yLabel} against its AUC of the interpolated precision/recall curve (filled: online, hollow: offline).</figcaption></figure>`
      : '',
    pr
      ? html`<figure class="plot-figure" data-plot="pr">${scatterPlot(points(rows, pr.r, pr.p), { title: 'Precision vs recall', xLabel: 'recall', yLabel: 'precision', isoF: [0.2, 0.4, 0.6, 0.8] })}<figcaption>Each run's precision and recall, with curves of equal F-score.</figcaption></figure>`
      : '',
  ];
  return html`${table}<div class="plots">${figures}</div>`;
}
