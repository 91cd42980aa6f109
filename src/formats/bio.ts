// CoNLL-style BIO (IOB2) for MENTION: `token<TAB>tag` per line, each sentence followed by
// a blank line (so the file ends with one, as evalbio.pl demands). BIO has no offsets, so
// export tokenises the text and import aligns the tokens back onto the text to recover
// code-point offsets; the tags are read by the scoring library's BIO parser (IOB2, IOBES
// or BILOU), so an imported run and a BIO gold file read alike.
//
// The tokeniser (documented for people who tag its output by hand):
// - a token is a run of letters, digits and combining marks, or any single other
//   character that is not white space (so "IL-2," is `IL` `-` `2` `,`); white space is
//   what Unicode and Python call so, so no reader splits a token or its line;
// - tokens are also cut at every mention boundary, so each mention is whole tokens;
// - a sentence ends after a token `.`, `!` or `?` followed by white space, and wherever
//   the text has a line break; never inside a mention.
// Choices: BIO cannot nest, so of overlapping mentions the longest is kept, then the
// earliest, then the first in the answer; the others (and a mention holding no token,
// only white space) are returned as `leftOut` for the caller to report. An untyped mention
// is written as type `Mention`; confidence, rank and section have no place in BIO; a
// mention's leading or trailing white space is lost.

import { parseBio, ScoringInputError } from '../scoring/index.ts';
import type { MentionItem } from '../families/mention/types.ts';
import { FormatError, LINE_BREAK, typeName } from './common.ts';

export interface Token {
  /** Code-point offsets into the text. */
  start: number;
  end: number;
  text: string;
}

const WORD = /[\p{L}\p{N}\p{M}]/u;
// JavaScript's \s lacks the separators U+001C–U+001F and NEL, which Python splits on.
const SPACE = /[\s\x1c-\x1f\x85]/u;
const SENTENCE_END = new Set(['.', '!', '?']);

/** Tokens of `text` (code-point offsets), also cut at each offset in `cuts`. */
export function tokenize(text: string, cuts: ReadonlySet<number> = new Set()): Token[] {
  const cps = Array.from(text);
  const tokens: Token[] = [];
  let i = 0;
  while (i < cps.length) {
    if (SPACE.test(cps[i])) {
      i++;
      continue;
    }
    let j = i + 1;
    if (WORD.test(cps[i])) while (j < cps.length && WORD.test(cps[j]) && !cuts.has(j)) j++;
    tokens.push({ start: i, end: j, text: cps.slice(i, j).join('') });
    i = j;
  }
  return tokens;
}

export interface BioExport {
  bio: string;
  /** Mentions BIO cannot hold (overlapping a kept one, or without a token), in the answer's order. */
  leftOut: MentionItem[];
}

/** Mentions that do not overlap, chosen longest first, then earliest, then in answer order; sorted by start. */
export function flatMentions(mentions: readonly MentionItem[]): MentionItem[] {
  const order = mentions.map((_, i) => i);
  order.sort((a, b) => {
    const ma = mentions[a];
    const mb = mentions[b];
    return mb.end - mb.start - (ma.end - ma.start) || ma.start - mb.start || a - b;
  });
  const kept: MentionItem[] = [];
  for (const i of order) {
    const m = mentions[i];
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (kept[mid].start < m.start) lo = mid + 1;
      else hi = mid;
    }
    // Kept mentions are disjoint and sorted, so only the neighbours can overlap.
    if ((lo > 0 && kept[lo - 1].end > m.start) || (lo < kept.length && kept[lo].start < m.end)) continue;
    kept.splice(lo, 0, m);
  }
  return kept;
}

export function exportBio(text: string, mentions: readonly MentionItem[]): BioExport {
  const kept = flatMentions(mentions);
  const cuts = new Set(kept.flatMap((m) => [m.start, m.end]));
  const tokens = tokenize(text, cuts);
  const cps = Array.from(text);
  const written = new Set<MentionItem>();
  let out = '';
  let k = 0;
  let previous: Token | undefined;
  let previousMention: MentionItem | undefined;
  for (const token of tokens) {
    while (k < kept.length && kept[k].end <= token.start) k++;
    const m = kept[k] && kept[k].start <= token.start && token.end <= kept[k].end ? kept[k] : undefined;
    if (previous && !(m && m === previousMention)) {
      const gap = cps.slice(previous.end, token.start).join('');
      if (LINE_BREAK.test(gap) || (SENTENCE_END.has(previous.text) && gap !== '')) out += '\n';
    }
    // The first token of a mention is B even when the mention starts with white space.
    const tag = m ? `${m === previousMention ? 'I' : 'B'}-${typeName(m, 'bio')}` : 'O';
    if (m) written.add(m);
    out += `${token.text}\t${tag}\n`;
    previous = token;
    previousMention = m;
  }
  if (out !== '') out += '\n';
  return { bio: out, leftOut: mentions.filter((m) => !written.has(m)) };
}

/** The document line: as many columns as a token line (conlleval counts them), tag O. */
export const BIO_DOCUMENT_START = '-DOCSTART-\tO';

/**
 * Several documents in one CoNLL file: each headed by a `-DOCSTART-` line and a blank
 * line, in the order given; `leftOut` counts the mentions of all documents left out.
 */
export function exportBioDocuments(docs: ReadonlyArray<{ text: string; mentions: readonly MentionItem[] }>): {
  bio: string;
  leftOut: number;
} {
  let bio = '';
  let leftOut = 0;
  for (const doc of docs) {
    const one = exportBio(doc.text, doc.mentions);
    bio += `${BIO_DOCUMENT_START}\n\n${one.bio}`;
    leftOut += one.leftOut.length;
  }
  return { bio, leftOut };
}

/** Mentions of a BIO file whose tokens are those of `text`, in order, with white space between. */
export function importBio(text: string, bio: string, options: { file?: string; lenient?: boolean } = {}): MentionItem[] {
  let parsed;
  try {
    parsed = parseBio(bio, { file: options.file, lenient: options.lenient }).value;
  } catch (error) {
    if (error instanceof ScoringInputError) throw new FormatError('bio', error.message);
    throw error;
  }
  const cps = Array.from(text);
  const starts: number[] = [];
  const ends: number[] = [];
  let at = 0;
  parsed.tokens.forEach((token, i) => {
    while (at < cps.length && SPACE.test(cps[at])) at++;
    const tokenCps = Array.from(token);
    if (cps.slice(at, at + tokenCps.length).join('') !== token) {
      const found = cps.slice(at, at + tokenCps.length).join('');
      throw new FormatError(
        'bio',
        `line ${parsed.tokenLines[i]}: token "${token}" does not match the text at code point ${at} ("${found}")`,
      );
    }
    starts.push(at);
    at += tokenCps.length;
    ends.push(at);
  });
  if (cps.slice(at).some((c) => !SPACE.test(c))) {
    throw new FormatError('bio', `the tokens end at code point ${at}, before the end of the text`);
  }
  return parsed.mentions.map((m) => {
    const start = starts[m.start];
    const end = ends[m.end - 1];
    return { start, end, text: cps.slice(start, end).join(''), type: m.type };
  });
}
