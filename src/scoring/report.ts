// Renders score reports (one row per run) as JSON, TSV or a human-readable text table.
// Pure string building, so the CLI and the HTTP layer print identical figures.

import type { DroppedLink } from './coref-links.ts';

export type ReportFormat = 'json' | 'tsv' | 'text';
export const REPORT_FORMATS: readonly ReportFormat[] = ['json', 'tsv', 'text'];

export interface ScoreReport {
  task: string;
  options: Record<string, unknown>;
  runs: ReportRun[];
}

export interface ReportRun {
  run: string;
  metrics: Record<string, unknown>;
  /** COREF: the links not scored and why, as the official scorer reports them (JSON and text; TSV stays one table). */
  droppedLinks?: DroppedLink[];
}

type Scalar = number | string | boolean | null;

/** Nested metrics as `micro.p`-style paths, in insertion order. */
export function flattenMetrics(value: Record<string, unknown>, prefix = '', into = new Map<string, Scalar>()): Map<string, Scalar> {
  for (const [key, inner] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (inner !== null && typeof inner === 'object') flattenMetrics(inner as Record<string, unknown>, path, into);
    else if (inner !== undefined) into.set(path, inner as Scalar);
  }
  return into;
}

function columnsOf(rows: Map<string, Scalar>[]): string[] {
  const columns = new Set<string>();
  for (const row of rows) for (const key of row.keys()) columns.add(key);
  return [...columns];
}

/** One header line, then one line per run; full precision; an undefined value is empty. */
export function formatTsv(report: ScoreReport): string {
  const rows = report.runs.map((run) => flattenMetrics(run.metrics));
  const columns = columnsOf(rows);
  const lines = [['run', ...columns].join('\t')];
  report.runs.forEach((run, i) => {
    lines.push([run.run, ...columns.map((c) => (rows[i].get(c) ?? '').toString())].join('\t'));
  });
  return lines.join('\n') + '\n';
}

function readable(value: Scalar | undefined): string {
  if (value === null || value === undefined) return '–';
  if (typeof value === 'number' && !Number.isInteger(value)) return value.toFixed(4);
  return String(value);
}

/** Metrics down, runs across: stays readable however many metrics a task has. */
export function formatText(report: ScoreReport): string {
  const rows = report.runs.map((run) => flattenMetrics(run.metrics));
  const columns = columnsOf(rows);
  const table = [[report.task, ...report.runs.map((r) => r.run)], ...columns.map((c) => [c, ...rows.map((row) => readable(row.get(c)))])];
  const widths = table[0].map((_, j) => Math.max(...table.map((line) => line[j].length)));
  const render = (line: string[]) =>
    line
      .map((cell, j) => (j === 0 ? cell.padEnd(widths[j]) : cell.padStart(widths[j])))
      .join('  ')
      .trimEnd();
  const lines = table.map(render);
  lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  for (const run of report.runs) {
    if (!run.droppedLinks?.length) continue;
    lines.push('', `Links not scored in ${run.run}:`, ...run.droppedLinks.map((d) => `  ${d.message}`));
  }
  return lines.join('\n') + '\n';
}

export function formatReport(report: ScoreReport, format: ReportFormat): string {
  if (format === 'tsv') return formatTsv(report);
  if (format === 'text') return formatText(report);
  return JSON.stringify(report, null, 2) + '\n';
}
