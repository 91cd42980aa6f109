// Line and field reading shared by the BC II.5 TSV parsers, as bc-evaluate 2.3.1 reads
// them: each line stripped and split on TAB, an empty line an error, ranks integers ≥ 1,
// confidences in (0,1]. Errors name the file and line.
//
// A scoring request parses every line of every run (INT at BC II.5 scale: 52 runs, ~480k
// lines), so this is the hot loop. `TsvScanner` reads a line in place: it records where
// the fields start and end instead of slicing them, and reads ranks and confidences
// straight from the character codes. Strings are cut only for what a parser keeps (see
// bc2-input.ts for the INT/IPT runs). Anything unusual (signs, exponents, spaces inside a number,
// a bad value) goes to the careful string-based readers, which also build the errors.

import { ScoringInputError } from './errors.ts';

/** What String.prototype.trim strips (JS white space and line terminators). */
function isSpace(code: number): boolean {
  return (
    code === 32 ||
    (code >= 9 && code <= 13) ||
    code === 0xa0 ||
    code === 0xfeff ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x3000 ||
    code === 0x1680 ||
    code === 0x202f ||
    code === 0x205f
  );
}

const TAB = 9;
const ZERO = 48;
const NINE = 57;
const POINT = 46;

// FNV-1a (32 bits): a few operations a character, and good enough to spread item keys
// over a small hash table; equal hashes are always confirmed by comparing the text.
const FNV_OFFSET = 0x811c9dc5;

function hashStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, 0x01000193);
}

/**
 * A cursor over the lines of a TSV text. `next()` moves to the next line (stripped, as
 * bc-evaluate strips it) and `split(max)` finds the bounds of its first `max` fields;
 * fields are then read in place by index. Only `\n` ends a line: a `\r` before it is
 * white space that the strip removes, so CRLF files read like LF files.
 */
export class TsvScanner {
  /** 1-based number of the current line (0 before the first `next()`). */
  line = 0;
  /** Start of the next line in `text`. */
  private pos = 0;
  /** Bounds of the current line after stripping. */
  private lineStart = 0;
  private lineEnd = 0;
  /** Bounds of the fields found by the last `split`; reused from line to line. */
  private starts = new Int32Array(8);
  private ends = new Int32Array(8);
  /** The first TAB at or after `searchedFrom` (see nextTab). */
  private searchedFrom = 0;
  private tabAhead = -1;

  constructor(
    readonly text: string,
    readonly file: string | undefined,
  ) {}

  /**
   * Moves to the next line; false after the last one (a final newline does not make a
   * line). Throws on a line that is empty once stripped.
   */
  next(): boolean {
    const text = this.text;
    if (this.pos >= text.length) return false;
    let newline = text.indexOf('\n', this.pos);
    if (newline === -1) newline = text.length;
    this.line++;
    let start = this.pos;
    let end = newline;
    while (start < end && isSpace(text.charCodeAt(start))) start++;
    while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
    if (start === end) {
      throw new ScoringInputError('empty line', {
        file: this.file,
        line: this.line,
        hint: 'remove blank lines; every line must hold one tab-separated record',
      });
    }
    this.lineStart = start;
    this.lineEnd = end;
    this.pos = newline + 1;
    return true;
  }

  /**
   * Finds the first `max` fields of the current line and returns how many there are
   * (at most `max`). With fewer, the whole line has been scanned, so the count is the
   * line's field count. The last field found ends at the next TAB: extra columns on
   * the right are not looked at.
   */
  split(max: number): number {
    if (max > this.starts.length) {
      this.starts = new Int32Array(max);
      this.ends = new Int32Array(max);
    }
    const end = this.lineEnd;
    let from = this.lineStart;
    let count = 0;
    while (count < max - 1) {
      const tab = this.nextTab(from);
      if (tab >= end) break;
      this.starts[count] = from;
      this.ends[count] = tab;
      count++;
      from = tab + 1;
    }
    const tab = this.nextTab(from);
    this.starts[count] = from;
    this.ends[count] = tab < end ? tab : end;
    return count + 1;
  }

  /**
   * The first TAB at or after `from` (the text's length if none). indexOf is a native
   * scan, faster than a loop over the characters; a search that finds the TAB on a later
   * line is remembered, so lines without enough TABs do not make it search the same
   * stretch of text again and again (which would be quadratic).
   */
  private nextTab(from: number): number {
    if (from < this.searchedFrom || from > this.tabAhead) {
      const tab = this.text.indexOf('\t', from);
      this.searchedFrom = from;
      this.tabAhead = tab === -1 ? this.text.length : tab;
    }
    return this.tabAhead;
  }

  /** Field `i` (as found by the last `split`) as a string. */
  field(i: number): string {
    return this.text.slice(this.starts[i], this.ends[i]);
  }

  /** Every field of the current line, as bc-evaluate's `line.strip().split('\t')`. */
  fields(): string[] {
    // Cut field by field: cheaper than slicing the line and calling split on it.
    const text = this.text;
    const end = this.lineEnd;
    const fields: string[] = [];
    let from = this.lineStart;
    for (let tab = this.nextTab(from); tab < end; tab = this.nextTab(from)) {
      fields.push(text.slice(from, tab));
      from = tab + 1;
    }
    fields.push(text.slice(from, end));
    return fields;
  }

  /** Whether field `i` is exactly `value`, compared in place. */
  fieldIs(i: number, value: string): boolean {
    const start = this.starts[i];
    const length = value.length;
    if (this.ends[i] - start !== length) return false;
    // A loop beats startsWith here: ids are short, and the call would cost more than the compare.
    const text = this.text;
    for (let k = 0; k < length; k++) if (text.charCodeAt(start + k) !== value.charCodeAt(k)) return false;
    return true;
  }

  /** Where field `i` starts in `text`. */
  start(i: number): number {
    return this.starts[i];
  }

  /** Where field `i` ends in `text` (exclusive). */
  end(i: number): number {
    return this.ends[i];
  }

  /**
   * A hash (FNV-1a) of field `first`, or of `first` TAB `second`: the same for the same
   * text, so a parser can look for duplicates by comparing numbers, and compare the text
   * only when two hashes agree.
   */
  hashFields(first: number, second = -1): number {
    let hash = this.hashField(first, FNV_OFFSET);
    if (second >= 0) hash = this.hashField(second, hashStep(hash, TAB));
    return hash;
  }

  /** Whether `text[aStart, aEnd)` and `text[bStart, bEnd)` are the same characters. */
  sameText(aStart: number, aEnd: number, bStart: number, bEnd: number): boolean {
    const length = aEnd - aStart;
    if (bEnd - bStart !== length) return false;
    const text = this.text;
    for (let k = 0; k < length; k++) if (text.charCodeAt(aStart + k) !== text.charCodeAt(bStart + k)) return false;
    return true;
  }

  private hashField(i: number, hash: number): number {
    const text = this.text;
    const end = this.ends[i];
    for (let k = this.starts[i]; k < end; k++) hash = hashStep(hash, text.charCodeAt(k));
    return hash;
  }

  /** Fields `a` and `b` compared as JS strings compare (UTF-16 code units), in place. */
  compareFields(a: number, b: number): number {
    const text = this.text;
    const aStart = this.starts[a];
    const bStart = this.starts[b];
    const aLength = this.ends[a] - aStart;
    const bLength = this.ends[b] - bStart;
    const common = aLength < bLength ? aLength : bLength;
    for (let k = 0; k < common; k++) {
      const diff = text.charCodeAt(aStart + k) - text.charCodeAt(bStart + k);
      if (diff !== 0) return diff;
    }
    return aLength - bLength;
  }

  /** Field `i` as a rank (an integer ≥ 1); throws naming this line otherwise. */
  rank(i: number): number {
    const fast = unsignedAt(this.text, this.starts[i], this.ends[i]);
    return fast >= 1 ? fast : parseRank(this.field(i), this.file, this.line);
  }

  /** Field `i` as a confidence in (0,1]; throws naming this line otherwise. */
  confidence(i: number): number {
    const fast = decimalAt(this.text, this.starts[i], this.ends[i]);
    return fast > 0 && fast <= 1 ? fast : parseConfidence(this.field(i), this.file, this.line);
  }
}

/**
 * Calls `visit` with the fields of every line; the final newline does not make a line.
 * For the small files (gold standards, maps, ACT runs); the INT/IPT run parser uses
 * `TsvScanner` directly to avoid the per-line arrays.
 */
export function forEachLine(text: string, file: string | undefined, visit: (fields: string[], line: number) => void): void {
  const scanner = new TsvScanner(text, file);
  while (scanner.next()) visit(scanner.fields(), scanner.line);
}

export function requireColumns(fields: string[], count: number, what: string, file: string | undefined, line: number): void {
  if (fields.length < count) {
    throw new ScoringInputError(`expected ${count} tab-separated columns (${what}), found ${fields.length}`, {
      file,
      line,
      hint: 'separate columns with TAB characters and check the --columns option',
    });
  }
}

export const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** `text[start, end)` as plain digits (the common case), else NaN so the careful path decides. */
function unsignedAt(text: string, start: number, end: number): number {
  // Nine digits stay far below 2^53, so the sum is exact.
  if (start === end || end - start > 9) return NaN;
  let value = 0;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code < ZERO || code > NINE) return NaN;
    value = value * 10 + (code - ZERO);
  }
  return value;
}

const POWERS_OF_TEN = Array.from({ length: 16 }, (_, k) => 10 ** k);

/**
 * `text[start, end)` as `d.ddd` or `d` (the common case), else NaN so the careful path
 * decides. With at most 15 digits the integer mantissa and 10^k are exact doubles, so one
 * division is correctly rounded: the same double Number() would give (Clinger's fast path).
 */
function decimalAt(text: string, start: number, end: number): number {
  if (start === end || end - start > 16) return NaN;
  let mantissa = 0;
  let digits = 0;
  let point = -1;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code >= ZERO && code <= NINE) {
      mantissa = mantissa * 10 + (code - ZERO);
      digits++;
    } else if (code === POINT && point === -1 && i > start) point = i;
    else return NaN;
  }
  if (digits > 15) return NaN;
  return point === -1 ? mantissa : mantissa / POWERS_OF_TEN[end - point - 1];
}

export function parseRank(raw: string, file?: string, line?: number): number {
  const fast = unsignedAt(raw, 0, raw.length);
  if (fast >= 1) return fast;
  const text = raw.trim();
  if (!INTEGER.test(text)) {
    throw new ScoringInputError(`rank "${raw}" is not an integer`, { file, line, hint: 'ranks are integers ≥ 1' });
  }
  const rank = Number(text);
  if (rank <= 0) throw new ScoringInputError(`rank ${rank} is not ≥ 1`, { file, line, hint: 'ranks are integers ≥ 1' });
  return rank;
}

export function parseConfidence(raw: string, file?: string, line?: number): number {
  const fast = decimalAt(raw, 0, raw.length);
  if (fast > 0 && fast <= 1) return fast;
  const text = raw.trim();
  const hint = 'confidences are numbers greater than 0 and at most 1';
  if (!DECIMAL.test(text)) throw new ScoringInputError(`confidence "${raw}" is not a number`, { file, line, hint });
  const confidence = Number(text);
  if (!(confidence > 0 && confidence <= 1)) {
    throw new ScoringInputError(`confidence ${text} is outside (0,1]`, { file, line, hint });
  }
  return confidence;
}
