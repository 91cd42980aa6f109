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

/** Letter or digit → 0..35 (digits first), or -1. */
function alnum(c: number): number {
  if (c >= ZERO && c <= NINE) return c - ZERO;
  if (c >= A && c <= Z) return c - A + 10;
  return -1;
}

function digit(c: number): number {
  return c >= ZERO && c <= NINE ? c - ZERO : -1;
}

/** First letter of the non-OPQ form: A–N, R–Z → 0..22, else -1. */
function firstLetter(c: number): number {
  if (c >= A && c <= 78 /* N */) return c - A;
  if (c >= 82 /* R */ && c <= Z) return c - 82 + 14;
  return -1;
}

/** BLOCK at position i → 0..BLOCK-1, or -1 when the four characters do not fit. */
function block(s: string, i: number): number {
  const l = s.charCodeAt(i);
  if (l < A || l > Z) return -1;
  const x = alnum(s.charCodeAt(i + 1));
  const y = alnum(s.charCodeAt(i + 2));
  const d = digit(s.charCodeAt(i + 3));
  if (x < 0 || y < 0 || d < 0) return -1;
  return (((l - A) * 36 + x) * 36 + y) * 10 + d;
}

/**
 * The code of an accession, or -1 when the string does not match the pattern. Checks
 * the characters itself instead of running the regular expression: this is the hot path
 * of every index lookup.
 */
export function encodeAccession(s: string): number {
  const n = s.length;
  if (n !== 6 && n !== 10) return -1;
  const c0 = s.charCodeAt(0);
  const d1 = digit(s.charCodeAt(1));
  if (d1 < 0) return -1;
  if (c0 === 79 || c0 === 80 || c0 === 81) {
    // O, P, Q: only the 6-character form exists.
    if (n !== 6) return -1;
    const x2 = alnum(s.charCodeAt(2));
    const x3 = alnum(s.charCodeAt(3));
    const x4 = alnum(s.charCodeAt(4));
    const d5 = digit(s.charCodeAt(5));
    if (x2 < 0 || x3 < 0 || x4 < 0 || d5 < 0) return -1;
    return (((((c0 - 79) * 10 + d1) * 36 + x2) * 36 + x3) * 36 + x4) * 10 + d5;
  }
  const f = firstLetter(c0);
  if (f < 0) return -1;
  const head = f * 10 + d1;
  const b1 = block(s, 2);
  if (b1 < 0) return -1;
  if (n === 6) return OPQ_COUNT + head * BLOCK + b1;
  const b2 = block(s, 6);
  if (b2 < 0) return -1;
  return TEN_BASE + (head * BLOCK + b1) * BLOCK + b2;
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
