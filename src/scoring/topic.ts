// Multi-label document topics, scored as the LitCovid track's evaluation script
// (BioCreative VII track 5) scores them: sklearn's `classification_report` over the
// label columns (per label, micro, macro, weighted and samples averages, sklearn 0.24.2's
// zero-division rules) and the script's own instance-based P/R/F1. See README.md,
// "TOPIC: the official script's rules", for each rule and where it comes from.

import { ScoringInputError } from './errors.ts';
import { f1, safeRatio } from './metrics.ts';

/** One document's topics: the labels it has (gold) or predicts (a run), with confidences if given. */
export interface TopicDoc {
  labels: Set<string>;
  /** A run's probability per label (the official prediction form); absent: list forms. */
  confidence?: Map<string, number>;
  line: number;
}

/** A gold standard or run read from a file: its label set and its documents in file order. */
export interface TopicSet {
  /** The label columns in order (the wide form's header, or the label set the caller gave). */
  labels: string[];
  docs: Map<string, TopicDoc>;
  /** Which form the file had, for messages. */
  form: 'wide' | 'list';
}

export interface TopicReadOptions {
  file?: string;
  /** gold: 0/1 cells; run: probabilities, a label predicted when its value is > 0.5. */
  role: 'gold' | 'run';
  /** The label set for list forms (they do not name it); the wide form's header names its own. */
  labels: readonly string[];
}

/** A probability above this predicts the label (the script: `preds > threshold`, 0.5). */
const TOPIC_THRESHOLD = 0.5;

// ── reading ────────────────────────────────────────────────────────────────────────────

/** Splits one CSV/TSV line; a field wholly in double quotes loses them ("" → "). */
function splitFields(line: string, delimiter: string): string[] {
  if (!line.includes('"')) return line.split(delimiter);
  const fields: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let value = '';
      let j = i + 1;
      for (;;) {
        const q = line.indexOf('"', j);
        if (q < 0) throw new Error('unclosed quote');
        value += line.slice(j, q);
        if (line[q + 1] === '"') {
          value += '"';
          j = q + 2;
        } else {
          j = q + 1;
          break;
        }
      }
      fields.push(value);
      i = j + 1;
    } else {
      const next = line.indexOf(delimiter, i);
      const end = next < 0 ? line.length : next;
      fields.push(line.slice(i, end));
      i = end + 1;
    }
  }
  return fields;
}

const LIST_HEADER = /^(pmid|docid|id)$/i;

/**
 * Reads topics in any of the accepted forms, told apart by the first line:
 * - the official form (wide): a header `PMID,<label>,…` naming the label set, then one row
 *   per document of 0/1 (gold) or probabilities (runs), comma- or tab-separated;
 * - the LitCovid list form: `PMID,label;label` (or TAB-separated), one row per document, an
 *   empty label field for none, optionally under a header `PMID,label`.
 */
export function readTopics(text: string, o: TopicReadOptions): TopicSet {
  const file = o.file;
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1].trim() === '') lines.pop();
  if (lines.length === 0) throw new ScoringInputError('the file is empty', { file, hint: 'write one line per document: PMID,label;label' });
  const delimiter = lines[0].includes('\t') ? '\t' : ',';
  const fieldsOf = (lineNo: number): string[] => {
    try {
      return splitFields(lines[lineNo - 1], delimiter);
    } catch {
      throw new ScoringInputError('a quoted field is not closed', { file, line: lineNo, hint: 'close the double quote' });
    }
  };
  const first = fieldsOf(1);
  if (first[0] === 'PMID' && first.length > 2) return readWide(first, lines.length, fieldsOf, o);
  const headerLines = LIST_HEADER.test(first[0].trim()) && first.length === 2 && /^labels?$/i.test(first[1].trim()) ? 1 : 0;
  return readList(headerLines, lines.length, fieldsOf, o);
}

type FieldsOf = (line: number) => string[];

function readWide(header: string[], count: number, fieldsOf: FieldsOf, o: TopicReadOptions): TopicSet {
  const file = o.file;
  const labels = header.slice(1);
  const seen = new Set<string>();
  for (const label of labels) {
    if (label === '' || seen.has(label)) {
      throw new ScoringInputError(label === '' ? 'the header has an empty label column' : `the header names "${label}" twice`, {
        file,
        line: 1,
        hint: 'name each label column once: PMID,<label>,<label>,…',
      });
    }
    seen.add(label);
  }
  const docs = new Map<string, TopicDoc>();
  for (let line = 2; line <= count; line++) {
    const fields = fieldsOf(line);
    if (fields.length !== header.length) {
      throw new ScoringInputError(`expected ${header.length} fields (PMID and ${labels.length} labels), found ${fields.length}`, {
        file,
        line,
        hint: 'give every label column a value',
      });
    }
    const id = checkId(fields[0], docs, file, line);
    const doc: TopicDoc = { labels: new Set(), line };
    if (o.role === 'run') doc.confidence = new Map();
    labels.forEach((label, k) => {
      const raw = fields[k + 1].trim();
      if (o.role === 'gold') {
        if (raw !== '0' && raw !== '1')
          throw new ScoringInputError(`"${label}" is "${raw}", not 0 or 1`, {
            file,
            line,
            hint: 'gold cells are 1 (the topic is present) or 0',
          });
        if (raw === '1') doc.labels.add(label);
      } else {
        const value = raw === '' ? NaN : Number(raw);
        if (!Number.isFinite(value))
          throw new ScoringInputError(`"${label}" is "${raw}", not a number`, {
            file,
            line,
            hint: 'prediction cells are probabilities; a label is predicted when above 0.5',
          });
        doc.confidence!.set(label, value);
        if (value > TOPIC_THRESHOLD) doc.labels.add(label);
      }
    });
    docs.set(id, doc);
  }
  return { labels, docs, form: 'wide' };
}

function readList(headerLines: number, count: number, fieldsOf: FieldsOf, o: TopicReadOptions): TopicSet {
  const file = o.file;
  const known = new Set(o.labels);
  const docs = new Map<string, TopicDoc>();
  for (let line = headerLines + 1; line <= count; line++) {
    const fields = fieldsOf(line);
    if (fields.length !== 2) {
      throw new ScoringInputError(`expected 2 fields (PMID, labels), found ${fields.length}`, {
        file,
        line,
        hint: 'write PMID,label;label — or the wide form PMID,<label>,… with a header',
      });
    }
    const id = checkId(fields[0], docs, file, line);
    const doc: TopicDoc = { labels: new Set(), line };
    for (const raw of fields[1].split(';')) {
      const label = raw.trim();
      if (label === '') continue;
      if (!known.has(label))
        throw new ScoringInputError(`unknown label "${label}"`, { file, line, hint: `the labels are ${o.labels.join(', ')}` });
      if (doc.labels.has(label))
        throw new ScoringInputError(`"${label}" is given twice`, { file, line, hint: 'list each label of a document once' });
      doc.labels.add(label);
    }
    docs.set(id, doc);
  }
  return { labels: [...o.labels], docs, form: 'list' };
}

function checkId(raw: string, docs: Map<string, TopicDoc>, file: string | undefined, line: number): string {
  const id = raw.trim();
  if (id === '') throw new ScoringInputError('the PMID is empty', { file, line, hint: 'start each line with the document id' });
  const before = docs.get(id);
  if (before)
    throw new ScoringInputError(`PMID ${id} is given twice (first on line ${before.line})`, {
      file,
      line,
      hint: 'give each document one line',
    });
  return id;
}

// ── scoring ────────────────────────────────────────────────────────────────────────────

export interface TopicPrf {
  p: number;
  r: number;
  f: number;
}

export interface TopicLabelScore extends TopicPrf {
  /** Gold documents with the label (sklearn's support). */
  support: number;
}

export interface TopicScore {
  /** classification_report's averages: label-based micro and macro, support-weighted, per sample. */
  micro: TopicPrf;
  macro: TopicPrf;
  weighted: TopicPrf;
  samples: TopicPrf;
  /** The script's instance-based measures: means rounded to 4 digits, F1 of the rounded means. */
  instance: TopicPrf;
  perLabel: Record<string, TopicLabelScore>;
  /** Gold labels in all (the report's support of every average line). */
  support: number;
  documents: number;
  /** Gold documents the run had no line for (scored as predicting no label; `missing: 'none'`). */
  missing: number;
}

export interface TopicScoreOptions {
  /**
   * A gold document the run lacks, or a run document the gold lacks: 'refuse' as the
   * script does (it requires the same PMIDs), or 'none': the missing document predicts no
   * label and extra ones are ignored (online runs, where a server may not answer).
   */
  missing: 'refuse' | 'none';
  /** Named in errors. */
  runFile?: string;
}

/**
 * numpy's sum of float64 (`np.add.reduce`): pairwise summation in blocks of 8 accumulators,
 * so that means come out to the last bit as the script's `np.mean` gives them.
 */
function numpySum(values: readonly number[]): number {
  return pairwise(values, 0, values.length);
}

function pairwise(a: readonly number[], start: number, n: number): number {
  if (n < 8) {
    let res = 0;
    for (let i = 0; i < n; i++) res += a[start + i];
    return res;
  }
  if (n <= 128) {
    const r = [a[start], a[start + 1], a[start + 2], a[start + 3], a[start + 4], a[start + 5], a[start + 6], a[start + 7]];
    let i = 8;
    for (; i < n - (n % 8); i += 8) for (let j = 0; j < 8; j++) r[j] += a[start + i + j];
    let res = r[0] + r[1] + (r[2] + r[3]) + (r[4] + r[5] + (r[6] + r[7]));
    for (; i < n; i++) res += a[start + i];
    return res;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return pairwise(a, start, n2) + pairwise(a, start + n2, n - n2);
}

export function numpyMean(values: readonly number[]): number {
  return numpySum(values) / values.length;
}

/** numpy's `round(x, 4)` on a float64: x·10⁴ rounded half to even, divided by 10⁴. */
export function numpyRound(x: number, digits: number): number {
  const scale = 10 ** digits;
  return roundHalfEven(x * scale) / scale;
}

function roundHalfEven(y: number): number {
  const floor = Math.floor(y);
  const diff = y - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** sklearn 0.24.2: P and R are 0 where their denominator is 0; F = 2PR/(P+R), 0 where P+R = 0. */
function prf(tp: number, predicted: number, gold: number): TopicPrf {
  const p = safeRatio(tp, predicted);
  const r = safeRatio(tp, gold);
  return { p, r, f: f1(p, r) };
}

/** np.average(values, weights): Σ(v·w) / Σw, numpy's summation. */
function weightedAverage(values: number[], weights: number[]): number {
  return numpySum(values.map((v, i) => v * weights[i])) / numpySum(weights);
}

export function scoreTopics(gold: TopicSet, run: TopicSet, o: TopicScoreOptions): TopicScore {
  const labels = gold.labels;
  checkRunAgainstGold(gold, run, o);
  // The script sorts both tables by PMID and pairs rows by position; with the same PMIDs
  // that pairs each document with itself. The per-document values are collected in that
  // sorted order so that numpy's pairwise summation adds them in the same sequence.
  const ids = [...gold.docs.keys()].sort(comparePmids);
  const k = labels.length;
  const tp = new Array<number>(k).fill(0);
  const predicted = new Array<number>(k).fill(0);
  const support = new Array<number>(k).fill(0);
  const sampleP: number[] = [];
  const sampleR: number[] = [];
  const sampleF: number[] = [];
  const instanceP: number[] = [];
  const instanceR: number[] = [];
  let missing = 0;
  for (const id of ids) {
    const g = gold.docs.get(id)!.labels;
    const runDoc = run.docs.get(id);
    if (!runDoc) missing++;
    const p = runDoc?.labels ?? new Set<string>();
    let both = 0;
    labels.forEach((label, j) => {
      const inGold = g.has(label);
      const inRun = p.has(label);
      if (inGold) support[j]++;
      if (inRun) predicted[j]++;
      if (inGold && inRun) {
        tp[j]++;
        both++;
      }
    });
    const s = prf(both, p.size, g.size);
    sampleP.push(s.p);
    sampleR.push(s.r);
    sampleF.push(s.f);
    // The script's own rule: nothing in gold or prediction counts as P = R = 1; no overlap 0.
    if (g.size === 0 && p.size === 0) {
      instanceP.push(1);
      instanceR.push(1);
    } else if (both === 0) {
      instanceP.push(0);
      instanceR.push(0);
    } else {
      instanceP.push(both / p.size);
      instanceR.push(both / g.size);
    }
  }
  const perLabel: Record<string, TopicLabelScore> = {};
  const perLabelPrf = labels.map((label, j) => {
    const s = prf(tp[j], predicted[j], support[j]);
    perLabel[label] = { ...s, support: support[j] };
    return s;
  });
  const totalSupport = numpySum(support);
  const micro = prf(numpySum(tp), numpySum(predicted), totalSupport);
  const macro = {
    p: numpyMean(perLabelPrf.map((s) => s.p)),
    r: numpyMean(perLabelPrf.map((s) => s.r)),
    f: numpyMean(perLabelPrf.map((s) => s.f)),
  };
  let weighted: TopicPrf;
  if (totalSupport === 0) {
    // sklearn 0.24.2 with zero_division "warn": all 0 (F is 0 too when something was predicted).
    weighted = { p: 0, r: 0, f: 0 };
  } else {
    weighted = {
      p: weightedAverage(
        perLabelPrf.map((s) => s.p),
        support,
      ),
      r: weightedAverage(
        perLabelPrf.map((s) => s.r),
        support,
      ),
      f: weightedAverage(
        perLabelPrf.map((s) => s.f),
        support,
      ),
    };
  }
  const samples = { p: numpyMean(sampleP), r: numpyMean(sampleR), f: numpyMean(sampleF) };
  const ip = numpyRound(numpyMean(instanceP), 4);
  const ir = numpyRound(numpyMean(instanceR), 4);
  // The script divides by P + R unguarded (numpy: nan); 0 here, see README.md.
  const instance = { p: ip, r: ir, f: ip + ir === 0 ? 0 : numpyRound((2 * ip * ir) / (ip + ir), 4) };
  return { micro, macro, weighted, samples, instance, perLabel, support: totalSupport, documents: ids.length, missing };
}

/** PMIDs in the script's order: pandas sorts integer PMIDs numerically; others as strings. */
function comparePmids(a: string, b: string): number {
  const numeric = /^\d+$/;
  if (numeric.test(a) && numeric.test(b)) return Number(a) - Number(b) || (a < b ? -1 : a > b ? 1 : 0);
  return a < b ? -1 : a > b ? 1 : 0;
}

function checkRunAgainstGold(gold: TopicSet, run: TopicSet, o: TopicScoreOptions): void {
  const file = o.runFile;
  if (run.form === 'wide' && (run.labels.length !== gold.labels.length || run.labels.some((l, i) => l !== gold.labels[i]))) {
    throw new ScoringInputError(`the header must be PMID,${gold.labels.join(',')} (the gold standard's labels, in its order)`, {
      file,
      line: 1,
      hint: 'write the label columns as the gold standard has them',
    });
  }
  if (run.form === 'list') {
    const known = new Set(gold.labels);
    for (const [id, doc] of run.docs) {
      for (const label of doc.labels) {
        if (!known.has(label))
          throw new ScoringInputError(`document ${id}: "${label}" is not a label of the gold standard`, {
            file,
            line: doc.line,
            hint: `the labels are ${gold.labels.join(', ')}`,
          });
      }
    }
  }
  if (o.missing === 'none') return;
  const absent = [...gold.docs.keys()].filter((id) => !run.docs.has(id));
  const extra = [...run.docs.keys()].filter((id) => !gold.docs.has(id));
  if (absent.length > 0 || extra.length > 0) {
    const parts = [];
    if (absent.length > 0)
      parts.push(
        `${absent.length} gold PMID${absent.length === 1 ? '' : 's'} missing (${absent.slice(0, 5).join(', ')}${absent.length > 5 ? ', …' : ''})`,
      );
    if (extra.length > 0)
      parts.push(
        `${extra.length} PMID${extra.length === 1 ? '' : 's'} not in the gold standard (${extra.slice(0, 5).join(', ')}${extra.length > 5 ? ', …' : ''})`,
      );
    throw new ScoringInputError(`the run must have the gold standard's PMIDs, as the official script requires: ${parts.join('; ')}`, {
      file,
      hint: 'give one line per gold document (all labels 0 when predicting none)',
    });
  }
}

// ── the script's report ────────────────────────────────────────────────────────────────

/**
 * Python's `format(x, '.Nf')`: the exact binary value rounded half to even (JavaScript's
 * toFixed rounds an exact tie up, as 0.03125 → 0.0313 where Python prints 0.0312).
 */
export function pythonFixed(x: number, digits: number): string {
  const exact = x.toFixed(100);
  const point = exact.indexOf('.');
  const rest = exact.slice(point + 1 + digits);
  if (/^50*$/.test(rest)) {
    const down = exact.slice(0, point + 1 + digits);
    const last = Number(down[down.length - 1]);
    if (last % 2 === 0) return down;
  }
  return x.toFixed(digits);
}

/** The figures as the script prints them (classification_report with digits=4, then the instance lines). */
export function officialReport(score: TopicScore, labels: readonly string[]): string {
  const names = [...labels, 'micro avg', 'macro avg', 'weighted avg', 'samples avg'];
  const width = Math.max(...names.map((n) => n.length), 'weighted avg'.length, 4);
  const row = (name: string, s: TopicPrf, support: number): string =>
    `${name.padStart(width)} ${[s.p, s.r, s.f].map((v) => ` ${pythonFixed(v, 4).padStart(9)}`).join('')} ${String(support).padStart(9)}\n`;
  let out = `${''.padStart(width)} ${['precision', 'recall', 'f1-score', 'support'].map((h) => ` ${h.padStart(9)}`).join('')}\n\n`;
  for (const label of labels) out += row(label, score.perLabel[label], score.perLabel[label].support);
  out += '\n';
  out += row('micro avg', score.micro, score.support);
  out += row('macro avg', score.macro, score.support);
  out += row('weighted avg', score.weighted, score.support);
  out += row('samples avg', score.samples, score.support);
  return out;
}
