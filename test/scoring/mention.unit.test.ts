import { describe, expect, it } from 'vitest';
import { errorOf } from '../support/scoring-errors.ts';
import { scoreMentions } from '../../src/scoring/mention.ts';
import { checkBioAlignment, parseBio, parseBratMentions } from '../../src/scoring/mention-input.ts';

const bio = (...lines: string[]) => lines.map((line) => line.replace(' ', '\t')).join('\n') + '\n';
const ann = (...lines: string[]) => lines.map((line) => line.replace(/ \| /g, '\t')).join('\n') + '\n';

describe('BIO parsing', () => {
  it('reads IOB2 mentions as token spans across sentences', () => {
    const { value } = parseBio(bio('The O', 'left B-Organ', 'ventricle I-Organ', '', 'Hepatocytes B-Cell', 'die O'));
    expect(value.tokens).toEqual(['The', 'left', 'ventricle', 'Hepatocytes', 'die']);
    expect(value.mentions).toEqual([
      { doc: '', start: 1, end: 3, type: 'Organ' },
      { doc: '', start: 3, end: 4, type: 'Cell' },
    ]);
  });

  it('decides boundaries with the types: B-Cell I-Cell B-Organ is two mentions', () => {
    const { value } = parseBio(bio('a B-Cell', 'b I-Cell', 'c B-Organ'));
    expect(value.mentions.map((m) => [m.start, m.end, m.type])).toEqual([
      [0, 2, 'Cell'],
      [2, 3, 'Organ'],
    ]);
  });

  it('rejects I-X after O or after another type with the line number, unless lenient', () => {
    const afterO = errorOf(() => parseBio(bio('a O', 'b I-Cell'), { file: 'run.bio' }));
    expect(afterO.line).toBe(2);
    expect(afterO.message).toMatch(/run\.bio, line 2: I-Cell follows O/);
    expect(errorOf(() => parseBio(bio('a B-Organ', 'b I-Organ', 'c I-Cell'))).line).toBe(3);
    expect(errorOf(() => parseBio(bio('a B-Cell', '', 'b I-Cell'))).line).toBe(3);
    const lenient = parseBio(bio('a O', 'b I-Cell', 'c I-Cell'), { lenient: true });
    expect(lenient.value.mentions.map((m) => [m.start, m.end])).toEqual([[1, 3]]);
    expect(lenient.warnings[0]).toMatch(/line 2: I-Cell follows O; read as B-Cell/);
  });

  it('rejects unknown tags and lines without a tag', () => {
    expect(errorOf(() => parseBio(bio('a O', 'b X-Cell'))).reason).toMatch(/unknown tag "X-Cell"/);
    expect(errorOf(() => parseBio('a\tO\nlonely\n')).line).toBe(2);
  });

  it('reads IOBES (BIOES) and BILOU tags as the same mentions as IOB2', () => {
    const tokens = ['The', 'left', 'ventricle', 'and', 'heart', '', 'Hepatocytes', 'of', 'liver', 'lobules'];
    const tagged = (tags: string[]) => bio(...tokens.map((t, i) => (t === '' ? '' : `${t} ${tags[i]}`)));
    const iob2 = parseBio(tagged(['O', 'B-Organ', 'I-Organ', 'O', 'B-Organ', '', 'B-Cell', 'O', 'B-Tissue', 'I-Tissue']));
    const iobes = parseBio(tagged(['O', 'B-Organ', 'E-Organ', 'O', 'S-Organ', '', 'S-Cell', 'O', 'B-Tissue', 'E-Tissue']));
    const bilou = parseBio(tagged(['O', 'B-Organ', 'L-Organ', 'O', 'U-Organ', '', 'U-Cell', 'O', 'B-Tissue', 'L-Tissue']));
    const expected = [
      [1, 3, 'Organ'],
      [4, 5, 'Organ'],
      [5, 6, 'Cell'],
      [7, 9, 'Tissue'],
    ];
    for (const parsed of [iob2, iobes, bilou]) {
      expect(parsed.value.mentions.map((m) => [m.start, m.end, m.type])).toEqual(expected);
      expect(parsed.warnings).toEqual([]);
    }
    // A run in IOBES scores against IOB2 gold like the same run in IOB2.
    checkBioAlignment(iob2.value, iobes.value);
    expect(scoreMentions(iob2.value.mentions, iobes.value.mentions).strict).toMatchObject({ tp: 4, fp: 0, fn: 0 });
    // Three-token mentions: B I E.
    expect(parseBio(bio('a B-Cell', 'b I-Cell', 'c E-Cell', 'd O')).value.mentions.map((m) => [m.start, m.end])).toEqual([[0, 3]]);
  });

  it('rejects broken IOBES/BILOU sequences and mixed schemes with the line number, unless lenient', () => {
    const unclosed = errorOf(() => parseBio(bio('a S-Cell', 'b B-Organ', 'c O'), { file: 'run.bio' }));
    expect(unclosed.line).toBe(3);
    expect(unclosed.reason).toMatch(/B-Organ \(line 2\) is not closed by E-Organ before O/);
    expect(errorOf(() => parseBio(bio('a B-Cell', 'b I-Cell', '', 'c S-Cell'))).reason).toMatch(
      /not closed by E-Cell before the end of the sentence/,
    );
    expect(errorOf(() => parseBio(bio('a U-Cell', 'b B-Cell', 'c I-Cell'))).reason).toMatch(
      /not closed by L-Cell before the end of the sentence/,
    );
    const stray = errorOf(() => parseBio(bio('a O', 'b E-Cell')));
    expect([stray.line, stray.reason]).toEqual([2, 'E-Cell follows O']);
    expect(errorOf(() => parseBio(bio('a B-Cell', 'b E-Organ'))).reason).toBe('E-Organ follows a Cell mention');
    const mixed = errorOf(() => parseBio(bio('a S-Cell', 'b O', 'c U-Cell')));
    expect([mixed.line, mixed.reason]).toEqual([3, 'U-Cell is a BILOU tag, but line 1 already used IOBES tags']);
    // An earlier sequence error is reported before a later unreadable line.
    expect(errorOf(() => parseBio(bio('a O', 'b E-Cell', 'c X-Cell'))).line).toBe(2);

    const lenient = parseBio(bio('a B-Cell', 'b O', 'c E-Organ', 'd S-Cell'), { lenient: true });
    expect(lenient.value.mentions.map((m) => [m.start, m.end, m.type])).toEqual([
      [0, 1, 'Cell'],
      [2, 3, 'Organ'],
      [3, 4, 'Cell'],
    ]);
    expect(lenient.warnings).toEqual([
      'input, line 2: B-Cell (line 1) is not closed by E-Cell before O; read as ending there',
      'input, line 3: E-Organ follows O; read as S-Organ',
    ]);
  });

  it('checks that gold and response hold the same tokens', () => {
    const gold = parseBio(bio('a O', 'b O')).value;
    const other = parseBio(bio('a O', 'x O')).value;
    expect(errorOf(() => checkBioAlignment(gold, other, { response: 'r.bio' })).line).toBe(2);
    expect(errorOf(() => checkBioAlignment(gold, parseBio(bio('a O')).value)).reason).toMatch(/1 tokens, the gold has 2/);
    expect(() => checkBioAlignment(gold, gold)).not.toThrow();
  });
});

describe('brat parsing', () => {
  it('reads text-bound annotations and skips other kinds', () => {
    const mentions = parseBratMentions(
      ann('T1 | Cell 0 5 | cells', 'R1 | Part Arg1:T1 Arg2:T2', '#1 | Note T1 | x', 'T2 | Organ 10 14;16 20 | a b'),
      { doc: 'd1' },
    );
    expect(mentions).toEqual([
      { doc: 'd1', start: 0, end: 5, type: 'Cell' },
      { doc: 'd1', start: 10, end: 20, type: 'Organ' },
    ]);
  });

  it('rejects a malformed text-bound line with its number', () => {
    expect(errorOf(() => parseBratMentions(ann('T1 | Cell 0 5 | a', 'T2 | Cell five 9 | b'))).line).toBe(2);
  });
});

describe('mention scoring', () => {
  const gold = parseBratMentions(ann('T1 | Cell 0 5 | x', 'T2 | Organ 10 20 | y'), { doc: 'd' });
  const response = parseBratMentions(ann('T1 | Cell 0 5 | x', 'T2 | Organ 12 20 | y', 'T3 | Organ 30 40 | z'), { doc: 'd' });

  it('counts strict, left and right matches (multi-class)', () => {
    const score = scoreMentions(gold, response);
    expect(score.strict).toMatchObject({ tp: 1, fp: 2, fn: 1 });
    expect(score.strict.p).toBeCloseTo(1 / 3, 9);
    expect(score.strict.r).toBeCloseTo(0.5, 9);
    expect(score.strict.f).toBeCloseTo(0.4, 9);
    expect(score.left).toMatchObject({ tp: 1, fp: 2, fn: 1 });
    expect(score.right).toMatchObject({ tp: 2, fp: 1, fn: 0 });
    expect(score.right.f).toBeCloseTo(0.8, 9);
    expect(score.perType.Organ.right).toMatchObject({ tp: 1, fp: 1, fn: 0 });
    expect(score.perType.Cell.strict.f).toBeCloseTo(1, 9);
  });

  it('never matches across documents', () => {
    const elsewhere = response.map((m) => ({ ...m, doc: 'e' }));
    expect(scoreMentions(gold, elsewhere).right.tp).toBe(0);
  });

  it('single-class ignores types when matching, yet BIO boundaries were decided with types', () => {
    const goldBio = parseBio(bio('a B-Cell', 'b I-Cell', 'c B-Organ')).value.mentions;
    const sameBoundsOtherType = parseBio(bio('a B-Cell', 'b I-Cell', 'c B-Cell')).value.mentions;
    const single = scoreMentions(goldBio, sameBoundsOtherType, { singleClass: true });
    expect(single.strict).toMatchObject({ tp: 2, fp: 0, fn: 0, p: 1, r: 1, f: 1 });
    const multi = scoreMentions(goldBio, sameBoundsOtherType);
    expect(multi.strict).toMatchObject({ tp: 1, fp: 1, fn: 1 });
    expect(multi.perType.Cell.strict.p).toBeCloseTo(0.5, 9);
    expect(multi.perType.Organ.strict).toMatchObject({ tp: 0, fp: 0, fn: 1, r: 0 });

    // One long response over both gold mentions: only a boundary criterion can match.
    const merged = parseBio(bio('a B-Cell', 'b I-Cell', 'c I-Cell')).value.mentions;
    const loose = scoreMentions(goldBio, merged, { singleClass: true });
    expect(loose.strict).toMatchObject({ tp: 0, fp: 1, fn: 2 });
    expect(loose.left).toMatchObject({ tp: 1, fp: 0, fn: 1 });
    expect(loose.right).toMatchObject({ tp: 1, fp: 0, fn: 1 });
    expect(loose.right.f).toBeCloseTo(2 / 3, 9);
  });

  it('with nested standoff spans one response may match several gold mentions', () => {
    const nested = parseBratMentions(ann('T1 | Organ 0 20 | a', 'T2 | Cell 5 20 | b'), { doc: 'd' });
    const one = parseBratMentions(ann('T1 | Cell 0 20 | a'), { doc: 'd' });
    const single = scoreMentions(nested, one, { singleClass: true });
    expect(single.right).toMatchObject({ tp: 1, fp: 0, fn: 0, p: 1, r: 1 });
    const multi = scoreMentions(nested, one);
    expect(multi.strict.tp).toBe(0);
    expect(multi.right).toMatchObject({ tp: 1, fp: 0, fn: 1 });
    expect(multi.right.f).toBeCloseTo(2 / 3, 9);
  });
});
