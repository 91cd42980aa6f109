// Reliability figures of one annotation server (BeCalm TIPS), computed from its attempts and
// answers by a pure function, so every figure can be checked by hand. Definitions, units and
// edge cases are in README.md next to this file.

export interface AttemptRow {
  /** When the request was sent (epoch ms). */
  startedAt: number;
  /** How long it took; null while it is still running. */
  ms: number | null;
  /** null while running; 'interrupted' (our worker stopped) and 'released' (the agent gave the lease back) attempts are ignored. */
  outcome: string | null;
}

export interface AnswerRow {
  /** Annotations in the stored answer (see README.md for what counts as one). */
  annotations: number;
  /** UTF-8 bytes of the article text. */
  textBytes: number;
  /** Response time of the successful attempt. */
  ms: number;
}

export interface ReliabilityFigures {
  attempts: number;
  successes: number;
  failures: number;
  /** successes / attempts, 0..1; null without attempts. */
  successRate: number | null;
  /** Number of failure periods (see README.md); the last may still be open. */
  failurePeriods: number;
  /** Mean time between the starts of consecutive failure periods, ms; null with fewer than 2. */
  mtbfMs: number | null;
  /** Mean duration of the failure periods that ended, ms; null if none ended. */
  mttrMs: number | null;
  /** True when the latest attempt failed (a failure period is open now). */
  failingNow: boolean;
  /** Average response time of successful attempts, ms. */
  artMs: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  /** Mean annotations per answered document. */
  mad: number | null;
  /** Mean time per document volume, as throughput: bytes of article text per second of response time. */
  mtdvBytesPerSecond: number | null;
  /** Mean time seek annotations: ms of response time per annotation. */
  mtsaMs: number | null;
  answeredDocuments: number;
}

/** Outcomes that are nobody's failure: our worker stopped mid-request, or a pull server's agent gave the lease back. */
const NOT_COUNTED = new Set(['interrupted', 'released']);

const round = (x: number, digits = 3): number => Number(x.toFixed(digits));

/** Linear interpolation between closest ranks (PostgreSQL's percentile_cont), on sorted values. */
export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const pos = (sorted.length - 1) * p;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

export function reliabilityFigures(attemptRows: AttemptRow[], answers: AnswerRow[]): ReliabilityFigures {
  const finished = attemptRows
    .filter((a) => a.outcome !== null && !NOT_COUNTED.has(a.outcome) && a.ms !== null)
    .sort((a, b) => a.startedAt - b.startedAt);
  const ok = finished.filter((a) => a.outcome === 'ok');
  const times = ok.map((a) => a.ms!).sort((x, y) => x - y);

  // Failure periods: from the start of a failed attempt that follows a success (or opens the
  // record) to the end of the next successful attempt, when the server was seen working again.
  const starts: number[] = [];
  const repairs: number[] = [];
  let openSince: number | null = null;
  for (const a of finished) {
    if (a.outcome === 'ok') {
      if (openSince !== null) repairs.push(a.startedAt + a.ms! - openSince);
      openSince = null;
    } else if (openSince === null) {
      openSince = a.startedAt;
      starts.push(a.startedAt);
    }
  }
  const gaps = starts.slice(1).map((s, i) => s - starts[i]);
  const mean = (xs: number[]): number | null => (xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length);
  const opt = (x: number | null, digits?: number): number | null => (x === null ? null : round(x, digits));

  const annotations = answers.reduce((s, a) => s + a.annotations, 0);
  const textBytes = answers.reduce((s, a) => s + a.textBytes, 0);
  const answerMs = answers.reduce((s, a) => s + a.ms, 0);

  return {
    attempts: finished.length,
    successes: ok.length,
    failures: finished.length - ok.length,
    successRate: finished.length === 0 ? null : round(ok.length / finished.length, 4),
    failurePeriods: starts.length,
    mtbfMs: opt(mean(gaps), 1),
    mttrMs: opt(mean(repairs), 1),
    failingNow: openSince !== null,
    artMs: opt(mean(times), 1),
    p50Ms: opt(percentile(times, 0.5), 1),
    p95Ms: opt(percentile(times, 0.95), 1),
    mad: answers.length === 0 ? null : round(annotations / answers.length),
    mtdvBytesPerSecond: answerMs === 0 ? null : round(textBytes / (answerMs / 1000), 1),
    mtsaMs: annotations === 0 ? null : round(answerMs / annotations),
    answeredDocuments: answers.length,
  };
}
