// Entity mention scoring as the JNLPBA-2004 evaluation (adapted for AnEM) counts it:
// micro P/R/F over mentions, overall and per type, under strict, left-boundary and
// right-boundary match. Multi-class: the type must match too. Single-class: types are
// ignored when matching (they still decided where mentions begin and end when parsing).
//
// P = responses that match some gold mention / responses; R = gold mentions matched by
// some response / gold mentions. On flat annotation this is one-to-one; with nested or
// duplicate standoff spans the two sides may differ, so tp counts the response side and
// fn the gold side, and F comes from P and R (not from the counts).

import { f1, safeRatio } from './metrics.ts';
import { compareIds } from './ranking.ts';

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

function byDocument(mentions: readonly Mention[]): Map<string, Mention[]> {
  const byDoc = new Map<string, Mention[]>();
  for (const m of mentions) {
    const list = byDoc.get(m.doc);
    if (list) list.push(m);
    else byDoc.set(m.doc, [m]);
  }
  return byDoc;
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
 * it. Mentions match within their document only, so each document's are compared among
 * themselves: pairwise for the few mentions of an abstract, through key sets for long lists.
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
