// A task's leaderboard like the BC II.5 tables (online S and offline R runs together, best
// first), the F-score vs AUC iP/R scatter (Figs 2-3), precision against recall with iso-F
// curves (the API gives one P/R point per run, not whole curves), and downloads.
import { fmt, html, type SafeHtml } from '../html.ts';
import { fragment } from '../layout.ts';
import { scatterPlot, type ScatterPoint } from '../plots.ts';
import { flattenMetrics } from '../../scoring/index.ts';

interface Row { run: string; team: string; server?: number; kind: 'S' | 'R'; metrics: Record<string, unknown>; droppedLinks?: Array<{ side: string }>; error?: string }
export interface BoardJson { task: string; options: Record<string, unknown>; runs: Row[] }

/** A column computed from the row's list of response links not scored (COREF). */
const DROPPED = 'droppedLinks';

/** The columns of each task's table, as in the paper; other tasks show every figure. */
const COLUMNS: Record<string, Array<[string, string]>> = {
  ACT: [['accuracy', 'Accuracy'], ['sensitivity', 'Sensitivity'], ['specificity', 'Specificity'], ['mcc', 'MCC'], ['pAtFullR', 'P at full R'], ['aucIPR', 'AUC iP/R']],
  INT: [['macro.p', 'P'], ['macro.r', 'R'], ['macro.f', 'F'], ['macro.aucIPR', 'AUC iP/R'], ['micro.p', 'micro P'], ['micro.r', 'micro R'], ['micro.f', 'micro F'], ['micro.aucIPR', 'micro AUC']],
};
COLUMNS.IPT = COLUMNS.INT!;
// COREF as the official scorer reports it: mention detection first, then the links (protein
// mode, the task's primary figure, as in the paper's Table 3), surface mode, and how many
// response links were not scored (the JSON download lists them with the reason).
COLUMNS.COREF = [
  ['mentions.protein.p', 'Mention P'], ['mentions.protein.r', 'Mention R'], ['mentions.protein.f', 'Mention F'],
  ['protein.response', 'Resp'], ['protein.tp', 'C'], ['protein.p', 'P'], ['protein.r', 'R'], ['protein.f', 'F'],
  ['surface.p', 'Surface P'], ['surface.r', 'Surface R'], ['surface.f', 'Surface F'], [DROPPED, 'Links not scored'],
];

/** x, y and labels of the two plots per task; undefined: that plot does not apply. */
const SCATTER: Record<string, { x: string; y: string; yLabel: string; yDomain: [number, number] }> = {
  INT: { x: 'macro.aucIPR', y: 'macro.f', yLabel: 'F-score', yDomain: [0, 1] },
  IPT: { x: 'macro.aucIPR', y: 'macro.f', yLabel: 'F-score', yDomain: [0, 1] },
  ACT: { x: 'aucIPR', y: 'mcc', yLabel: 'MCC', yDomain: [-1, 1] },
};
const PR: Record<string, { p: string; r: string }> = {
  INT: { p: 'macro.p', r: 'macro.r' },
  IPT: { p: 'macro.p', r: 'macro.r' },
  MENTION: { p: 'strict.p', r: 'strict.r' },
  COREF: { p: 'protein.p', r: 'protein.r' },
};

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
  const columns = COLUMNS[board.task] ?? [...new Set(rows.flatMap((r) => [...r.flat.keys()]))].map((k): [string, string] => [k, k]);
  const exportable = ['ACT', 'INT', 'IPT'].includes(board.task);
  const table = html`<div class="table-scroll"><table class="leaderboard"><caption>${board.task} results${Object.keys(board.options).length ? ` (${JSON.stringify(board.options)})` : ''}</caption>
<thead><tr><th scope="col">Run</th><th scope="col">Kind</th><th scope="col">Team</th>${columns.map(([, label]) => html`<th scope="col">${label}</th>`)}${exportable ? html`<th scope="col">Export</th>` : ''}</tr></thead>
<tbody>${rows.map(({ row, flat }) => html`<tr data-run="${row.run}"><th scope="row">${row.run}</th><td>${row.kind}</td><td>${row.team}</td>${
    row.error ? html`<td colspan="${columns.length}" class="error">${row.error}</td>` : columns.map(([key]) => html`<td>${cell(key, flat.get(key))}</td>`)
  }${exportable ? html`<td>${row.server !== undefined ? html`<button type="button" data-download="/api/challenges/${slug}/export/${board.task}?server=${row.server}" data-filename="${row.run}.${board.task}.tsv">TSV</button>` : ''}</td>` : ''}</tr>`)}</tbody></table></div>`;
  const scatter = SCATTER[board.task];
  const pr = PR[board.task];
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
