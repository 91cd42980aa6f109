// CoNLL-style BIO (IOB2) for MENTION: `token<TAB>tag` per line, a blank line between
// sentences. BIO has no offsets, so export tokenises the text and import aligns the
// tokens back onto the text to recover code-point offsets; the tags are read by the
// scoring library's BIO parser, so an imported run and a BIO gold file read alike.
//
// The tokeniser (documented for people who tag its output by hand):
// - a token is a run of letters, digits and combining marks, or any single other
//   character that is not white space (so "IL-2," is `IL` `-` `2` `,`);
// - tokens are also cut at every mention boundary, so each mention is whole tokens;
// - a sentence ends after a token `.`, `!` or `?` followed by white space, and wherever
//   the text has a line break; never inside a mention.
// Choices: mentions overlapping an earlier one cannot be written in BIO and are returned
// as `skipped`; an untyped mention is written as type `Mention`; confidence, rank and
// section have no place in BIO; a mention's leading or trailing white space is lost.

import { parseBio, ScoringInputError } from '../scoring/index.ts';
import type { MentionItem } from '../tasks/types.ts';
import { FormatError, typeName } from './common.ts';

export interface Token {
  /** Code-point offsets into the text. */
  start: number;
  end: number;
  text: string;
}

const WORD = /[\p{L}\p{N}\p{M}]/u;
const SPACE = /\s/u;
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
  /** Mentions that overlap an earlier one (BIO cannot nest). */
  skipped: MentionItem[];
}

export function exportBio(text: string, mentions: readonly MentionItem[]): BioExport {
  const sorted = [...mentions].sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: MentionItem[] = [];
  const skipped: MentionItem[] = [];
  for (const m of sorted) {
    if (kept.length > 0 && m.start < kept[kept.length - 1].end) skipped.push(m);
    else kept.push(m);
  }
  const cuts = new Set(kept.flatMap((m) => [m.start, m.end]));
  const tokens = tokenize(text, cuts);
  const cps = Array.from(text);
  let out = '';
  let k = 0;
  let previous: Token | undefined;
  let previousMention: MentionItem | undefined;
  for (const token of tokens) {
    while (k < kept.length && kept[k].end <= token.start) k++;
    const m = kept[k] && kept[k].start <= token.start && token.end <= kept[k].end ? kept[k] : undefined;
    if (previous && !(m && m === previousMention)) {
      const gap = cps.slice(previous.end, token.start).join('');
      if (/[\n\r\u2028\u2029]/.test(gap) || (SENTENCE_END.has(previous.text) && gap !== '')) out += '\n';
    }
    // The first token of a mention is B even when the mention starts with white space.
    const tag = m ? `${m === previousMention ? 'I' : 'B'}-${typeName(m, 'bio')}` : 'O';
    out += `${token.text}\t${tag}\n`;
    previous = token;
    previousMention = m;
  }
  return { bio: out, skipped };
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
      throw new FormatError('bio', `line ${parsed.tokenLines[i]}: token "${token}" does not match the text at code point ${at} ("${found}")`);
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
