// Single-class MENTION scoring counts as evalbio.pl -1 counts: types are ignored, also when
// deciding where a mention ends, so a type change inside a mention (B-Tissue I-Organ) is
// one mention. Worked by hand from evalbio.pl's rules (check_sequence, iob2_iobes and the
// complete/left/right counts; transcribed in test/support/conll-evaluators.ts), then
// checked against the parser and scorer, the transcription, and `metaserver score`.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scoreMentions } from '../../src/scoring/mention.ts';
import { parseBio } from '../../src/scoring/mention-input.ts';
import { evalbio } from '../support/conll-evaluators.ts';
import { score } from '../support/score-cli.ts';
import { errorOf } from '../support/scoring-errors.ts';

/** Token<TAB>tag lines, sentences separated by '', with the final empty line evalbio.pl needs. */
const bio = (...lines: string[]) => `${lines.map((l) => (l === '' ? '' : l.replace(' ', '\t'))).join('\n')}\n\n`;

// Sentence 1: the prediction changes type inside its first mention and types its second
// mention otherwise. Sentence 2: the prediction splits a three-token mention in two, the
// second part changing type inside.
const GOLD = bio('a B-Tissue', 'b I-Tissue', 'c O', 'd B-Cell', 'e O', '', 'f B-Organ', 'g I-Organ', 'h I-Organ', 'i O');
const PRED = bio('a B-Tissue', 'b I-Organ', 'c O', 'd B-Organ', 'e O', '', 'f B-Organ', 'g B-Tissue', 'h I-Cell', 'i O');

// By hand, evalbio.pl -1 (tags cut to their first letter after IOBES):
//   sentence 1: gold B E O S O, prediction B E O S O. Token a B/B: left 1 (a match opens);
//     b E/E: right 1, complete 1; d S/S: complete, left and right 1 each. → 2 / 2 / 2.
//   sentence 2: gold B I E O, prediction S B E O. Token f S/B: left 1; g B/I: nothing;
//     h E/E: right 1, no complete (f's S/B closed the match). → 0 / 1 / 1.
//   gold mentions 1+1+1 = 3, predicted 1+1+2 = 4; complete 2, left 3, right 3.
//   complete: P 2/4, R 2/3, F 4/7; left and right: P 3/4, R 3/3, F 6/7.
const BY_HAND = { gold: 3, predicted: 4, complete: 2, left: 3, right: 3 };

describe('single-class reading of a type change inside a mention', () => {
  it('the hand count is what evalbio.pl -1 counts (its transcription)', () => {
    expect(evalbio(PRED, GOLD, { singleClass: true })).toEqual(BY_HAND);
    // Without -1, evalbio.pl dies on the type change.
    expect(() => evalbio(PRED, GOLD)).toThrow(/IOB error: type change without "B" \(Tissue -> Organ\)/);
  });

  it('parses B-Tissue I-Organ as one mention (the type of its first tag), and scores as evalbio.pl -1', () => {
    const gold = parseBio(GOLD, { singleClass: true });
    const pred = parseBio(PRED, { singleClass: true });
    expect(pred.warnings).toEqual([]);
    expect(pred.value.mentions.map((m) => [m.start, m.end, m.type])).toEqual([
      [0, 2, 'Tissue'],
      [3, 4, 'Organ'],
      [5, 6, 'Organ'],
      [6, 8, 'Tissue'],
    ]);
    const s = scoreMentions(gold.value.mentions, pred.value.mentions, { singleClass: true });
    expect(s.strict).toMatchObject({ tp: BY_HAND.complete, fp: BY_HAND.predicted - BY_HAND.complete, fn: BY_HAND.gold - BY_HAND.complete });
    expect(s.strict.p).toBeCloseTo(2 / 4, 12);
    expect(s.strict.r).toBeCloseTo(2 / 3, 12);
    expect(s.strict.f).toBeCloseTo(4 / 7, 12);
    for (const side of [s.left, s.right]) {
      expect(side).toMatchObject({ tp: 3, fp: 1, fn: 0, r: 1 });
      expect(side.p).toBeCloseTo(3 / 4, 12);
      expect(side.f).toBeCloseTo(6 / 7, 12);
    }
  });

  it('IOBES and BILOU: E-/L- of another type closes the mention; I-X after O is still an error, as for evalbio.pl -1', () => {
    expect(parseBio(bio('a B-Tissue', 'b E-Organ', 'c S-Cell'), { singleClass: true }).value.mentions.map((m) => [m.start, m.end])).toEqual(
      [
        [0, 2],
        [2, 3],
      ],
    );
    expect(parseBio(bio('a B-Tissue', 'b I-Cell', 'c L-Organ'), { singleClass: true }).value.mentions.map((m) => [m.start, m.end])).toEqual(
      [[0, 3]],
    );
    expect(errorOf(() => parseBio(bio('a O', 'b I-Organ'), { singleClass: true })).line).toBe(2);
    expect(() => evalbio(bio('a O', 'b I-Organ'), bio('a O', 'b O'), { singleClass: true })).toThrow(/"I" without preceding "B"/);
  });

  it('multi-class still refuses the type change (naming single-class), and --lenient still splits it', () => {
    const refused = errorOf(() => parseBio(PRED, { file: 'pred.bio' }));
    expect(refused.line).toBe(2);
    expect(refused.message).toMatch(/pred\.bio, line 2: I-Organ follows a Tissue mention/);
    expect(refused.message).toMatch(/single-class to ignore types, as evalbio\.pl -1 does/);
    const lenient = parseBio(PRED, { lenient: true });
    expect(lenient.value.mentions.map((m) => [m.start, m.end, m.type])).toEqual([
      [0, 1, 'Tissue'],
      [1, 2, 'Organ'],
      [3, 4, 'Organ'],
      [5, 6, 'Organ'],
      [6, 7, 'Tissue'],
      [7, 8, 'Cell'],
    ]);
  });
});

describe('metaserver score MENTION --single-class', () => {
  let dir: string;
  afterAll(async () => dir && rm(dir, { recursive: true, force: true }));

  it('scores the worked example as evalbio.pl -1 does; without --single-class it is refused', async () => {
    dir = await mkdtemp(join(tmpdir(), 'score-single-class-'));
    await writeFile(join(dir, 'gold.bio'), GOLD);
    await writeFile(join(dir, 'pred.bio'), PRED);
    const single = await score('MENTION', '--gold', join(dir, 'gold.bio'), '--single-class', join(dir, 'pred.bio'));
    expect(single.code).toBe(0);
    const metrics = JSON.parse(single.out).runs[0].metrics;
    expect(metrics.strict).toMatchObject({ tp: 2, fp: 2, fn: 1 });
    expect(metrics.left).toMatchObject({ tp: 3, fp: 1, fn: 0 });
    expect(metrics.right).toMatchObject({ tp: 3, fp: 1, fn: 0 });
    const multi = await score('MENTION', '--gold', join(dir, 'gold.bio'), join(dir, 'pred.bio'));
    expect(multi.code).toBe(1);
    expect(multi.err).toMatch(/pred\.bio, line 2: I-Organ follows a Tissue mention/);
  });
});
