// Entity mention scoring as the JNLPBA-2004 evaluation (adapted for AnEM) counts it:
// micro P/R/F over mentions, overall and per type, under strict, left-boundary and
// right-boundary match. Multi-class: the type must match too. Single-class: types are
// ignored when matching (they still decided where mentions begin and end when parsing).
//
// P = responses that match some gold mention / responses; R = gold mentions matched by
// some response / gold mentions. Each side is a set, as BC5CDR's evaluation (a set of
// document, span, type) and conlleval (one chunk per span) count: a mention given twice
// (same document, span and type) counts once, in the gold and in a run alike, so a repeat
// is neither a second true positive nor a false positive (duplicateMentionWarnings names
// them). On flat annotation matching is one-to-one; with nested spans (left or right
// match), or one span under two types in single-class mode, the two sides may differ, so
// tp counts the response side and fn the gold side, and F comes from P and R (not from
// the counts).

import { f1, safeRatio } from './metrics.ts';
import { compareIds } from './ranking.ts';
import type { DocumentCounts } from './significance.ts';

export interface Mention {
  /** Matching never crosses documents. */
  doc: string;
  /** Start inclusive, end exclusive (characters for standoff, tokens for BIO). */
  start: number;
  end: number;
  type: string;
  /** Concept ids (`NS:accession`, src/tasks/concept-ids.ts) when the file carries them (brat N lines, corpus id columns). */
  ids?: string[];
}

export type MatchCriterion = 'strict' | 'left' | 'right';
export const MATCH_CRITERIA: readonly MatchCriterion[] = ['strict', 'left', 'right'];

export interface MentionCounts {
  tp: number;
  fp: number;
  fn: number;
  p: number;
  r: number;
  f: number;
}

export type CriteriaCounts = Record<MatchCriterion, MentionCounts>;

export interface MentionScore extends CriteriaCounts {
  /** By gold type (recall side) and response type (precision side). */
  perType: Record<string, CriteriaCounts>;
}

export interface MentionScoreOptions {
  singleClass?: boolean;
}

// NUL cannot occur in document ids or type names read from text files.
function keyOf(mention: Mention, criterion: MatchCriterion, withType: boolean): string {
  const boundary =
    criterion === 'strict'
      ? `${mention.start}\u0000${mention.end}`
      : criterion === 'left'
        ? `${mention.start}\u0000`
        : `\u0000${mention.end}`;
  return withType ? `${mention.doc}\u0000${boundary}\u0000${mention.type}` : `${mention.doc}\u0000${boundary}`;
}

function countsOf(matchedResponses: number, responses: number, matchedGold: number, gold: number): MentionCounts {
  const p = safeRatio(matchedResponses, responses);
  const r = safeRatio(matchedGold, gold);
  return { tp: matchedResponses, fp: responses - matchedResponses, fn: gold - matchedGold, p, r, f: f1(p, r) };
}

/** Counts of one type under one criterion: responses that match / all, gold matched / all. */
interface Tally {
  matchedResponses: number;
  responses: number;
  matchedGold: number;
  gold: number;
}

/**
 * The counts every figure comes from, by criterion then type: sums over documents (matching
 * never crosses one), so the tallies of disjoint sets of documents add up to the tally of
 * their union (leaderboards score a million documents page by page that way).
 */
export type MentionTally = Record<MatchCriterion, Map<string, Tally>>;

export function emptyMentionTally(): MentionTally {
  return { strict: new Map(), left: new Map(), right: new Map() };
}

function tallyOf(tally: Map<string, Tally>, type: string): Tally {
  let t = tally.get(type);
  if (!t) tally.set(type, (t = { matchedResponses: 0, responses: 0, matchedGold: 0, gold: 0 }));
  return t;
}

/** Whether two mentions of one document match under the criterion (what keyOf's equality says, without building keys). */
function matcher(criterion: MatchCriterion, withType: boolean): (a: Mention, b: Mention) => boolean {
  const bounds =
    criterion === 'strict'
      ? (a: Mention, b: Mention) => a.start === b.start && a.end === b.end
      : criterion === 'left'
        ? (a: Mention, b: Mention) => a.start === b.start
        : (a: Mention, b: Mention) => a.end === b.end;
  return withType ? (a, b) => bounds(a, b) && a.type === b.type : bounds;
}

/** What makes two mentions one: document, span and type (whatever the criterion or mode). */
const identityOf = (m: Mention): string => `${m.doc}\u0000${m.start}\u0000${m.end}\u0000${m.type}`;

/** Each document's mentions, a mention given again (same span and type) left out: the side as a set. */
function byDocument(mentions: readonly Mention[]): Map<string, Mention[]> {
  const byDoc = new Map<string, Mention[]>();
  const seen = new Set<string>();
  for (const m of mentions) {
    const identity = identityOf(m);
    if (seen.has(identity)) continue;
    seen.add(identity);
    const list = byDoc.get(m.doc);
    if (list) list.push(m);
    else byDoc.set(m.doc, [m]);
  }
  return byDoc;
}

/** A mention given more than once, and how many times. */
export interface RepeatedMention {
  mention: Mention;
  times: number;
}

/** The mentions given more than once (same document, span and type), in the order they first occur. */
export function repeatedMentions(mentions: readonly Mention[]): RepeatedMention[] {
  const counts = new Map<string, RepeatedMention>();
  for (const m of mentions) {
    const identity = identityOf(m);
    const seen = counts.get(identity);
    if (seen) seen.times++;
    else counts.set(identity, { mention: m, times: 1 });
  }
  return [...counts.values()].filter((r) => r.times > 1);
}

/** How many repeated mentions a warning lists one by one; the rest are counted. */
const LISTED_REPEATS = 5;

/**
 * The warning for a gold standard or run that gives a mention more than once (none when
 * it does not): which mentions (the first few, and how many in all) and how they count.
 * `what` names the file or upload ("gold.pubtator", "run").
 */
export function duplicateMentionWarnings(what: string, mentions: readonly Mention[]): string[] {
  const repeated = repeatedMentions(mentions);
  if (repeated.length === 0) return [];
  const listed = repeated
    .slice(0, LISTED_REPEATS)
    // A single .ann or BIO file has one document without a name.
    .map(
      ({ mention: m, times }) =>
        `${m.doc === '' ? '' : `document ${JSON.stringify(m.doc)} `}[${m.start}, ${m.end}) ${m.type} (${times} times)`,
    );
  const more = repeated.length > LISTED_REPEATS ? `, and ${repeated.length - LISTED_REPEATS} more` : '';
  return [
    `${what}: ${repeated.length} mention(s) given more than once (same document, span and type): ${listed.join(', ')}${more}. ` +
      "Each counts once, in gold and runs alike (as BC5CDR's evaluation and conlleval count): a repeat in a run is neither a second " +
      'true positive nor a false positive. Remove the repeats, or give each its own span or type if they are different mentions',
  ];
}

/** Above this many comparisons a document's mentions are matched through key sets rather than pairwise. */
const PAIRWISE_LIMIT = 1024;

/** How many of `side` match some mention of `other` (one document), each counted under its type in `tally`. */
function countSide(
  side: readonly Mention[],
  other: readonly Mention[],
  criterion: MatchCriterion,
  withType: boolean,
  add: (m: Mention, matched: boolean) => void,
): void {
  if (side.length * other.length <= PAIRWISE_LIMIT) {
    const same = matcher(criterion, withType);
    for (const m of side)
      add(
        m,
        other.some((o) => same(m, o)),
      );
    return;
  }
  const keys = new Set(other.map((o) => keyOf(o, criterion, withType)));
  for (const m of side) add(m, keys.has(keyOf(m, criterion, withType)));
}

/**
 * Adds the counts of `gold` against `response` to `into` (a new tally when absent); returns
 * it. Each side is taken as a set (a mention given twice counts once). Mentions match within
 * their document only, so each document's are compared among themselves: pairwise for the
 * few mentions of an abstract, through key sets for long lists. A repeat always lies in its
 * original's document, so tallies of disjoint sets of documents still add up.
 */
export function tallyMentions(
  gold: readonly Mention[],
  response: readonly Mention[],
  options: MentionScoreOptions = {},
  into: MentionTally = emptyMentionTally(),
): MentionTally {
  const withType = !options.singleClass;
  const goldByDoc = byDocument(gold);
  const responseByDoc = byDocument(response);
  for (const criterion of MATCH_CRITERIA) {
    const tally = into[criterion];
    const addResponse = (m: Mention, matched: boolean) => {
      const t = tallyOf(tally, m.type);
      t.responses++;
      if (matched) t.matchedResponses++;
    };
    const addGold = (m: Mention, matched: boolean) => {
      const t = tallyOf(tally, m.type);
      t.gold++;
      if (matched) t.matchedGold++;
    };
    for (const [doc, side] of responseByDoc) countSide(side, goldByDoc.get(doc) ?? [], criterion, withType, addResponse);
    for (const [doc, side] of goldByDoc) countSide(side, responseByDoc.get(doc) ?? [], criterion, withType, addGold);
  }
  return into;
}

/** Adds `from`'s counts to `into`. */
export function addMentionTally(into: MentionTally, from: MentionTally): MentionTally {
  for (const criterion of MATCH_CRITERIA) {
    for (const [type, t] of from[criterion]) {
      const sum = tallyOf(into[criterion], type);
      sum.matchedResponses += t.matchedResponses;
      sum.responses += t.responses;
      sum.matchedGold += t.matchedGold;
      sum.gold += t.gold;
    }
  }
  return into;
}

/** The figures of a tally: overall and per type (types in id order), each criterion. */
export function mentionScoreOf(tally: MentionTally): MentionScore {
  const types = [...new Set(MATCH_CRITERIA.flatMap((c) => [...tally[c].keys()]))].sort(compareIds);
  const overall = {} as CriteriaCounts;
  const perType: Record<string, CriteriaCounts> = {};
  for (const type of types) perType[type] = {} as CriteriaCounts;
  for (const criterion of MATCH_CRITERIA) {
    const sum = { matchedResponses: 0, responses: 0, matchedGold: 0, gold: 0 };
    for (const type of types) {
      const t = tallyOf(tally[criterion], type);
      perType[type][criterion] = countsOf(t.matchedResponses, t.responses, t.matchedGold, t.gold);
      sum.matchedResponses += t.matchedResponses;
      sum.responses += t.responses;
      sum.matchedGold += t.matchedGold;
      sum.gold += t.gold;
    }
    overall[criterion] = countsOf(sum.matchedResponses, sum.responses, sum.matchedGold, sum.gold);
  }
  return { ...overall, perType };
}

export function scoreMentions(gold: readonly Mention[], response: readonly Mention[], options: MentionScoreOptions = {}): MentionScore {
  return mentionScoreOf(tallyMentions(gold, response, options));
}

/**
 * Each document's counts under one criterion (overall, every type together), for the
 * significance of a leaderboard (significance.ts): the documents of either side, counted
 * as `tallyMentions` counts them, so their sums are the run's overall counts. Documents
 * neither side names are absent (all zeros).
 */
export function mentionDocumentCounts(
  gold: readonly Mention[],
  response: readonly Mention[],
  options: MentionScoreOptions = {},
  criterion: MatchCriterion = 'strict',
): Map<string, DocumentCounts> {
  const withType = !options.singleClass;
  const goldByDoc = byDocument(gold);
  const responseByDoc = byDocument(response);
  const counts = new Map<string, DocumentCounts>();
  const of = (doc: string) => counts.get(doc) ?? counts.set(doc, { matchedResponses: 0, responses: 0, matchedGold: 0, gold: 0 }).get(doc)!;
  for (const [doc, side] of responseByDoc) {
    const c = of(doc);
    countSide(side, goldByDoc.get(doc) ?? [], criterion, withType, (_, matched) => {
      c.responses++;
      if (matched) c.matchedResponses++;
    });
  }
  for (const [doc, side] of goldByDoc) {
    const c = of(doc);
    countSide(side, responseByDoc.get(doc) ?? [], criterion, withType, (_, matched) => {
      c.gold++;
      if (matched) c.matchedGold++;
    });
  }
  return counts;
}
