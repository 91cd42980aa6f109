// Small string helpers shared by the feature extractors, the generator and the report.
// Offsets handed to other modules are code points (MentionItem's convention); the
// position helpers work on UTF-16 indices, which is fine because they only compare a
// span with the ends of the same string.

export type Position = 'initial' | 'medial' | 'final';

/** Where a span sits in a string: touching the start wins over touching the end. */
export function positionOfSpan(start: number, end: number, length: number): Position {
  if (start === 0) return 'initial';
  if (end >= length) return 'final';
  return 'medial';
}

/** Where the i-th of n tokens sits (a single token counts as initial). */
export function positionOfIndex(i: number, n: number): Position {
  if (i === 0) return 'initial';
  return i === n - 1 ? 'final' : 'medial';
}

/** Values in first-seen order without repeats (set-valued features keep a stable order). */
export function unique<T>(values: Iterable<T>): T[] {
  return [...new Set(values)];
}

/** Sorted by the canonical position order, for stable set-valued features. */
export function sortPositions(values: Iterable<Position>): Position[] {
  const order: Position[] = ['initial', 'medial', 'final'];
  const set = new Set(values);
  return order.filter((p) => set.has(p));
}

export const HYPHENS = '-\u2010\u2011\u2012\u2013\u2014';

/** The name of a punctuation character, or undefined for letters, digits and spaces. */
export function punctuationName(ch: string): string | undefined {
  if (/[\p{L}\p{N}\s]/u.test(ch)) return undefined;
  if (HYPHENS.includes(ch)) return 'hyphen';
  if ("'\u2019\u2018`".includes(ch)) return 'apostrophe';
  if ('"\u201c\u201d'.includes(ch)) return 'quote';
  if (ch === '/') return 'slash';
  if (ch === '(' || ch === ')') return 'parenthesis';
  if ('[]{}'.includes(ch)) return 'bracket';
  if (ch === '.') return 'period';
  if (ch === ',') return 'comma';
  if (ch === ':') return 'colon';
  if (ch === ';') return 'semicolon';
  if (ch === '+') return 'plus';
  return 'other';
}

/** Whitespace-tokenized words (the paper's unit for the length of names). */
export function whitespaceWords(text: string): string[] {
  return text.split(/\s+/).filter((w) => w.length > 0);
}

/** Words split further at hyphens, with surrounding punctuation stripped (`son-of-sevenless`). */
export function subWords(text: string): string[] {
  return text
    .split(new RegExp(`[\\s${HYPHENS}]+`))
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((w) => w.length > 0);
}
