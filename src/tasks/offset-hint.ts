// Why a span's text is not at its offset, when a usual slip explains it: offsets counted
// in UTF-16 units (Java, JavaScript and C# index strings so), in UTF-8 bytes (C strings,
// byte strings in Perl or Ruby), or on a copy of the text whose lines end in CR LF. Each
// is tried at the offset sent (a lookup, not a search), so even thousands of wrong offsets
// in a long article cost little; when none explains it, the nearest occurrence is named.
import type { CodePointText } from '../shared/code-points.ts';

interface Tables {
  /** UTF-8 bytes before each UTF-16 index (plus one past the end). */
  utf8: Uint32Array;
  /** Code point index of each LF, in order. */
  newlines: number[];
}

const tablesOf = new WeakMap<CodePointText, Tables>();

function tables(text: CodePointText): Tables {
  let found = tablesOf.get(text);
  if (found) return found;
  const s = text.text;
  const utf8 = new Uint32Array(s.length + 1);
  const newlines: number[] = [];
  let bytes = 0;
  let cp = 0;
  for (let i = 0; i < s.length; i++) {
    utf8[i] = bytes;
    const c = s.charCodeAt(i);
    if (c === 0x0a) newlines.push(cp);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      utf8[++i] = bytes; // the low half starts no character
      bytes += 4;
    } else {
      bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
    }
    cp++;
  }
  utf8[s.length] = bytes;
  found = { utf8, newlines };
  tablesOf.set(text, found);
  return found;
}

/** The last index i with key(i) ≤ target in [0, n] (key non-decreasing), or -1. */
function lastAtMost(n: number, key: (i: number) => number, target: number): number {
  let lo = 0;
  let hi = n;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (key(mid) <= target) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

/** The fragment starts at UTF-16 index `unit` (which starts a code point). */
function startsAt(text: CodePointText, fragment: string, unit: number): boolean {
  return text.text.startsWith(fragment, unit);
}

const explained = (cp: number, why: string): string => `; it occurs at offset ${cp} (offsets count Unicode code points): ${why}`;

function nearestOccurrence(text: CodePointText, fragment: string, offset: number): string {
  let best = -1;
  for (let at = text.text.indexOf(fragment); at >= 0; at = text.text.indexOf(fragment, at + 1)) {
    const cp = text.codePointIndex(at);
    if (best < 0 || Math.abs(cp - offset) < Math.abs(best - offset)) best = cp;
    if (cp > offset) break;
  }
  return best < 0 ? '' : `; the nearest occurrence is at offset ${best} (offsets count Unicode code points)`;
}

/**
 * A hint to append to "… differs from the text at offset N": which way of counting puts
 * `fragment` at `offset`, or where it occurs nearest; '' when it occurs nowhere.
 */
export function offsetHint(text: CodePointText, fragment: string, offset: number): string {
  const s = text.text;
  if (fragment === '' || !s.includes(fragment)) return '';
  // UTF-16 units: the fragment starts at JavaScript index `offset`.
  if (offset <= s.length && startsAt(text, fragment, offset)) {
    const cp = text.codePointIndex(offset);
    if (text.unitIndex(cp) === offset && cp !== offset) {
      return explained(cp, `${offset} is where it starts counted in UTF-16 units, as Java, JavaScript and C# index strings`);
    }
  }
  const { utf8, newlines } = tables(text);
  // UTF-8 bytes: the fragment starts `offset` bytes into the text.
  const unit = lastAtMost(s.length, (i) => utf8[i], offset);
  if (unit >= 0 && utf8[unit] === offset) {
    let start = unit;
    while (start > 0 && utf8[start - 1] === offset) start--; // the high half of a pair, not its low half
    const cp = text.codePointIndex(start);
    if (cp !== offset && startsAt(text, fragment, start)) {
      return explained(cp, `${offset} is where it starts counted in UTF-8 bytes`);
    }
  }
  // Lines ending in CR LF: each LF before the fragment counted twice.
  if (newlines.length > 0) {
    const shifted = (cp: number): number => cp + lastAtMost(newlines.length - 1, (i) => newlines[i], cp - 1) + 1;
    const cp = lastAtMost(text.length, shifted, offset);
    if (cp >= 0 && cp !== offset && shifted(cp) === offset && startsAt(text, fragment, text.unitIndex(cp))) {
      return explained(
        cp,
        `${offset} is where it starts if every line end counts two characters (CR LF), but the text as sent ends its lines with LF alone`,
      );
    }
  }
  return nearestOccurrence(text, fragment, offset);
}
