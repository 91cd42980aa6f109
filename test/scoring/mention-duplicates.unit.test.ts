// MENTION counts gold and runs as sets, as BC5CDR's evaluation (a set of document, span,
// type) and conlleval (one chunk per span) do: a mention given twice counts once, so tp,
// fp and fn give the P, R and F reported. Before, a gold mention given twice was counted
// twice in recall (gold {0–13 ×2, 6–13}, run {0–13}: tp 1, fn 1 but R 2/3) and a run's
// repeat was a second true positive.
import { describe, expect, it } from 'vitest';
import { scoreNorm, storedNormAnnotation } from '../../src/scoring/concept-norm.ts';
import { MATCH_CRITERIA, duplicateMentionWarnings, scoreMentions, type Mention, type MentionCounts } from '../../src/scoring/index.ts';

const m = (start: number, end: number, type = 'Disease', doc = 'd1'): Mention => ({ doc, start, end, type });

/** R and P as the counts give them. */
function expectCountsGiveFigures(c: MentionCounts): void {
  expect(c.r).toBeCloseTo(c.tp + c.fn === 0 ? 0 : c.tp / (c.tp + c.fn), 12);
  expect(c.p).toBeCloseTo(c.tp + c.fp === 0 ? 0 : c.tp / (c.tp + c.fp), 12);
}

describe('a mention given twice counts once', () => {
  it('gold {0–13 ×2, 6–13}, run {0–13}: strict tp 1, fn 1, R 1/2 (was R 2/3 from the same counts)', () => {
    const score = scoreMentions([m(0, 13), m(0, 13), m(6, 13)], [m(0, 13)]);
    expect(score.strict).toMatchObject({ tp: 1, fp: 0, fn: 1, p: 1, r: 0.5 });
    expect(score.left).toMatchObject({ tp: 1, fp: 0, fn: 1, r: 0.5 });
    // Right match: 6–13 ends where the run's mention does.
    expect(score.right).toMatchObject({ tp: 1, fp: 0, fn: 0, r: 1 });
    for (const c of MATCH_CRITERIA) expectCountsGiveFigures(score[c]);
    expectCountsGiveFigures(score.perType.Disease.strict);
  });

  it('gold {0–13 ×2}, run {0–13}: tp 1, fn 0, R 1', () => {
    expect(scoreMentions([m(0, 13), m(0, 13)], [m(0, 13)]).strict).toMatchObject({ tp: 1, fp: 0, fn: 0, p: 1, r: 1, f: 1 });
  });

  it("a run's repeat is neither a second true positive nor a false positive", () => {
    expect(scoreMentions([m(0, 13)], [m(0, 13), m(0, 13)]).strict).toMatchObject({ tp: 1, fp: 0, fn: 0, f: 1 });
    expect(scoreMentions([m(0, 13)], [m(0, 13), m(0, 13), m(20, 25), m(20, 25)]).strict).toMatchObject({ tp: 1, fp: 1, fn: 0, p: 0.5 });
  });

  it('the same span of another type, or in another document, is another mention', () => {
    const score = scoreMentions([m(0, 13), m(0, 13, 'Chemical'), m(0, 13, 'Disease', 'd2')], [m(0, 13)]);
    expect(score.strict).toMatchObject({ tp: 1, fp: 0, fn: 2 });
    expect(duplicateMentionWarnings('gold', [m(0, 13), m(0, 13, 'Chemical'), m(0, 13, 'Disease', 'd2')])).toEqual([]);
  });

  it('single-class: a repeat of the same span and type still counts once', () => {
    const score = scoreMentions([m(0, 13), m(0, 13), m(6, 13)], [m(0, 13, 'Chemical'), m(0, 13, 'Chemical')], { singleClass: true });
    expect(score.strict).toMatchObject({ tp: 1, fp: 0, fn: 1, r: 0.5 });
  });

  // Strict match is one-to-one once each side is a set; left and right match stay many-to-one
  // on nested spans (src/scoring/README.md), where the counts cannot give R.
  it('on many documents with repeats on both sides, strict counts always give P and R (pairwise and key-set matching alike)', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const some = (n: number, doc: string) =>
      Array.from({ length: n }, () => {
        const start = Math.floor(rnd() * 10);
        return m(start, start + 1 + Math.floor(rnd() * 3), rnd() < 0.5 ? 'A' : 'B', doc);
      });
    // d-long has more mentions than the pairwise limit allows (key sets).
    const docs = ['d1', 'd2', 'd3', 'd-long'];
    const gold = docs.flatMap((d) => some(d === 'd-long' ? 200 : 12, d));
    const run = docs.flatMap((d) => some(d === 'd-long' ? 200 : 12, d));
    const score = scoreMentions(gold, run);
    expectCountsGiveFigures(score.strict);
    for (const type of Object.values(score.perType)) expectCountsGiveFigures(type.strict);
    expect(scoreMentions([...gold, ...gold], [...run, ...run])).toEqual(score);
  });
});

describe('the warning', () => {
  it('names the repeated mentions (document, span, type, times) and says how they count and what to do', () => {
    const [warning, ...more] = duplicateMentionWarnings('gold.ann', [m(0, 13), m(0, 13), m(6, 13), m(0, 13)]);
    expect(more).toEqual([]);
    expect(warning).toContain('gold.ann: 1 mention(s) given more than once (same document, span and type)');
    expect(warning).toContain('document "d1" [0, 13) Disease (3 times)');
    expect(warning).toContain('Each counts once, in gold and runs alike');
    expect(warning).toContain('neither a second true positive nor a false positive');
    expect(warning).toMatch(/Remove the repeats/);
  });

  it('names no document for a single .ann file (its one document has no name)', () => {
    const [warning] = duplicateMentionWarnings('gold.ann', [m(0, 13, 'Disease', ''), m(0, 13, 'Disease', '')]);
    expect(warning).toContain('gold.ann: 1 mention(s) given more than once (same document, span and type): [0, 13) Disease (2 times).');
  });

  it('lists the first five and counts the rest', () => {
    const repeated = Array.from({ length: 8 }, (_, i) => [m(i, i + 1), m(i, i + 1)]).flat();
    const [warning] = duplicateMentionWarnings('run', repeated);
    expect(warning).toContain('run: 8 mention(s) given more than once');
    expect(warning).toContain('document "d1" [4, 5) Disease (2 times), and 3 more.');
    expect(warning).not.toContain('[5, 6)');
  });
});

describe("NORM (BC5CDR's and NLM-Chem's figures) already counts sets", () => {
  it('the worked example: mention tp 1, fn 1; an id given twice in a document counts once', () => {
    const withIds = (x: Mention, ids: string[]) => storedNormAnnotation({ ...x, ids });
    const gold = [withIds(m(0, 13), ['MESH:D1']), withIds(m(0, 13), ['MESH:D1']), withIds(m(6, 13), ['MESH:D1'])];
    const score = scoreNorm(gold, [withIds(m(0, 13), ['MESH:D1']), withIds(m(0, 13), ['MESH:D1'])]);
    expect(score.mention).toMatchObject({ tp: 1, fp: 0, fn: 1, r: 0.5 });
    expect(score.id).toMatchObject({ tp: 1, fp: 0, fn: 0, r: 1 });
    expect(score.span.strict).toMatchObject({ p: 1, r: 0.5 });
    expect(score.identifier.strict).toMatchObject({ p: 1, r: 1 });
  });
});
