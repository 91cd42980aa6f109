// Morphosyntactic and lexical entity features (Cohen et al. 2004, §2.1.2 and §2.1.4):
// function words, participles, genitives, plurals, and whether a name contains a
// common English word. All are surface heuristics over a small word list; a catalogue
// record may override any of them.

import { COMMON_WORDS, FUNCTION_WORDS, IRREGULAR_PARTICIPLES, NOT_PARTICIPLES, NOT_PLURALS } from './lexicon.ts';
import { HYPHENS, positionOfIndex, sortPositions, subWords, unique, whitespaceWords, type Position } from './text-spans.ts';
import type { Features, NameOrSymbol } from './types.ts';

const lettersOf = (w: string) => w.toLowerCase().replace(/[^\p{L}]/gu, '');

/**
 * Function words are counted over words split at spaces and hyphens, so that the `of`
 * in `son-of-sevenless` is seen, and their positions are relative to those words
 * (`scott of the antarctic`: two, `of` and `the`, both medial).
 */
function functionWordFeatures(data: string): Features {
  const words = subWords(data);
  const found: { word: string; position: Position }[] = [];
  words.forEach((w, i) => {
    const lower = w.toLowerCase();
    // A capital single letter is a designation (`HLA-A`, `Cyclin A`), not the article.
    if (FUNCTION_WORDS.has(lower) && (w.length > 1 || w === lower)) found.push({ word: lower, position: positionOfIndex(i, words.length) });
  });
  return {
    function_word: found.length > 0,
    'function_word.count': found.length,
    'function_word.which': unique(found.map((f) => f.word)),
    'function_word.position': sortPositions(found.map((f) => f.position)),
  };
}

function participleOf(part: string): 'past' | 'present' | undefined {
  const w = lettersOf(part);
  if (w.length < 5 || NOT_PARTICIPLES.has(w)) return IRREGULAR_PARTICIPLES.has(w) ? 'past' : undefined;
  if (IRREGULAR_PARTICIPLES.has(w) || w.endsWith('ed')) return 'past';
  if (w.endsWith('ing')) return 'present';
  return undefined;
}

/**
 * Participles are positioned by the whitespace word that contains them, as the paper
 * does: `death-associated protein 6` has a past participle in initial position.
 */
function participleFeatures(data: string): Features {
  const words = whitespaceWords(data);
  const found: { type: string; position: Position }[] = [];
  words.forEach((word, i) => {
    for (const part of word.split(new RegExp(`[${HYPHENS}/]`))) {
      const type = participleOf(part);
      if (type) found.push({ type, position: positionOfIndex(i, words.length) });
    }
  });
  return {
    participle: found.length > 0,
    'participle.type': unique(found.map((f) => f.type)).sort(),
    'participle.position': sortPositions(found.map((f) => f.position)),
  };
}

/** `Bloom's`, `Huntington’s`, plural `parents'`. */
export function hasGenitive(data: string): boolean {
  return /\p{L}['\u2019]s(?![\p{L}])/u.test(data) || /\p{L}s['\u2019](?=\s|$)/u.test(data);
}

/** Regular plurals of names (`bag of marbles`, `discs large 1`); symbols such as `Ras` never count. */
export function hasPlural(data: string, kind: NameOrSymbol): boolean {
  if (kind !== 'name') return false;
  return subWords(data).some((raw) => {
    if (/['\u2019]/.test(raw) || /\p{Lu}.*\p{Lu}/u.test(raw)) return false;
    const w = lettersOf(raw);
    if (w.length < 4 || !w.endsWith('s') || NOT_PLURALS.has(w) || FUNCTION_WORDS.has(w)) return false;
    return !/(?:ss|us|is)$/.test(w);
  });
}

/** Whether some word of the entity is an everyday English word (function words aside). */
export function containsCommonWord(data: string): boolean {
  return subWords(data).some((w) => {
    const lower = lettersOf(w);
    return COMMON_WORDS.has(lower) && !FUNCTION_WORDS.has(lower);
  });
}

export function entityMorphology(data: string, kind: NameOrSymbol): Features {
  return {
    ...functionWordFeatures(data),
    ...participleFeatures(data),
    genitive: hasGenitive(data),
    plural: hasPlural(data, kind),
    common_word: containsCommonWord(data),
  };
}
