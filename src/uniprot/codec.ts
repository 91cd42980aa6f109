// Integer coding of UniProt accessions: a bijection between the accession pattern's
// language and integers, so an index stores numbers instead of strings.
//
// Number space (one ordered range, all < 2^46, exact in a double):
//   [0, 13 996 800)            6 chars, first letter O/P/Q:  [OPQ][0-9][A-Z0-9]{3}[0-9]
//   [13 996 800, 91 497 600)   6 chars, other first letters: [A-NR-Z][0-9] BLOCK
//   [2^27, 2^27 + 230·B²)      10 chars:                     [A-NR-Z][0-9] BLOCK BLOCK
// where BLOCK = [A-Z][A-Z0-9]{2}[0-9] has B = 26·36·36·10 = 336 960 values.
// 6-character codes therefore fit in 27 bits, 10-character ones in 2^27 + 45 bits.

const ZERO = 48;
const NINE = 57;
const A = 65;
const Z = 90;

const BLOCK = 26 * 36 * 36 * 10;
const OPQ_COUNT = 3 * 10 * 36 * 36 * 36 * 10;
const SIX_COUNT = OPQ_COUNT + 23 * 10 * BLOCK;
/** Where 10-character codes start: 2^27, above every 6-character code. */
export const TEN_BASE = 2 ** 27;
/** One past the largest code: every code is < CODE_LIMIT ≤ 2^46. */
export const CODE_LIMIT = TEN_BASE + 230 * BLOCK * BLOCK;

/** Character code (< 128) → value, or -1 when the character has no place there. */
function table(value: (c: number) => number): Int8Array {
  const t = new Int8Array(128);
  for (let c = 0; c < 128; c++) t[c] = value(c);
  return t;
}

const isDigit = (c: number): boolean => c >= ZERO && c <= NINE;
const isLetter = (c: number): boolean => c >= A && c <= Z;
/** Digit → 0..9. */
const DIGIT = table((c) => (isDigit(c) ? c - ZERO : -1));
/** Letter → 0..25. */
const LETTER = table((c) => (isLetter(c) ? c - A : -1));
/** Letter or digit → 0..35 (digits first). */
const ALNUM_VALUE = table((c) => (isDigit(c) ? c - ZERO : isLetter(c) ? c - A + 10 : -1));
/** First letter of the non-OPQ form: A–N, R–Z → 0..22. */
const FIRST_VALUE = table((c) => (c >= A && c <= 78 /* N */ ? c - A : c >= 82 /* R */ && c <= Z ? c - 82 + 14 : -1));

/**
 * The code of an accession, or -1 when the string does not match the pattern. Checks
 * the characters itself instead of running the regular expression: this is the hot path
 * of every index lookup. Branch-light: the characters go through small tables (-1 for a
 * character out of place) and one sign test per group catches any misfit.
 */
export function encodeAccession(s: string): number {
  const n = s.length;
  if (n !== 6 && n !== 10) return -1;
  const c0 = s.charCodeAt(0);
  const c1 = s.charCodeAt(1);
  const c2 = s.charCodeAt(2);
  const c3 = s.charCodeAt(3);
  const c4 = s.charCodeAt(4);
  const c5 = s.charCodeAt(5);
  if ((c0 | c1 | c2 | c3 | c4 | c5) > 127) return -1;
  const d1 = DIGIT[c1];
  const x3 = ALNUM_VALUE[c3];
  const x4 = ALNUM_VALUE[c4];
  const d5 = DIGIT[c5];
  if (c0 >= 79 && c0 <= 81) {
    // O, P, Q: [OPQ][0-9][A-Z0-9]{3}[0-9], only the 6-character form exists.
    const x2 = ALNUM_VALUE[c2];
    if (n !== 6 || (d1 | x2 | x3 | x4 | d5) < 0) return -1;
    return (((((c0 - 79) * 10 + d1) * 36 + x2) * 36 + x3) * 36 + x4) * 10 + d5;
  }
  // [A-NR-Z][0-9] BLOCK (BLOCK)?, BLOCK = [A-Z][A-Z0-9]{2}[0-9]
  const f = FIRST_VALUE[c0];
  const l2 = LETTER[c2];
  if ((f | d1 | l2 | x3 | x4 | d5) < 0) return -1;
  const head = f * 10 + d1;
  const b1 = ((l2 * 36 + x3) * 36 + x4) * 10 + d5;
  if (n === 6) return OPQ_COUNT + head * BLOCK + b1;
  const c6 = s.charCodeAt(6);
  const c7 = s.charCodeAt(7);
  const c8 = s.charCodeAt(8);
  const c9 = s.charCodeAt(9);
  if ((c6 | c7 | c8 | c9) > 127) return -1;
  const l6 = LETTER[c6];
  const x7 = ALNUM_VALUE[c7];
  const x8 = ALNUM_VALUE[c8];
  const d9 = DIGIT[c9];
  if ((l6 | x7 | x8 | d9) < 0) return -1;
  return TEN_BASE + (head * BLOCK + b1) * BLOCK + (((l6 * 36 + x7) * 36 + x8) * 10 + d9);
}

const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const FIRST = 'ABCDEFGHIJKLMNRSTUVWXYZ';

function blockText(b: number): string {
  const d = b % 10;
  b = (b - d) / 10;
  const y = b % 36;
  b = (b - y) / 36;
  const x = b % 36;
  const l = (b - x) / 36;
  return String.fromCharCode(A + l) + ALNUM[x] + ALNUM[y] + ALNUM[d];
}

/** The accession of a code; throws for a number that is not a code. */
export function decodeAccession(code: number): string {
  if (!Number.isInteger(code) || code < 0 || code >= CODE_LIMIT || (code >= SIX_COUNT && code < TEN_BASE)) {
    throw new RangeError(`${code} is not an accession code`);
  }
  if (code < OPQ_COUNT) {
    let r = code;
    const d5 = r % 10;
    r = (r - d5) / 10;
    const x4 = r % 36;
    r = (r - x4) / 36;
    const x3 = r % 36;
    r = (r - x3) / 36;
    const x2 = r % 36;
    r = (r - x2) / 36;
    const d1 = r % 10;
    const c0 = (r - d1) / 10;
    return 'OPQ'[c0] + String(d1) + ALNUM[x2] + ALNUM[x3] + ALNUM[x4] + String(d5);
  }
  if (code < SIX_COUNT) {
    const r = code - OPQ_COUNT;
    const b1 = r % BLOCK;
    const head = (r - b1) / BLOCK;
    return FIRST[Math.floor(head / 10)] + String(head % 10) + blockText(b1);
  }
  const r = code - TEN_BASE;
  const b2 = r % BLOCK;
  const rest = (r - b2) / BLOCK;
  const b1 = rest % BLOCK;
  const head = (rest - b1) / BLOCK;
  return FIRST[Math.floor(head / 10)] + String(head % 10) + blockText(b1) + blockText(b2);
}

/** How many 6-character accessions exist (the size of the 6-character code range). */
export const SIX_CHARACTER_CODES = SIX_COUNT;
