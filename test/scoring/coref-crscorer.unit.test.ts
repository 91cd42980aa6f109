// The BioNLP-ST 2011 COREF scorer's (CRScorer's) rules, one worked example each, in protein
// and surface mode, computed by hand below. Counts: gold / response = items scored,
// tp = correct responses, fp = response − tp, fn = gold items no response found;
// P = tp / response, R = (gold − fn) / gold. Mention detection ("mentions") aligns each
// response expression with the first gold expression it matches; protein mode scores every
// response expression but only the gold expressions on links that reach a protein.
import { describe, expect, it } from 'vitest';
import { parseA1, parseA2 } from '../../src/scoring/coref-input.ts';
import { proteinLinks, scoreCoref } from '../../src/scoring/coref.ts';
import { expectFigures } from '../leaderboard/helpers.ts';
import {
  A1,
  A1_2,
  A1_3,
  A1_4,
  D2_EXPRESSIONS as E2,
  GOLD2_A2,
  GOLD3_A2,
  GOLD4_A2,
  GOLD_A2,
  GOLD_EXPRESSIONS as G1,
  PARTIAL_RESPONSE_A2,
  d3,
  exp,
  lines,
} from './coref-fixtures.ts';

const D1 = { a1: A1, gold: GOLD_A2 };
const D2 = { a1: A1_2, gold: GOLD2_A2 };
const score = (doc: { a1: string; gold: string }, response: string) =>
  scoreCoref([
    {
      doc: 'd',
      proteins: parseA1(doc.a1),
      gold: parseA2(doc.gold),
      response: parseA2(response),
      goldFile: 'gold/d.a2',
      responseFile: 'run/d.a2',
    },
  ]);
const linksOf = (doc: { a1: string; gold: string }) =>
  proteinLinks(parseA2(doc.gold), parseA1(doc.a1)).map((l) => `${l.anaphor.id},${l.target}`);

// d1 gold (coref-fixtures.ts): R1 which(T29) → T28 ⊇ {T4, T5}; R2 T30 → T27 (no protein);
// R3 T32 → T31 ⊇ {T10}; R4 it(T33) → T32. Protein links (T29,T4) (T29,T5) (T32,T10)
// (T33,T10): 4. Protein-mode gold expressions: T29, T28, T32, T31, T33 (5); surface: all 7.
// d2 gold: proteins T1 p50, T2 p65 (in T12), T3 p50, T4 p65 (in T13), T5 p65 (in T14),
// T6 p53 (= T16), T7 p53 (in T17); links R1 T12→T11, R2 T14→T13, R3 T15→T14, R4 T17→T16,
// R5 T18→T17: 5 surface links, 8 expressions.

describe('1. an anaphor that holds given proteins counts them', () => {
  it('links "a heterodimer of p50 and p65" to its own p50 and p65 though its antecedent "NF-kappa B" holds none', () => {
    // R1: the anaphor T12 weighs 2 (T1, T2), the level T11 weighs 0 < 2 → (T12,T1) (T12,T2).
    expect(linksOf(D2).filter((l) => l.startsWith('T12,'))).toEqual(['T12,T1', 'T12,T2']);
    const s = score(D2, lines(E2.T11, E2.T12, 'R1\tCoref Anaphora:T12 Antecedent:T11'));
    // Protein: 2 responses (T12,T1) (T12,T2), both gold; 8 gold, 6 unfound → P 2/2, R 2/8 = 0.25, F 2·0.25/1.25 = 0.4.
    expectFigures(s.protein, { gold: 8, response: 2, tp: 2, fp: 0, fn: 6, p: 1, r: 0.25, f: 0.4 });
    // Surface: T12→T11 is gold R1 → P 1/1, R 1/5 = 0.2, F 0.4/1.2 = 1/3.
    expectFigures(s.surface, { gold: 5, response: 1, tp: 1, fp: 0, fn: 4, p: 1, r: 0.2, f: 1 / 3 });
    // Mentions: T11, T12 match; protein mode has 8 gold expressions (every d2 link reaches a protein), surface 8 → R 2/8.
    expectFigures(s.mentions, {
      protein: { gold: 8, response: 2, tp: 2, fn: 6, p: 1, r: 0.25, f: 0.4 },
      surface: { gold: 8, tp: 2, r: 0.25 },
    });
  });
});

describe('2. the whole chain is followed; the level with the most proteins wins, a later level wins a tie', () => {
  it('builds the gold protein links level by level', () => {
    // R2 T14→T13: anaphor T14 weighs 1 (T5), level T13 weighs 2 (T3, T4) ≥ 1 → T3, T4.
    // R3 T15→T14→T13: T15 0; level 1 T14 weighs 1 → T5; level 2 T13 weighs 2 ≥ 1 → T3, T4 (not T5, the first level with a protein).
    // R4 T17→T16: T17 weighs 1 (T7); T16 weighs 1 ≥ 1, a tie, the later wins → T6.
    // R5 T18→T17→T16: T17 weighs 1 → T7; T16 weighs 1 ≥ 1 → T6.
    expect(linksOf(D2)).toEqual(['T12,T1', 'T12,T2', 'T14,T3', 'T14,T4', 'T15,T3', 'T15,T4', 'T17,T6', 'T18,T6']);
  });

  it('weighs the anaphor again at every level, so it takes a tie back when the chain goes on with fewer', () => {
    // R1 T17→T16→T11 (listed first): level 1: T17 weighs 1 → T7, T16 weighs 1 ≥ 1 → T6;
    // level 2: T17 weighs 1 ≥ 1 → T7 again, T11 weighs 0 < 1 → T7 stays. R2 T16→T11 → T6.
    const chain = lines(E2.T11, E2.T16, E2.T17, 'R1\tCoref Anaphora:T17 Antecedent:T16', 'R2\tCoref Anaphora:T16 Antecedent:T11');
    expect(linksOf({ a1: A1_2, gold: chain })).toEqual(['T17,T7', 'T16,T6']);
  });

  it('scores a response that stops at the first level as finding the wrong protein', () => {
    const s = score(
      D2,
      lines(E2.T14, E2.T15, E2.T17, E2.T18, 'R1\tCoref Anaphora:T15 Antecedent:T14', 'R2\tCoref Anaphora:T18 Antecedent:T17'),
    );
    // The response has no T14→T13 or T17→T16, so its chains end at level 1: (T15,T5) and (T18,T7); the gold has
    // (T15,T3) (T15,T4) (T18,T6) → 0 of 2 right, 0 of 8 found.
    expectFigures(s.protein, { gold: 8, response: 2, tp: 0, fp: 2, fn: 8, p: 0, r: 0, f: 0 });
    // Surface: T15→T14 is R3, T18→T17 is R5 → P 2/2, R 2/5 = 0.4, F 0.8/1.4 = 4/7.
    expectFigures(s.surface, { gold: 5, response: 2, tp: 2, fp: 0, fn: 3, p: 1, r: 0.4, f: 4 / 7 });
    // Mentions: the 4 expressions match → P 4/4, R 4/8, F 2/3, in both modes.
    expectFigures(s.mentions, { protein: { gold: 8, tp: 4, p: 1, r: 0.5, f: 2 / 3 }, surface: { gold: 8, tp: 4, p: 1, r: 0.5, f: 2 / 3 } });
  });

  it('scores the gold against itself perfectly', () => {
    const s = score(D2, GOLD2_A2);
    expectFigures(s, {
      protein: { gold: 8, tp: 8, f: 1 },
      surface: { gold: 5, tp: 5, f: 1 },
      mentions: { protein: { gold: 8, tp: 8, f: 1 } },
    });
  });
});

describe('3. a link whose antecedent does not start before its anaphor is removed, in both modes', () => {
  // R1 "This complex" → "The factor RelA", which comes later: removed. R2 which → T28 stays.
  const response = lines(
    G1[1],
    G1[2],
    exp('T30', 'This complex'),
    G1[4],
    'R1\tCoref Anaphora:T30 Antecedent:T31',
    'R2\tCoref Anaphora:T29 Antecedent:T28',
  );

  it('scores the remaining link and says which was removed and why', () => {
    // Offsets: "This complex" follows 41 + 66 characters (the first two sentences with their spaces): 107;
    // "The factor RelA" follows "This complex is active. " (24 more): 131.
    const s = score(D1, response);
    // Protein: R2 gives (T29,T4) (T29,T5), both gold → P 2/2, R 2/4, F 2/3. (Kept, R1 would add (T30,T10): P 2/3.)
    expectFigures(s.protein, { gold: 4, response: 2, tp: 2, fp: 0, fn: 2, p: 1, r: 0.5, f: 2 / 3 });
    // Surface: 1 response, gold R1 → P 1, R 1/4, F 0.4. (Kept, R1 would be wrong: P 1/2.)
    expectFigures(s.surface, { gold: 4, response: 1, tp: 1, fp: 0, fn: 3, p: 1, r: 0.25, f: 0.4 });
    // Mentions, protein: T28 T29 T31 match, T30 is no protein-mode gold expression → P 3/4, R 3/5, F 2·0.45/1.35 = 2/3.
    // Surface: all 4 match, 7 gold → P 1, R 4/7, F (8/7)/(11/7) = 8/11. The removed link's expressions still count.
    expectFigures(s.mentions, {
      protein: { gold: 5, response: 4, tp: 3, fp: 1, fn: 2, p: 0.75, r: 0.6, f: 2 / 3 },
      surface: { gold: 7, tp: 4, p: 1, r: 4 / 7, f: 8 / 11 },
    });
    expectFigures(s.dropped, {
      response: { antecedentAfterAnaphor: 1, repeatedAnaphor: 0, givenProtein: 0 },
      gold: { antecedentAfterAnaphor: 0 },
    });
    expect(s.droppedLinks).toEqual([
      {
        doc: 'd',
        side: 'response',
        file: 'run/d.a2',
        link: 'R1',
        line: 5,
        reason: 'antecedent-after-anaphor',
        message: 'run/d.a2, line 5: response link R1 removed: its antecedent T31 (at 131) does not start before its anaphor T30 (at 107)',
      },
    ]);
  });

  it('removes such a gold link too', () => {
    const s = score({ a1: A1, gold: GOLD_A2 + 'R5\tCoref Anaphora:T28 Antecedent:T29\n' }, GOLD_A2);
    expectFigures(s, {
      surface: { gold: 4, tp: 4, f: 1 },
      protein: { gold: 4, tp: 4, f: 1 },
      dropped: { gold: { antecedentAfterAnaphor: 1 } },
    });
    expect(s.droppedLinks.map((d) => `${d.side} ${d.link}`)).toEqual(['gold R5']);
  });
});

describe('4. of two response links with the same anaphor only the first counts', () => {
  it('keeps the first even when the second is the right one', () => {
    const s = score(
      D1,
      lines(
        exp('T27', 'the NFkB heterodimer complex'),
        G1[1],
        G1[2],
        'R1\tCoref Anaphora:T29 Antecedent:T27',
        'R2\tCoref Anaphora:T29 Antecedent:T28',
      ),
    );
    // Only R1 which → T27 is scored. Surface: (T29,T27) is no gold link → P 0/1, R 0/4.
    expectFigures(s.surface, { gold: 4, response: 1, tp: 0, fp: 1, fn: 4, p: 0, r: 0, f: 0 });
    // Protein: T27 holds no protein and has no link of its own → no protein link; P = 0/0 = 0, R 0/4.
    expectFigures(s.protein, { gold: 4, response: 0, tp: 0, fn: 4, p: 0, r: 0 });
    // Mentions, protein: T28 T29 match, T27 is no protein-mode gold expression → P 2/3, R 2/5; surface P 3/3, R 3/7.
    expectFigures(s.mentions, { protein: { response: 3, tp: 2, p: 2 / 3, r: 0.4 }, surface: { tp: 3, p: 1, r: 3 / 7 } });
    expect(s.droppedLinks.map((d) => `${d.link} ${d.reason}`)).toEqual(['R2 repeated-anaphor']);
    expect(s.droppedLinks[0].message).toMatch(/its anaphor T29 already has link R1; only the first link of an anaphor counts/);
  });

  it('counts the first link that survives the order rule', () => {
    // R1 which → T31 (later) is removed first, so R2 which → T28 is the anaphor's first link and counts.
    const s = score(D1, lines(G1[1], G1[2], G1[4], 'R1\tCoref Anaphora:T29 Antecedent:T31', 'R2\tCoref Anaphora:T29 Antecedent:T28'));
    // Surface P 1/1, R 1/4; protein (T29,T4) (T29,T5): P 2/2, R 2/4.
    expectFigures(s, { surface: { response: 1, tp: 1, p: 1, r: 0.25 }, protein: { response: 2, tp: 2, p: 1, r: 0.5 } });
    expect(s.droppedLinks.map((d) => `${d.link} ${d.reason}`)).toEqual(['R1 antecedent-after-anaphor']);
  });
});

describe('5. gold links are not used up', () => {
  it('counts two different response anaphors that both match one gold anaphor as correct', () => {
    // "transcription factor" and "this transcription factor" both cover T32's head "factor" inside T32.
    const s = score(
      D1,
      lines(
        exp('T103', 'transcription factor'),
        exp('T203', 'this transcription factor'),
        exp('T104', 'The factor RelA'),
        'R1\tCoref Anaphora:T103 Antecedent:T104',
        'R2\tCoref Anaphora:T203 Antecedent:T104',
      ),
    );
    // Surface: both are gold R3 (T32→T31) → tp 2, P 2/2; one gold link found → R 1/4, F 0.4.
    expectFigures(s.surface, { gold: 4, response: 2, tp: 2, fp: 0, fn: 3, p: 1, r: 0.25, f: 0.4 });
    // Protein: (T103,T10) and (T203,T10) are both gold (T32,T10) → P 2/2, R 1/4.
    expectFigures(s.protein, { gold: 4, response: 2, tp: 2, fp: 0, fn: 3, p: 1, r: 0.25, f: 0.4 });
    // Mentions: all 3 match, on 2 gold expressions (T32, T31) → surface R 2/7, F (4/7)/(9/7) = 4/9; protein R 2/5, F 0.8/1.4 = 4/7.
    expectFigures(s.mentions, { surface: { tp: 3, fn: 5, p: 1, r: 2 / 7, f: 4 / 9 }, protein: { tp: 3, fn: 3, p: 1, r: 0.4, f: 4 / 7 } });
  });
});

describe('6. a link to a given protein of the .a1 is ignored', () => {
  it('scores as if the link were not there', () => {
    const s = score(
      D1,
      lines(
        exp('T101', 'which'),
        exp('T104', 'The factor RelA'),
        exp('T105', 'it', undefined, 'needs it'),
        'R1\tCoref Anaphora:T101 Antecedent:T4',
        'R2\tCoref Anaphora:T105 Antecedent:T104',
      ),
    );
    // Only R2 it → "The factor RelA" is scored. Surface: (T33,T31) is no gold link (R4 is T33→T32) → P 0/1.
    expectFigures(s.surface, { gold: 4, response: 1, tp: 0, fp: 1, fn: 4, p: 0, r: 0 });
    // Protein: (T105,T10) is gold (T33,T10) → P 1/1, R 1/4, F 0.4. (Scored, R1 would add a correct (T29,T4).)
    expectFigures(s.protein, { gold: 4, response: 1, tp: 1, fp: 0, fn: 3, p: 1, r: 0.25, f: 0.4 });
    expectFigures(s.mentions, { surface: { tp: 3, p: 1, r: 3 / 7 }, protein: { tp: 3, p: 1, r: 0.6 } });
    expect(s.droppedLinks.map((d) => d.message)).toEqual([
      'run/d.a2, line 4: response link R1 removed: T4 is a given protein, not an expression of the .a2',
    ]);
  });
});

describe('7. mention detection is reported before the links', () => {
  it('scores the expressions of the hand-worked example', () => {
    const s = score(D1, PARTIAL_RESPONSE_A2);
    expect(Object.keys(s)).toEqual(['mentions', 'surface', 'protein', 'perType', 'dropped', 'droppedLinks']);
    // Surface: T101..T106 match T29 T28 T32 T31 T33 T27; "This" misses T30's head → P 6/7, R 6/7, F 6/7.
    expectFigures(s.mentions.surface, { gold: 7, response: 7, tp: 6, fp: 1, fn: 1, p: 6 / 7, r: 6 / 7, f: 6 / 7 });
    // Protein: the 5 gold expressions on protein chains are all matched; T106 (→ T27, off the chains) and T107 are not
    // → P 5/7, R 5/5, F (10/7)/(12/7) = 5/6.
    expectFigures(s.mentions.protein, { gold: 5, response: 7, tp: 5, fp: 2, fn: 0, p: 5 / 7, r: 1, f: 5 / 6 });
  });
});

describe("the official scorer's gold weights", () => {
  it('reweighs gold expressions after each link, so a gold can lose protein links (reproduced)', () => {
    // d4: R1 heterodimer(T6) → NF-kappa B(T5); R2 T5 → "The p65 protein"(T4) ⊇ {T1}; R3 it(T7) → T5.
    // R1: T6 weighs 2 (T2, T3) → (T6,T2) (T6,T3); then T6 and T5 are reweighed 2.
    // R2: T5 now weighs 2 (it holds no protein) ≥ T4's 1 → no protein link; T4 is reweighed 2.
    // R3: T7 0; T5 weighs 2 → none; T4 weighs 2 ≥ 2 → T1 → (T7,T1). Gold: 3 protein links.
    expect(linksOf({ a1: A1_4, gold: GOLD4_A2 })).toEqual(['T6,T2', 'T6,T3', 'T7,T1']);
    // A response is weighed by its proteins only: the same lines give (T6,T2) (T6,T3) (T5,T1) (T7,T1), so the gold
    // scored against itself has P 3/4 in protein mode, as the official scorer reports; surface is perfect.
    const s = score({ a1: A1_4, gold: GOLD4_A2 }, GOLD4_A2);
    expectFigures(s.protein, { gold: 3, response: 4, tp: 3, fp: 1, fn: 0, p: 0.75, r: 1, f: 6 / 7 });
    expectFigures(s.surface, { gold: 3, tp: 3, f: 1 });
  });
});

describe('numbered antecedents (Antecedent2:)', () => {
  // d3: R1 they(T5) → p50(T3) and p65(T4). Protein: the level weighs 2 → (T5,T1) (T5,T2).
  const D3 = { a1: A1_3, gold: GOLD3_A2 };
  const expressions = [d3.exp('T3', 'p50'), d3.exp('T4', 'p65'), d3.exp('T5', 'they')];

  it('pools the proteins of every antecedent of the link', () => {
    expect(linksOf(D3)).toEqual(['T5,T1', 'T5,T2']);
  });

  it('matches a surface link when its antecedents are the gold ones, in any numbering', () => {
    const s = score(D3, lines(...expressions, 'R1\tCoref Anaphora:T5 Antecedent:T4 Antecedent2:T3'));
    expectFigures(s, { surface: { gold: 1, tp: 1, f: 1 }, protein: { gold: 2, tp: 2, f: 1 } });
  });

  it('needs every antecedent for the surface link; each protein counts on its own', () => {
    const s = score(D3, lines(...expressions, 'R1\tCoref Anaphora:T5 Antecedent:T3'));
    // Surface: {T3} is not {T3, T4} → P 0/1, R 0/1. Protein: (T5,T1) is gold → P 1/1, R 1/2, F 2/3.
    expectFigures(s, { surface: { response: 1, tp: 0, fn: 1 }, protein: { gold: 2, response: 1, tp: 1, fn: 1, p: 1, r: 0.5, f: 2 / 3 } });
  });
});
