// NORM: mentions with their concept ids scored as the two official tools of the field
// score them, rule by rule (src/scoring/README.md, "NORM"):
//
// - BC5CDR_Evaluation 0.0.3 (`eval_mention.sh`, `eval_id.sh`): sets of strings
//   `doc, start, end, type` (mention) and `doc, type, concept id` (id) for the types asked;
//   ids split on `|`, `-1` and empty dropped, a bare accession read as `MESH:` + it;
//   predictions in a document without any gold item of the evaluation are dropped before
//   counting; P = tp / (tp + fp), R = tp / (tp + fn), F = 2PR / (P + R) (0 where the tool
//   divides 0 by 0 and prints NaN).
// - NLM-Chem's `evaluate.py` (span strict / approx, identifier strict): sets of
//   `(doc, type, span, text)` (span; zero-length annotations ignored) and
//   `(doc, type, identifier)` with the `identifier` text split on `,` only; strict counts
//   the two sets; approx counts each reference annotation that overlaps any predicted span
//   of its document (any type) and each predicted one that overlaps a reference span;
//   every figure is 0 when no annotation matches.

import { prfCounts, prfFromCounts, type Prf, type PrfCounts } from './metrics.ts';

export interface NormAnnotation {
  doc: string;
  /** Characters, start inclusive, end exclusive. */
  start: number;
  end: number;
  type: string;
  /** The annotation's text (NLM-Chem's span key holds it). */
  text: string;
  /** The ids as BC5CDR's tool reads them: the id column or the `MESH` (else `OMIM`) infon, as written. */
  bc5cdrIds?: string;
  /** The ids as evaluate.py reads them: the `identifier` infon (PubTator: the id column), as written. */
  identifier?: string;
  /** BC5CDR's BioC `CompositeRole` `IndividualMention`: its ids count, its span does not. */
  individual?: boolean;
}

export interface NormScore {
  mention: PrfCounts;
  id: PrfCounts;
  span: { strict: Prf; approx: Prf };
  identifier: { strict: Prf };
}

interface NormOptions {
  /** One annotation type (both tools take one); absent: every type. */
  type?: string;
}

/** Java's division as the BC5CDR tool prints it, with 0 where it prints NaN (0/0). */

/** BC5CDR's finalizeConceptId: `-1` and empty are no id; an id without `:` is a MeSH accession. */
function bc5cdrConceptId(written: string): string | undefined {
  if (written === '' || written === '-1') return undefined;
  return written.includes(':') ? written : `MESH:${written}`;
}

/** The concept ids of an id column as BC5CDR's tool reads it: trimmed, split on `|`, each finalized. */
export function bc5cdrIds(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  return raw
    .trim()
    .split('|')
    .flatMap((part) => bc5cdrConceptId(part) ?? []);
}

// NUL cannot occur in the document ids, types or ids read from text files.
// Written out rather than joined from a list: a leaderboard builds millions of these.
const key3 = (a: string, b: string | number, c: string | number): string => `${a}\u0000${b}\u0000${c}`;
const key4 = (a: string, b: string | number, c: string | number, d: string | number): string => `${a}\u0000${b}\u0000${c}\u0000${d}`;
const docOf = (k: string): string => k.slice(0, k.indexOf('\u0000'));

/** Counts of two key sets: matched, predicted (kept), gold. */
interface SetCounts {
  tp: number;
  predicted: number;
  gold: number;
}

/** eval_mention / eval_id: counts of two key sets after dropping predictions in documents without gold keys. */
function bc5cdrCounts(gold: ReadonlySet<string>, predicted: ReadonlySet<string>): SetCounts {
  const goldDocs = new Set([...gold].map(docOf));
  const kept = [...predicted].filter((k) => goldDocs.has(docOf(k)));
  return { tp: kept.filter((k) => gold.has(k)).length, predicted: kept.length, gold: gold.size };
}

const ofType = (annotations: readonly NormAnnotation[], type: string | undefined): NormAnnotation[] =>
  type === undefined ? [...annotations] : annotations.filter((a) => a.type === type);

function mentionKeys(annotations: readonly NormAnnotation[]): Set<string> {
  const keys = new Set<string>();
  for (const a of annotations) if (!a.individual) keys.add(key4(a.doc, a.start, a.end, a.type));
  return keys;
}

function idKeys(annotations: readonly NormAnnotation[]): Set<string> {
  const keys = new Set<string>();
  for (const a of annotations) if (a.bc5cdrIds !== undefined) for (const id of bc5cdrIds(a.bc5cdrIds)) keys.add(key3(a.doc, a.type, id));
  return keys;
}

/** evaluate.py's strict counts of two key sets. */
function strictCounts(gold: ReadonlySet<string>, predicted: ReadonlySet<string>): SetCounts {
  return { tp: [...predicted].filter((k) => gold.has(k)).length, predicted: predicted.size, gold: gold.size };
}

interface SpanAnnotation {
  key: string;
  doc: string;
  start: number;
  end: number;
}

/** evaluate.py's span set: zero-length annotations ignored, one entry per (doc, type, span, text). */
function spanSet(annotations: readonly NormAnnotation[]): SpanAnnotation[] {
  const set = new Map<string, SpanAnnotation>();
  for (const a of annotations) {
    if (a.end - a.start === 0) continue;
    const k = `${key4(a.doc, a.type, a.start, a.end)}\u0000${a.text}`;
    if (!set.has(k)) set.set(k, { key: k, doc: a.doc, start: a.start, end: a.end });
  }
  return [...set.values()];
}

/** How many of `side` overlap some span of `other` in the same document (any type). */
function overlapping(side: readonly SpanAnnotation[], other: readonly SpanAnnotation[]): number {
  const byDoc = new Map<string, SpanAnnotation[]>();
  for (const o of other) {
    const list = byDoc.get(o.doc);
    if (list) list.push(o);
    else byDoc.set(o.doc, [o]);
  }
  return side.filter((a) => (byDoc.get(a.doc) ?? []).some((o) => a.start < o.end && o.start < a.end)).length;
}

/** evaluate.py's approx counts: gold spans overlapped (tp1), predicted spans overlapping (tp2), and both sides' sizes. */
interface ApproxCounts {
  tp1: number;
  tp2: number;
  predicted: number;
  gold: number;
}

function approxCounts(gold: readonly SpanAnnotation[], predicted: readonly SpanAnnotation[]): ApproxCounts {
  return { tp1: overlapping(gold, predicted), tp2: overlapping(predicted, gold), predicted: predicted.length, gold: gold.length };
}

function approxResult(c: ApproxCounts): Prf {
  if (c.tp1 + c.tp2 === 0) return { p: 0, r: 0, f: 0 };
  const p = c.tp2 / c.predicted;
  const r = c.tp1 / c.gold;
  return { p, r, f: (2.0 * p * r) / (p + r) };
}

function identifierSet(annotations: readonly NormAnnotation[]): Set<string> {
  const keys = new Set<string>();
  for (const a of annotations) if (a.identifier !== undefined) for (const id of a.identifier.split(',')) keys.add(key3(a.doc, a.type, id));
  return keys;
}

/**
 * The counts every NORM figure comes from. Every key holds its document and no count
 * crosses one, so the tallies of disjoint sets of documents add up to the tally of their
 * union (leaderboards score a million documents page by page that way).
 */
export interface NormTally {
  mention: SetCounts;
  id: SetCounts;
  spanStrict: SetCounts;
  spanApprox: ApproxCounts;
  identifier: SetCounts;
}

export function emptyNormTally(): NormTally {
  const none = () => ({ tp: 0, predicted: 0, gold: 0 });
  return { mention: none(), id: none(), spanStrict: none(), spanApprox: { tp1: 0, tp2: 0, predicted: 0, gold: 0 }, identifier: none() };
}

/** The counts of one run against the gold. */
export function tallyNorm(gold: readonly NormAnnotation[], run: readonly NormAnnotation[], options: NormOptions = {}): NormTally {
  const g = ofType(gold, options.type);
  const r = ofType(run, options.type);
  const goldSpans = spanSet(g);
  const runSpans = spanSet(r);
  return {
    mention: bc5cdrCounts(mentionKeys(g), mentionKeys(r)),
    id: bc5cdrCounts(idKeys(g), idKeys(r)),
    spanStrict: strictCounts(new Set(goldSpans.map((s) => s.key)), new Set(runSpans.map((s) => s.key))),
    spanApprox: approxCounts(goldSpans, runSpans),
    identifier: strictCounts(identifierSet(g), identifierSet(r)),
  };
}

/** Adds `from`'s counts to `into`. */
export function addNormTally(into: NormTally, from: NormTally): NormTally {
  for (const part of ['mention', 'id', 'spanStrict', 'identifier'] as const) {
    into[part].tp += from[part].tp;
    into[part].predicted += from[part].predicted;
    into[part].gold += from[part].gold;
  }
  into.spanApprox.tp1 += from.spanApprox.tp1;
  into.spanApprox.tp2 += from.spanApprox.tp2;
  into.spanApprox.predicted += from.spanApprox.predicted;
  into.spanApprox.gold += from.spanApprox.gold;
  return into;
}

// evaluate.py's calculate_evaluation_result (all 0 without a true positive) and BC5CDR's
// doubles are prfFromCounts's arithmetic: tp/(tp+fp), tp/(tp+fn), 2PR/(P+R), 0 where undefined.
const countsOfSets = (c: SetCounts): PrfCounts => prfCounts(c.tp, c.predicted - c.tp, c.gold - c.tp);
const prfOfSets = (c: SetCounts): Prf => prfFromCounts(c.tp, c.predicted - c.tp, c.gold - c.tp);

/** The NORM figures of a tally. */
export function normScoreOf(t: NormTally): NormScore {
  return {
    mention: countsOfSets(t.mention),
    id: countsOfSets(t.id),
    span: { strict: prfOfSets(t.spanStrict), approx: approxResult(t.spanApprox) },
    identifier: { strict: prfOfSets(t.identifier) },
  };
}

/** Every NORM figure of one run against the gold. */
export function scoreNorm(gold: readonly NormAnnotation[], run: readonly NormAnnotation[], options: NormOptions = {}): NormScore {
  return normScoreOf(tallyNorm(gold, run, options));
}

/**
 * Mentions whose ids are stored (`NS:accession`, brat N lines, online answers) as both
 * tools would read a file that writes each id in that form: one id per `|` (BC5CDR) and per
 * `,` (evaluate.py); a mention without ids has no id column (not `-1`).
 */
export function storedNormAnnotation(m: {
  doc: string;
  start: number;
  end: number;
  type: string;
  text?: string;
  ids?: readonly string[];
}): NormAnnotation {
  const ids = m.ids && m.ids.length > 0 ? m.ids : undefined;
  return {
    doc: m.doc,
    start: m.start,
    end: m.end,
    type: m.type,
    text: m.text ?? '',
    bc5cdrIds: ids?.join('|'),
    identifier: ids?.join(','),
  };
}
