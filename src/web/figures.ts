// Figures as people read them: durations in seconds (or minutes and hours when long),
// rates in per cent, and the reliability figures of src/reliability as a definition list
// with each figure's meaning one hover or one screen-reader step away (its <abbr> title).
import { html, type SafeHtml } from './html.ts';
import type { ReliabilityFigures } from '../reliability/figures.ts';

/** 0.0042 s, 1.2 s, 4 min 10 s, 3 h 5 min; an em dash when unknown. */
export function duration(ms: number | null | undefined): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '—';
  const s = ms / 1000;
  if (s < 10) return `${s < 0.1 ? s.toFixed(3) : s.toFixed(2)} s`;
  if (s < 120) return `${s.toFixed(1)} s`;
  const min = Math.floor(s / 60);
  if (min < 120) return `${min} min ${Math.round(s - min * 60)} s`;
  return `${Math.floor(min / 60)} h ${min % 60} min`;
}

/** 0.4286 → "42.9 %"; an em dash when unknown. */
export function percent(rate: number | null | undefined): string {
  return typeof rate === 'number' && Number.isFinite(rate) ? `${(rate * 100).toFixed(1)} %` : '—';
}

export function decimal(x: number | null | undefined, digits = 1): string {
  return typeof x === 'number' && Number.isFinite(x) ? x.toFixed(digits) : '—';
}

/** A server that was tried and never answered: it fails every article it got. */
export function failsEverything(r: Pick<ReliabilityFigures, 'attempts' | 'successes'> | undefined): boolean {
  return r !== undefined && r.attempts > 0 && r.successes === 0;
}

/** The reliability figures of one server, in words and units. */
export function reliabilityList(r: ReliabilityFigures): SafeHtml {
  const rows: Array<[string, string, string]> = [
    ['Success rate', 'answers stored per finished attempt', `${percent(r.successRate)} (${r.successes} of ${r.attempts} attempts)`],
    ['Failing now', 'the latest attempt failed', r.failingNow ? 'yes' : 'no'],
    ['Mean response time', 'of the successful attempts', duration(r.artMs)],
    ['Median / 95th percentile', 'of the successful response times', `${duration(r.p50Ms)} / ${duration(r.p95Ms)}`],
    [
      'MTBF',
      'mean time between failures: between the starts of failure periods',
      r.mtbfMs === null ? (r.failurePeriods === 0 ? 'no failure yet' : 'needs two failure periods') : duration(r.mtbfMs),
    ],
    [
      'MTTR',
      'mean time to repair: how long a failure period lasted until an answer came again',
      r.mttrMs === null ? (r.failurePeriods === 0 ? 'no failure yet' : 'no failure period has ended yet') : duration(r.mttrMs),
    ],
    ['Failure periods', 'runs of failed attempts, each ended by a success', String(r.failurePeriods)],
    ['Answers per document', 'mean annotations per answered document (MAD)', decimal(r.mad)],
    ['Answered documents', 'answers stored', String(r.answeredDocuments)],
    [
      'Throughput',
      'bytes of article text per second of response time (MTDV)',
      r.mtdvBytesPerSecond === null ? '—' : `${(r.mtdvBytesPerSecond / 1024).toFixed(1)} KiB/s`,
    ],
    ['Time per annotation', 'response time per annotation (MTSA)', duration(r.mtsaMs)],
  ];
  return html`<dl class="figures reliability">${rows.map(([label, meaning, value]) => html`<div class="figure"><dt>${label} <span class="muted">— ${meaning}</span></dt><dd>${value}</dd></div>`)}</dl>`;
}
