// Orthographic/typographic entity features (Cohen et al. 2004, §2.1.1) computed from
// the entity string alone: name vs symbol, length, case, numerals, punctuation and
// Greek letters. Morphosyntactic and lexical features live in morphology.ts.

import { GREEK_NAMES, SHORT_GREEK } from './lexicon.ts';
import { entityMorphology } from './morphology.ts';
import { codePointLength } from '../shared/code-points.ts';
import { HYPHENS, positionOfSpan, punctuationName, sortPositions, unique, whitespaceWords, type Position } from './text-spans.ts';
import type { Features, NameOrSymbol } from './types.ts';

export type CaseClass = 'all-upper' | 'all-lower' | 'upper-initial' | 'each-word-upper-initial' | 'mixed' | 'none';
export type GreekFormat = 'spelled' | 'bracketed' | 'symbol';

interface Span {
  start: number;
  end: number;
}
interface GreekSpan extends Span {
  format: GreekFormat;
}

const GREEK_SYMBOL = /[\u0391-\u03A9\u03B1-\u03C9\u03D0-\u03D6\u03F0-\u03F5]/gu;
const GREEK_BRACKETED = new RegExp(`[\\[{](?:${GREEK_NAMES.join('|')})[\\]}]`, 'gi');
// Longest first, so that `beta` is not read as `eta`.
const GREEK_SPELLED = new RegExp(`(?:${[...GREEK_NAMES].sort((a, b) => b.length - a.length).join('|')})`, 'gi');
const LOWER = /\p{Ll}/u;

/** Greek letters in any of the three formats, left to right, without overlaps. */
export function greekSpans(data: string): GreekSpan[] {
  const spans: GreekSpan[] = [];
  const taken = (s: number, e: number) => spans.some((g) => s < g.end && e > g.start);
  for (const m of data.matchAll(GREEK_BRACKETED)) spans.push({ start: m.index, end: m.index + m[0].length, format: 'bracketed' });
  for (const m of data.matchAll(GREEK_SYMBOL)) spans.push({ start: m.index, end: m.index + m[0].length, format: 'symbol' });
  for (const m of data.matchAll(GREEK_SPELLED)) {
    const start = m.index;
    const end = start + m[0].length;
    // A spelled letter is a word or a word part bounded by a case change, a digit or
    // punctuation (`IkappaB`, `alphaTub84B`, `TGF-beta`), never the inside of a longer
    // lower-case word (`alphabet`, `rhomboid`).
    if (LOWER.test(data[start - 1] ?? '') || LOWER.test(data[end] ?? '')) continue;
    if (SHORT_GREEK.has(m[0].toLowerCase()) && m[0] !== m[0].toLowerCase()) continue;
    if (!taken(start, end)) spans.push({ start, end, format: 'spelled' });
  }
  return spans.sort((a, b) => a.start - b.start);
}

/** The heuristic behind `name_vs_symbol` when the catalogue does not say. */
export function guessKind(data: string): NameOrSymbol {
  const text = data.trim();
  if (/\s/.test(text)) return 'name';
  if (/\d/.test(text) || /\p{Lu}/u.test(text.slice(1)) || !/^[\p{L}'\u2019-]+$/u.test(text)) return 'symbol';
  return codePointLength(text) >= 5 ? 'name' : 'symbol';
}

/**
 * The five-valued case class. Greek letters and Roman numerals are ignored: their case
 * follows a convention, not the style of the name (`coagulation factor VIII` is all-lower).
 */
export function caseClass(data: string): CaseClass {
  let text = '';
  let last = 0;
  const ignored = [...greekSpans(data), ...romanSpans(data)].sort((a, b) => a.start - b.start);
  for (const g of ignored) {
    text += data.slice(last, Math.max(last, g.start));
    last = Math.max(last, g.end);
  }
  text += data.slice(last);
  const letters = [...text].filter((c) => /\p{L}/u.test(c));
  if (letters.length === 0) return 'none';
  if (letters.every((c) => c === c.toUpperCase() && c !== c.toLowerCase())) return 'all-upper';
  if (letters.every((c) => c === c.toLowerCase() && c !== c.toUpperCase())) return 'all-lower';
  const isUpper = (c: string) => c === c.toUpperCase() && c !== c.toLowerCase();
  if (isUpper(letters[0]) && letters.slice(1).every((c) => !isUpper(c))) return 'upper-initial';
  const words = text
    .split(new RegExp(`[\\s${HYPHENS}]+`))
    .map((w) => [...w].filter((c) => /\p{L}/u.test(c)))
    .filter((w) => w.length > 0);
  if (words.length >= 2 && words.every((w) => isUpper(w[0]) && w.slice(1).every((c) => !isUpper(c)))) return 'each-word-upper-initial';
  return 'mixed';
}

/** The case feature: the five-valued class, plus `lower-initial` when the string starts with a lower-case letter. */
export function caseValues(data: string): string[] {
  const values: string[] = [caseClass(data)];
  if (LOWER.test([...data][0] ?? '')) values.push('lower-initial');
  return values;
}

const ROMAN = /^(?=[IVX])X{0,3}(?:IX|IV|V?I{0,3})$/;
const TOKEN = new RegExp(`[^\\s${HYPHENS}/(),\\[\\]{};:]+`, 'g');

/** Roman numerals: `II`, `IV` anywhere as a token; single `I`/`V`/`X` only as a later whole word (`factor X`, not `X-linked`). */
export function romanSpans(data: string): Span[] {
  const spans: Span[] = [];
  for (const m of data.matchAll(TOKEN)) {
    const start = m.index;
    const end = start + m[0].length;
    if (!ROMAN.test(m[0])) continue;
    const wholeLaterWord = start > 0 && /\s/.test(data[start - 1]) && (end === data.length || /[\s,;:)]/.test(data[end]));
    if (m[0].length >= 2 || wholeLaterWord) spans.push({ start, end });
  }
  return spans;
}

function numeralFeatures(data: string): Features {
  const arabic = [...data.matchAll(/\p{Nd}+/gu)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
  const roman = romanSpans(data);
  const type = [...(arabic.length ? ['arabic'] : []), ...(roman.length ? ['roman'] : [])];
  const position = sortPositions([...arabic, ...roman].map((s) => positionOfSpan(s.start, s.end, data.length)));
  return { numeral: type.length > 0, 'numeral.type': type, 'numeral.position': position };
}

function punctuationFeatures(data: string): Features {
  const names = [...data].map(punctuationName).filter((n): n is string => n !== undefined);
  return { punctuation: names.length > 0, 'punctuation.count': names.length, 'punctuation.which': unique(names) };
}

function greekFeatures(data: string): Features {
  const spans = greekSpans(data);
  const position: Position[] = spans.map((g) => positionOfSpan(g.start, g.end, data.length));
  return { greek: spans.length > 0, 'greek.position': sortPositions(position), 'greek.format': unique(spans.map((g) => g.format)) };
}

/** Which public database a source authority names (for queries such as `source.db=flybase`). */
export function sourceDb(source: string | undefined): string {
  const s = (source ?? '').toLowerCase();
  if (/\bhgnc\b|\bhugo\b/.test(s)) return 'hgnc';
  if (/\bfbgn\d|\bflybase\b/.test(s)) return 'flybase';
  if (/\bmgi\b/.test(s)) return 'mgi';
  if (/\buniprot\b/.test(s)) return 'uniprot';
  return s ? 'other' : 'none';
}

/** Every automatically computable entity feature; `kind` overrides the name/symbol heuristic. */
export function entityFeatures(data: string, options: { kind?: NameOrSymbol; source?: string } = {}): Features {
  const kind = options.kind ?? guessKind(data);
  return {
    kind,
    length: kind === 'name' ? whitespaceWords(data).length : codePointLength(data),
    case: caseValues(data),
    ...numeralFeatures(data),
    ...punctuationFeatures(data),
    ...greekFeatures(data),
    ...entityMorphology(data, kind),
    'source.db': sourceDb(options.source),
  };
}
