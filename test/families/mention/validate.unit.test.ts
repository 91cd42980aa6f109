import { describe, expect, it } from 'vitest';
import { validateAnswer } from '../../../src/families/validate.ts';
import { context, issues } from '../../tasks/helpers.ts';

// 𝛼 (U+1D6FC) and 😀 (U+1F600) lie outside the BMP: one code point, two UTF-16 units each.
const TEXT = '𝛼-actinin binds 😀 IL-2.';
const mentions = (list: unknown, mentionTypes?: string[]) =>
  validateAnswer({ mentions: list }, context({ tasks: ['MENTION'], text: TEXT, mentionTypes }));

describe('MENTION: code-point offsets', () => {
  it('places mentions by code points, before and after non-BMP characters', () => {
    const answer = mentions([
      { offset: 0, mention: '𝛼-actinin', type: 'protein', confidence: 0.9 },
      { offset: 18, mention: 'IL-2', section: 'abstract' },
      { offset: 16, mention: '😀' },
    ]);
    expect(answer.errors).toEqual([]);
    expect(answer.result.MENTION).toEqual([
      { start: 0, end: 9, text: '𝛼-actinin', type: 'protein', confidence: 0.9 },
      { start: 18, end: 22, text: 'IL-2', section: 'abstract' },
      { start: 16, end: 17, text: '😀' },
    ]);
  });

  it('refuses UTF-16 offsets and says where the mention is', () => {
    // IL-2 starts at code point 3 but at UTF-16 index 5.
    const text = '😀😀 IL-2 binds IL-2R';
    const answer = validateAnswer({ mentions: [{ offset: 5, mention: 'IL-2' }] }, context({ text }));
    expect(issues(answer.errors)).toEqual([
      'mentions[0].mention: "IL-2" differs from the text at offset 5, which is "-2 b"; it occurs at offset 3 (offsets count Unicode code points): 5 is where it starts counted in UTF-16 units, as Java, JavaScript and C# index strings',
    ]);
    expect(validateAnswer({ mentions: [{ offset: 14, mention: 'IL-2R' }] }, context({ text })).errors).toEqual([]);
  });

  it('says when UTF-8 byte offsets or CR LF line ends explain the mismatch, and where it occurs otherwise', () => {
    // BRCA1 starts at code point 10; at UTF-8 byte 15 (Ménière: two 2-byte characters; 𝛼: 4 bytes) and UTF-16 index 11.
    const text = 'Ménière\n𝛼 BRCA1\nand p53\n\np53 again';
    const hint = (item: { offset: number; mention: string }) => issues(validateAnswer({ mentions: [item] }, context({ text })).errors)[0];
    expect(hint({ offset: 15, mention: 'BRCA1' })).toBe(
      'mentions[0].mention: "BRCA1" differs from the text at offset 15, which is "\\nand "; it occurs at offset 10 (offsets count Unicode code points): 15 is where it starts counted in UTF-8 bytes',
    );
    expect(hint({ offset: 11, mention: 'BRCA1' })).toMatch(
      /; it occurs at offset 10 \(offsets count Unicode code points\): 11 is where it starts counted in UTF-16 units/,
    );
    // the second p53 starts at code point 25 after four LFs: 29 if each line end were CR LF (and byte 30 in UTF-8)
    expect(hint({ offset: 29, mention: 'p53' })).toMatch(
      /; it occurs at offset 25 .*: 29 is where it starts if every line end counts two characters \(CR LF\), but the text as sent ends its lines with LF alone$/,
    );
    expect(hint({ offset: 30, mention: 'p53' })).toMatch(/; it occurs at offset 25 .*: 30 is where it starts counted in UTF-8 bytes$/);
    expect(hint({ offset: 33, mention: 'p53' })).toMatch(/; the nearest occurrence is at offset 25 \(offsets count Unicode code points\)$/);
    // past the end: byte offsets in a text with many multi-byte characters
    const long = `${'é'.repeat(20)} p53`;
    expect(issues(validateAnswer({ mentions: [{ offset: 41, mention: 'p53' }] }, context({ text: long })).errors)[0]).toMatch(
      /runs past the end of the text \(24 code points\); it occurs at offset 21 .*: 41 is where it starts counted in UTF-8 bytes$/,
    );
  });

  it('says what the text at the offset is when the mention differs', () => {
    const answer = mentions([{ offset: 10, mention: 'bound' }]);
    expect(issues(answer.errors)).toEqual(['mentions[0].mention: "bound" differs from the text at offset 10, which is "binds"']);
  });

  it('accepts a span that ends exactly at the end of the text', () => {
    expect(mentions([{ offset: 22, mention: '.' }]).errors).toEqual([]);
  });

  it.each([
    [{ offset: -1, mention: 'x' }, 'mentions[0].offset: -1 is negative; offsets count code points from 0'],
    [
      { offset: 20, mention: 'IL-2.' },
      'mentions[0].offset: the span [20, 25) runs past the end of the text (23 code points); it occurs at offset 18 (offsets count Unicode code points): 20 is where it starts counted in UTF-16 units, as Java, JavaScript and C# index strings',
    ],
    [{ offset: 23, mention: 'x' }, 'mentions[0].offset: the span [23, 24) runs past the end of the text (23 code points)'],
    [{ offset: 1.5, mention: 'x' }, 'mentions[0].offset: expected an int, got number 1.5'],
    [{ offset: '18', mention: 'IL-2' }, 'mentions[0].offset: expected an int, got string "18"'],
    [{ mention: 'IL-2' }, 'mentions[0].offset: required field is missing'],
    [{ offset: 18 }, 'mentions[0].mention: required field is missing'],
    [{ offset: 18, mention: '' }, 'mentions[0].mention: empty mention; a mention covers at least one character'],
    [{ offset: 18, mention: 'IL-2', confidence: 0 }, 'mentions[0].confidence: 0 is not in (0,1]'],
    [{ offset: 18, mention: 'IL-2', rank: 0 }, 'mentions[0].rank: 0 is not an integer ≥ 1'],
    [{ offset: 18, mention: 'IL-2', type: 5 }, 'mentions[0].type: expected a string, got number 5'],
  ])('refuses %j', (item, message) => {
    const answer = mentions([item]);
    expect(issues(answer.errors)).toEqual([message]);
    expect(answer.result.MENTION).toBeUndefined();
  });

  it('refuses duplicated ranks and keeps valid ranks in the result', () => {
    expect(
      issues(
        mentions([
          { offset: 18, mention: 'IL-2', rank: 1 },
          { offset: 16, mention: '😀', rank: 1 },
        ]).errors,
      ),
    ).toEqual(['mentions[1].rank: rank 1 is already used by mentions[0]']);
    expect(mentions([{ offset: 18, mention: 'IL-2', rank: 3 }]).result.MENTION?.[0].rank).toBe(3);
  });

  it('checks types against the challenge declaration, and accepts any type without one', () => {
    const answer = mentions([{ offset: 18, mention: 'IL-2', type: 'Gene' }], ['Protein', 'Cell']);
    expect(issues(answer.errors)).toEqual(['mentions[0].type: "Gene" is not a mention type of this challenge (Protein, Cell)']);
    expect(mentions([{ offset: 18, mention: 'IL-2', type: 'Protein' }], ['Protein']).errors).toEqual([]);
    expect(mentions([{ offset: 18, mention: 'IL-2' }], ['Protein']).errors).toEqual([]);
    expect(mentions([{ offset: 18, mention: 'IL-2', type: 'Anything' }], []).errors).toEqual([]);
  });

  it('drops a repeated span and type with a warning', () => {
    const answer = mentions([
      { offset: 18, mention: 'IL-2' },
      { offset: 18, mention: 'IL-2', confidence: 0.5 },
    ]);
    expect(answer.errors).toEqual([]);
    expect(answer.result.MENTION).toHaveLength(1);
    expect(issues(answer.warnings)).toEqual(['mentions[1]: repeats mentions[0] (same span [18, 22) and type); dropped']);
  });

  it('works on an all-BMP text too', () => {
    const answer = validateAnswer({ mentions: [{ offset: 4, mention: 'binds' }] }, context({ text: 'p53 binds MDM2' }));
    expect(answer.result.MENTION).toEqual([{ start: 4, end: 9, text: 'binds' }]);
  });
});
