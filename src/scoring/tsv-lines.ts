// Line and field reading shared by the BC II.5 TSV parsers, as bc-evaluate 2.3.1 reads
// them: each line stripped and split on TAB, an empty line an error, ranks integers ≥ 1,
// confidences in (0,1]. Errors name the file and line.

import { ScoringInputError } from './errors.ts';

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0xfeff || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x3000 || code === 0x1680 || code === 0x202f || code === 0x205f;
}

/**
 * Calls `visit` with the fields of every line; the final newline does not make a line.
 * Scans by character codes rather than trim/split per line: 50 runs of 10,000 lines
 * each are parsed on every scoring request, and this is the hot loop.
 */
export function forEachLine(text: string, file: string | undefined, visit: (fields: string[], line: number) => void): void {
  let start = 0;
  let lineNo = 0;
  const length = text.length;
  while (start < length) {
    let next = text.indexOf('\n', start);
    if (next === -1) next = length;
    lineNo++;
    let s = start;
    let e = next;
    while (s < e && isSpace(text.charCodeAt(s))) s++;
    while (e > s && isSpace(text.charCodeAt(e - 1))) e--;
    if (s === e) {
      throw new ScoringInputError('empty line', { file, line: lineNo, hint: 'remove blank lines; every line must hold one tab-separated record' });
    }
    const fields: string[] = [];
    let from = s;
    for (let tab = text.indexOf('\t', from); tab !== -1 && tab < e; tab = text.indexOf('\t', from)) {
      fields.push(text.slice(from, tab));
      from = tab + 1;
    }
    fields.push(text.slice(from, e));
    visit(fields, lineNo);
    start = next + 1;
  }
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

/** Plain digits only (the common case), else NaN so the careful path decides. */
function fastUnsigned(raw: string): number {
  if (raw.length === 0 || raw.length > 9) return NaN;
  let value = 0;
  for (let i = 0; i < raw.length; i++) {
    const digit = raw.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return NaN;
    value = value * 10 + digit;
  }
  return value;
}

const POWERS_OF_TEN = Array.from({ length: 16 }, (_, k) => 10 ** k);

/**
 * `d.ddd` or `d` (the common case), else NaN so the careful path decides. With at most 15
 * digits the integer mantissa and 10^k are exact doubles, so one division is correctly
 * rounded: the same double Number() would give (Clinger's fast path).
 */
function fastDecimal(raw: string): number {
  const length = raw.length;
  if (length === 0 || length > 16) return NaN;
  let mantissa = 0;
  let digits = 0;
  let point = -1;
  for (let i = 0; i < length; i++) {
    const code = raw.charCodeAt(i);
    if (code === 46 && point === -1 && i > 0) point = i;
    else if (code >= 48 && code <= 57) {
      mantissa = mantissa * 10 + (code - 48);
      digits++;
    } else return NaN;
  }
  if (digits > 15) return NaN;
  return point === -1 ? mantissa : mantissa / POWERS_OF_TEN[length - point - 1];
}

export function parseRank(raw: string, file?: string, line?: number): number {
  const fast = fastUnsigned(raw);
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
  const fast = fastDecimal(raw);
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

