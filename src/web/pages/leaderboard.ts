// A task's leaderboard like the BC II.5 tables (online S and offline R runs together, best
// first), the F-score vs AUC iP/R scatter (Figs 2-3), precision against recall with iso-F
// curves (the API gives one P/R point per run, not whole curves), and downloads. Every
// figure is the API's own (`GET /api/challenges/:slug/scores/:task`), only formatted here:
// three decimals, counts as integers. The options the API takes are a plain GET form, so
// the page's address says what is shown and can be shared.
import { html, type SafeHtml } from '../html.ts';
import { apiForm, fragment, NEEDS_TOKEN } from '../layout.ts';
import { scatterPlot, type ScatterPoint } from '../plots.ts';
import { flattenMetrics } from '../../scoring/index.ts';
import type { FamilyWeb, ScoreOption } from '../../families/family.ts';
import { familyOf, isTaskName } from '../../families/registry.ts';
import { hasClosed, type Challenge } from '../../challenges/repository.ts';
import type { LeaderboardRow } from '../../leaderboard/leaderboard.ts';
import type { SignificanceSummary } from '../../leaderboard/board-significance.ts';
import { leaderboardOptionsForm, optionsSentence, scoreQueryString } from './leaderboard-options.ts';
import { boardShown, boardSwitch, officialAsked, postChallengeMark } from './leaderboard-boards.ts';
import { INTERVALS_CAPTION, intervalSpan, pairsDetails, significanceSentence, topGroupMark } from './leaderboard-significance.ts';

/** A leaderboard row as the scores API answers it. */
type Row = LeaderboardRow;
export interface BoardJson {
  task: string;
  options: Record<string, unknown>;
  runs: Row[];
  /** `significance=1`: the pairs' p values and the top group (the rows carry their `ci95`). */
  significance?: SignificanceSummary;
  /** Once the challenge has closed: which board this is, the close, and (official) when it was computed. */
  board?: 'live' | 'official';
  closedAt?: string;
  takenAt?: string;
}

/** A column computed from the row's list of response links not scored (COREF). */
const DROPPED = 'droppedLinks';

type Layout = FamilyWeb<unknown, unknown>['leaderboard'];

/** The task family's table columns and plots (as in the papers); an unknown task shows every figure. */
function layoutOf(task: string): {
  web: Layout;
  exportable: boolean;
  options: readonly ScoreOption[];
  consensus: boolean;
  significance: boolean;
} {
  if (!isTaskName(task)) return { web: {}, exportable: false, options: [], consensus: false, significance: false };
  const family = familyOf(task);
  return {
    web: family.web.leaderboard,
    exportable: family.scoring.exportTsv !== undefined,
    options: family.scoring.options,
    consensus: family.consensus !== undefined,
    // Intervals and p values need each document's counts, which only some families give.
    significance: family.scoring.documentCounts !== undefined,
  };
}

/**
 * `published`: the challenge is closed and its leaderboards are out, so a visitor needs no
 * token. `closedAt`: the close the official board is of (null before one): the page offers
 * the switch between the live and the official board then.
 */
export function leaderboardPageBody(
  slug: string,
  task: string,
  query: Record<string, string | undefined> = {},
  published = false,
  closedAt: Date | null = null,
): SafeHtml {
  const qs = scoreQueryString(query);
  const api = `/api/challenges/${encodeURIComponent(slug)}/scores/${encodeURIComponent(task)}${qs}`;
  const tsv = `${api}${qs ? '&' : '?'}format=tsv`;
  const { options, consensus, significance } = layoutOf(task);
  // The official board is kept with the default options only: no options to choose then.
  const optionsForm = officialAsked(query)
    ? html`<p>The official board is kept with the default options; the options apply to the live board.</p>`
    : leaderboardOptionsForm(slug, task, options, { consensus, significance }, query);
  return html`<h1>Leaderboard: ${task} in ${slug}</h1>
<p>Online runs (kind S: a server's answers, named <code>T&lt;team&gt;_S&lt;n&gt;</code>), offline runs (R: uploaded files) and, when asked, the consensus (C), scored against the gold standard; best first. Servers that never answered are listed last, unranked. The organiser's baselines are shown among the runs by their figures, marked and unranked.</p>
${boardSwitch(slug, task, query, closedAt)}
${optionsForm}
<div class="buttons"><button type="button" data-download="${tsv}" data-filename="${slug}-${task}-${officialAsked(query) ? 'official-' : ''}leaderboard.tsv">Download TSV</button> <button type="button" data-download="${api}" data-filename="${slug}-${task}-${officialAsked(query) ? 'official-' : ''}leaderboard.json">Download JSON</button></div>
${axesSwitch(slug, task, query)}
${fragment(`/fragments/challenges/${encodeURIComponent(slug)}/leaderboard/${encodeURIComponent(task)}${withAxes(qs, query)}`, { label: 'Leaderboard', ...(published ? {} : { needsToken: NEEDS_TOKEN.leaderboard }) })}`;
}

/** ?axes=full: the plots span 0–1 rather than the runs' range. */
export const fullAxes = (query: Record<string, string | undefined>): boolean => query.axes === 'full';
const withAxes = (qs: string, query: Record<string, string | undefined>) => (fullAxes(query) ? `${qs}${qs ? '&' : '?'}axes=full` : qs);

/** The control between axes fitted to the runs (default) and the full 0–1 range. */
function axesSwitch(slug: string, task: string, query: Record<string, string | undefined>): SafeHtml {
  const path = `/challenges/${encodeURIComponent(slug)}/leaderboard/${encodeURIComponent(task)}`;
  const qs = scoreQueryString(query);
  return fullAxes(query)
    ? html`<p class="plot-axes">The plots span the full 0–1 range. <a href="${path}${qs}" data-axes="fitted">Fit the axes to the runs</a></p>`
    : html`<p class="plot-axes">The plots' axes are fitted to the runs. <a href="${path}${withAxes(qs, { axes: 'full' })}" data-axes="full">Show the full 0–1 range</a></p>`;
}

/** Counts print as integers, figures with three decimals. */
const COUNT = /(^|\.)(tp|fp|fn|gold|response|evaluatedDocs)$/;
function cell(key: string, value: unknown): string {
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a figure that is not a number is a string or a boolean
  if (typeof value !== 'number') return value === undefined || value === null ? '—' : String(value);
  if ((key === DROPPED || COUNT.test(key)) && Number.isInteger(value)) return String(value);
  return Number.isFinite(value) ? value.toFixed(3) : '—';
}

interface Scored {
  row: Row;
  flat: Map<string, unknown>;
  /** `significance=1`: the run is in the API's top group. */
  top: boolean;
}

/** Plotted runs: the ranked ones only (a server that never answered has no point); with significance, their intervals of the plotted figures. */
function points(rows: Scored[], x: string, y: string): ScatterPoint[] {
  return rows.flatMap(({ row, flat }) => {
    if (neverAnswered(row) || row.error) return [];
    const xv = flat.get(x);
    const yv = flat.get(y);
    if (typeof xv !== 'number' || typeof yv !== 'number') return [];
    const xInterval = row.ci95?.[x];
    const yInterval = row.ci95?.[y];
    return [
      {
        label: row.run,
        x: xv,
        y: yv,
        kind: row.kind === 'R' ? 'R' : 'S',
        ...(xInterval ? { xInterval } : {}),
        ...(yInterval ? { yInterval } : {}),
      },
    ];
  });
}

const neverAnswered = (row: Row) => row.kind === 'S' && row.answered === 0;

/** The run (marked when in the top group), then what it is: the server and its team, an offline file, or the consensus. */
function runHeader(row: Row, top: boolean): SafeHtml {
  const what =
    row.kind === 'S'
      ? `server ${row.serverName ?? `#${row.server ?? '?'}`} of ${row.team}`
      : row.baseline
        ? "organiser's baseline, not ranked"
        : row.kind === 'R'
          ? `offline run of ${row.team}`
          : 'consensus of the servers';
  return html`<th scope="row"><span class="run-name">${row.run}</span>${top ? topGroupMark() : ''}${postChallengeMark(row)} <span class="run-what">${what}</span></th>`;
}

/** Whose online runs the caller may export (the export route's rule): every one, or its own team's. */
export type ExportRight = { all: true } | { team: string };
interface Exports {
  slug: string;
  task: string;
  right: ExportRight;
}

function exportCell(e: Exports, row: Row): SafeHtml {
  const { slug, task } = e;
  const allowed = 'all' in e.right || e.right.team === row.team;
  return html`<td>${allowed && row.server !== undefined && row.kind === 'S' ? html`<button type="button" class="small" data-download="/api/challenges/${slug}/export/${task}?server=${row.server}" data-filename="${row.run}.${task}.tsv" aria-label="Export ${row.run} as TSV">TSV</button>` : ''}</td>`;
}

/** The figure, and under it its 95% interval where the API gave one (`significance=1`). */
function figureCell(row: Row, flat: Map<string, unknown>, key: string): SafeHtml {
  const interval = row.ci95?.[key];
  return html`<td>${cell(key, flat.get(key))}${interval ? intervalSpan(interval) : ''}</td>`;
}

/** The row's first cells: its run header, kind and team. */
const rowStart = ({ row, top }: Scored) => html`${runHeader(row, top)}<td>${row.kind}</td><td>${row.team}</td>`;
/** The row's run, and whether it is in the top group (for the style and for readers' tools). */
const rowAttributes = ({ row, top }: Scored) => html`data-run="${row.run}"${top ? html` data-top-group` : ''}`;

/** Figures of a row, or a cell saying why there are none. */
function figureCells(row: Row, flat: Map<string, unknown>, keys: readonly string[]): SafeHtml {
  if (row.error) return html`<td colspan="${keys.length}" class="error">Could not be scored: ${row.error}</td>`;
  if (neverAnswered(row))
    return html`<td colspan="${keys.length}" class="never" data-never-answered>Never answered: this server sent no answer for this task, so it is not ranked.</td>`;
  return html`${keys.map((key) => figureCell(row, flat, key))}`;
}

function flatTable(board: BoardJson, rows: Scored[], columns: ReadonlyArray<readonly [string, string]>, exports: Exports | null): SafeHtml {
  return html`<div class="table-scroll" tabindex="0" role="region" aria-label="${board.task} results (scrolls sideways)"><table class="leaderboard"><caption>${board.task} results${optionsSentence(board.options)}${board.significance ? INTERVALS_CAPTION : ''}</caption>
<thead><tr><th scope="col">Run</th><th scope="col">Kind</th><th scope="col">Team</th>${columns.map(([, label]) => html`<th scope="col">${label}</th>`)}${exports ? html`<th scope="col">Export</th>` : ''}</tr></thead>
<tbody>${rows.map(
    (scored) =>
      html`<tr ${rowAttributes(scored)}>${rowStart(scored)}${figureCells(
        scored.row,
        scored.flat,
        columns.map(([k]) => k),
      )}${exports ? exportCell(exports, scored.row) : ''}</tr>`,
  )}</tbody></table></div>`;
}

type Groups = NonNullable<Layout['groups']>;

/** Two header rows: the groups (strict, left, right), then each group's figures. */
function groupedTable(
  caption: SafeHtml | string,
  rows: Scored[],
  g: Groups,
  prefix: string,
  exports: Exports | null,
  id: string,
): SafeHtml {
  // A group no run reports (MENTION's normalization figures, for a gold without ids) is not shown.
  const shown = g.groups.filter(([group]) =>
    rows.some(({ flat }) => g.figures.some(([figure]) => flat.has(`${prefix}${group}.${figure}`))),
  );
  g = { ...g, groups: shown.length > 0 ? shown : g.groups };
  const keys = g.groups.flatMap(([group]) => g.figures.map(([figure]) => `${prefix}${group}.${figure}`));
  return html`<div class="table-scroll" tabindex="0" role="region" aria-labelledby="${id}-caption"><table class="leaderboard grouped" id="${id}"><caption id="${id}-caption">${caption}</caption>
<colgroup span="3"></colgroup>${g.groups.map(() => html`<colgroup class="figure-group" span="${g.figures.length}"></colgroup>`)}
<thead><tr><th scope="col" rowspan="2">Run</th><th scope="col" rowspan="2">Kind</th><th scope="col" rowspan="2">Team</th>${g.groups.map(([, label]) => html`<th scope="colgroup" colspan="${g.figures.length}">${label}</th>`)}${exports ? html`<th scope="col" rowspan="2">Export</th>` : ''}</tr>
<tr>${g.groups.map(([, group]) => g.figures.map(([, label]) => html`<th scope="col"><span class="visually-hidden">${group} </span>${label}</th>`))}</tr></thead>
<tbody>${rows.map((scored) => html`<tr ${rowAttributes(scored)}>${rowStart(scored)}${figureCells(scored.row, scored.flat, keys)}${exports ? exportCell(exports, scored.row) : ''}</tr>`)}</tbody></table></div>`;
}

/** The classes a breakdown holds (MENTION: entity types), in the order the API gave them. */
function breakdownClasses(rows: Scored[], key: string): string[] {
  const classes = new Set<string>();
  for (const { row } of rows) {
    const part = row.metrics[key];
    if (part && typeof part === 'object') for (const name of Object.keys(part)) classes.add(name);
  }
  return [...classes];
}

function groupedTables(board: BoardJson, rows: Scored[], g: Groups, exports: Exports | null): SafeHtml {
  const caption = html`${board.task} results${optionsSentence(board.options)}${board.significance ? INTERVALS_CAPTION : ''}`;
  const main = groupedTable(caption, rows, g, '', exports, 'board-main');
  if (!g.breakdown) return main;
  const { key, label } = g.breakdown;
  const classes = breakdownClasses(rows, key);
  if (classes.length === 0) return main;
  return html`${main}<section aria-labelledby="breakdown-heading"><h2 id="breakdown-heading">By ${label}</h2>
${classes.map((name, i) => html`<details class="breakdown"><summary>${name}</summary>${groupedTable(`${board.task} results for ${label} "${name}"`, rows, g, `${key}.${name}.`, null, `board-class-${i}`)}</details>`)}</section>`;
}

/** The organiser's switch: show this challenge's leaderboards to everyone, once closed. */
function publishForm(challenge: Pick<Challenge, 'slug' | 'phase' | 'leaderboardPublished'>): SafeHtml {
  const { slug } = challenge;
  if (!hasClosed(challenge)) {
    return html`<section class="card" aria-labelledby="publish-heading"><h2 id="publish-heading">Publication</h2><p data-published="false">Only the organiser and, once the challenge is closed, the teams can read this leaderboard. It can be published to everyone after the close.</p></section>`;
  }
  const published = challenge.leaderboardPublished;
  return html`<section class="card" aria-labelledby="publish-heading"><h2 id="publish-heading">Publication</h2>
<p data-published="${published ? 'true' : 'false'}">${published ? 'Published: everyone can read the leaderboards of this challenge, without a token, and the home page links them.' : 'Not published: only the organiser and the teams (with their tokens) can read the leaderboards of this challenge.'}</p>
${apiForm({
  api: `/api/challenges/${slug}`,
  method: 'PATCH',
  then: 'refresh',
  label: published ? 'Withdraw the publication' : 'Publish to everyone',
  id: 'publish-form',
  fields: html`<input type="checkbox" name="leaderboardPublished" data-bool hidden${published ? '' : html` checked`} aria-hidden="true" tabindex="-1">`,
})}</section>`;
}

export interface FragmentOptions {
  /** Export buttons, for the runs the caller may export; absent: none (a visitor without a token). */
  exports?: ExportRight;
  /** The organiser's publication switch, when the caller is the organiser. */
  publish?: Pick<Challenge, 'slug' | 'phase' | 'leaderboardPublished'>;
  /** Plots over the full 0–1 range (?axes=full) rather than fitted to the runs. */
  fullAxes?: boolean;
}

export function leaderboardFragment(slug: string, board: BoardJson, o: FragmentOptions = { exports: { all: true } }): SafeHtml {
  const topGroup = new Set(board.significance?.topGroup ?? []);
  const rows: Scored[] = board.runs.map((row) => {
    const flat: Map<string, unknown> = flattenMetrics(row.metrics);
    if (row.droppedLinks) flat.set(DROPPED, row.droppedLinks.filter((d) => d.side === 'response').length);
    // A row with no figures (never answered, not scored) is in no pair, so in no group.
    return { row, flat, top: topGroup.has(row.run) && !row.error && !neverAnswered(row) };
  });
  const { web, exportable } = layoutOf(board.task);
  const exports = exportable && o.exports ? { slug, task: board.task, right: o.exports } : null;
  let table: SafeHtml;
  if (web.groups) table = groupedTables(board, rows, web.groups, exports);
  else {
    const figures = [...new Set(rows.flatMap((r) => [...r.flat.keys()]))];
    const columns = [
      ...(typeof web.columns === 'function' ? web.columns(figures) : (web.columns ?? figures.map((k): [string, string] => [k, k]))),
    ];
    // F-beta is reported only when asked for (`beta`): its column appears then.
    if (web.columns && rows.some((r) => typeof r.flat.get('fBeta') === 'number'))
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- beta is a number
      columns.push(['fBeta', `F-beta (β=${String(board.options.beta ?? '')})`]);
    table = flatTable(board, rows, columns, exports);
  }
  const significance = board.significance ? html`${significanceSentence(board.significance)}${pairsDetails(board.significance)}` : '';
  return html`${o.publish ? publishForm(o.publish) : ''}${boardShown(board)}${significance}${table}<div class="plots">${plotFigures(rows, web, o.fullAxes ?? false)}</div>`;
}

/** " Bars: …" when some plotted run carries an interval (`significance=1`), for the figure's caption. */
function barsSentence(plotted: readonly ScatterPoint[], x: string, y: string): string {
  const axes = [plotted.some((p) => p.xInterval) ? x : '', plotted.some((p) => p.yInterval) ? y : ''].filter(Boolean);
  return axes.length ? ` Bars: each run's 95% bootstrap interval of its ${axes.join(' and ')}.` : '';
}

/** The family's plots: the F-score (or its figure) vs AUC iP/R scatter, and precision vs recall. */
function plotFigures(rows: Scored[], web: Layout, fullAxes: boolean): SafeHtml[] {
  const { scatter, pr } = web;
  const figures: SafeHtml[] = [];
  if (scatter) {
    const plotted = points(rows, scatter.x, scatter.y);
    figures.push(
      html`<figure class="plot-figure" data-plot="scatter">${scatterPlot(plotted, { title: `${scatter.yLabel} vs AUC iP/R`, xLabel: 'AUC iP/R', yLabel: scatter.yLabel, yDomain: scatter.yDomain, fullAxes })}<figcaption>Each run's ${scatter.yLabel} against its AUC of the interpolated precision/recall curve (filled: online, hollow: offline).${barsSentence(plotted, 'AUC iP/R', scatter.yLabel)}</figcaption></figure>`,
    );
  }
  if (pr) {
    const plotted = points(rows, pr.r, pr.p);
    figures.push(
      html`<figure class="plot-figure" data-plot="pr">${scatterPlot(plotted, { title: 'Precision vs recall', xLabel: 'recall', yLabel: 'precision', isoF: [0.2, 0.4, 0.6, 0.8], fullAxes })}<figcaption>Each run's precision and recall, with curves of equal F-score.${barsSentence(plotted, 'recall', 'precision')}</figcaption></figure>`,
    );
  }
  return figures;
}
