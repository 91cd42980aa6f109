// MENTION's tallies (src/scoring/mention.ts): matching each document's mentions pairwise
// (an abstract's few) or through key sets (a long list) gives the counts of the plain
// definition — each side a set of (document, span, type), a response matches when some
// gold mention of its document has its key —
// and the tallies of disjoint sets of documents add up to the tally of their union, which
// is what lets a leaderboard score a challenge page by page.
import { describe, expect, it } from 'vitest';
import {
  MATCH_CRITERIA,
  addMentionTally,
  mentionScoreOf,
  scoreMentions,
  tallyMentions,
  type MatchCriterion,
  type Mention,
} from '../../src/scoring/index.ts';

function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Documents d0…d9 with a few mentions each, and d-long with hundreds (past the pairwise limit). */
function mentions(rnd: () => number): Mention[] {
  const out: Mention[] = [];
  const docs = [...Array.from({ length: 10 }, (_, i) => ({ doc: `d${i}`, n: Math.floor(rnd() * 8) })), { doc: 'd-long', n: 300 }];
  for (const { doc, n } of docs) {
    for (let i = 0; i < n; i++) {
      const start = Math.floor(rnd() * 40);
      out.push({ doc, start, end: start + 1 + Math.floor(rnd() * 4), type: ['A', 'B'][Math.floor(rnd() * 2)] });
    }
  }
  return out;
}

/** Each side as a set: a mention given again (same document, span and type) counts once. */
const distinct = (mentions: Mention[]) => [...new Map(mentions.map((m) => [[m.doc, m.start, m.end, m.type].join('|'), m])).values()];

/** The plain definition, per criterion: counts of keyed matches over the two sets. */
function reference(goldGiven: Mention[], responseGiven: Mention[], criterion: MatchCriterion, withType: boolean) {
  const [gold, response] = [distinct(goldGiven), distinct(responseGiven)];
  const key = (m: Mention) =>
    [m.doc, criterion === 'right' ? '' : m.start, criterion === 'left' ? '' : m.end, withType ? m.type : ''].join('|');
  const g = new Set(gold.map(key));
  const r = new Set(response.map(key));
  const tp = response.filter((m) => g.has(key(m))).length;
  return { tp, fp: response.length - tp, fn: gold.length - gold.filter((m) => r.has(key(m))).length };
}

describe('MENTION tallies', () => {
  it.each([1, 2, 3, 4, 5])('count as the plain definition, small documents and long ones alike (seed %i)', (seed) => {
    const rnd = random(seed);
    const gold = mentions(rnd);
    const response = mentions(rnd);
    for (const singleClass of [false, true]) {
      const score = scoreMentions(gold, response, { singleClass });
      for (const c of MATCH_CRITERIA) expect(score[c]).toMatchObject(reference(gold, response, c, !singleClass));
    }
  });

  it('add up over disjoint sets of documents', () => {
    const rnd = random(7);
    const gold = mentions(rnd);
    const response = mentions(rnd);
    const first = (m: Mention) => m.doc < 'd5';
    const parts = tallyMentions(gold.filter(first), response.filter(first));
    addMentionTally(
      parts,
      tallyMentions(
        gold.filter((m) => !first(m)),
        response.filter((m) => !first(m)),
      ),
    );
    expect(mentionScoreOf(parts)).toEqual(scoreMentions(gold, response));
  });
});
