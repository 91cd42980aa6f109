// Sentence-frame features (Cohen et al. 2004, §2.2): slots and their positions and
// typographic context are read off the frame; list context and apposition are declared
// by the catalogue (they need a reader); the false-positive bait features (keywords,
// gene-like tokens, -ase/-in words) are computed for every frame.

import { FUNCTION_WORDS, KEYWORDS } from './lexicon.ts';
import { punctuationName, unique } from './text-spans.ts';
import type { Features, SlotFeatures, SlotPosition } from './types.ts';

export const SLOT = '<>';
export const LIST_CONTEXTS = ['none', 'coordination', 'asyndetic', 'complex'] as const;
export type ListContext = (typeof LIST_CONTEXTS)[number];

const CONTENT = /[\p{L}\p{N}]/u;

/** UTF-16 indices of the slots of a frame, left to right. */
function slotIndices(frame: string): number[] {
  const found: number[] = [];
  for (let i = frame.indexOf(SLOT); i >= 0; i = frame.indexOf(SLOT, i + SLOT.length)) found.push(i);
  return found;
}

function contextOf(ch: string | undefined): string {
  if (ch === undefined || /\s/.test(ch)) return 'none';
  return punctuationName(ch) ?? 'other';
}

/** Per slot: I when nothing but punctuation precedes it, F when nothing but punctuation follows (another slot counts as content). */
export function slotFeatures(frame: string): SlotFeatures[] {
  return slotIndices(frame).map((at) => {
    const before = frame.slice(0, at);
    const after = frame.slice(at + SLOT.length);
    const position: SlotPosition[] = [];
    if (!CONTENT.test(before) && !before.includes(SLOT)) position.push('I');
    if (!CONTENT.test(after) && !after.includes(SLOT)) position.push('F');
    if (position.length === 0) position.push('M');
    return { position, left: contextOf(frame[at - 1]), right: contextOf(frame[at + SLOT.length]) };
  });
}

function tokens(frame: string): string[] {
  return frame
    .split(SLOT)
    .join(' ')
    .split(/\s+/)
    .map((t) => t.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((t) => t.length > 0);
}

/** Gene keywords in the frame (`gene`, `protein`, `expression` …), as listed. */
function keywordsOf(frame: string): string[] {
  const byLower = new Map(KEYWORDS.map((k) => [k.toLowerCase(), k]));
  return unique(tokens(frame).flatMap((t) => byLower.get(t.toLowerCase()) ?? []));
}

/** A token that looks like a gene symbol: inner capitals (`QoL`), letters with digits (`H2O`), or an all-capital abbreviation. */
function isGeneLikeToken(token: string): boolean {
  if (/\p{Ll}\p{Lu}/u.test(token)) return true;
  if (/\p{L}/u.test(token) && /\p{N}/u.test(token)) return true;
  return /^\p{Lu}{2,}$/u.test(token);
}

/** A word whose ending mimics enzyme or protein names (`disease`, `database`, `vitamin`). */
function hasBaitMorphology(token: string): boolean {
  const w = token.toLowerCase();
  return /^\p{L}+$/u.test(w) && w.length >= 5 && /(?:ases?|ins?)$/.test(w) && !FUNCTION_WORDS.has(w);
}

export interface SentenceDeclared {
  list?: ListContext;
  appositive?: boolean;
}

/** Every sentence feature; `list` and `appositive` come from the catalogue. */
export function sentenceFeatures(frame: string, type: 'tp' | 'fp', declared: SentenceDeclared = {}): Features {
  const slots = slotFeatures(frame);
  const words = tokens(frame);
  return {
    type,
    'slot.count': slots.length,
    'slot.position': (['I', 'M', 'F'] as const).filter((p) => slots.some((s) => s.position.includes(p))),
    'slot.left': unique(slots.map((s) => s.left)),
    'slot.right': unique(slots.map((s) => s.right)),
    list: declared.list ?? 'none',
    appositive: declared.appositive ?? false,
    keyword: keywordsOf(frame),
    'fp.typographic': words.some(isGeneLikeToken),
    'fp.morphological': words.some(hasBaitMorphology),
  };
}
