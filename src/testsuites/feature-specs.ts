// The feature inventory: every key a query, a record file or a report may name, with its
// value type and (for closed sets) its values. Scope says where the value comes from:
// the entity, the sentence frame as a whole, or the one slot a gold mention filled.

import type { FeatureValue } from './types.ts';

export type FeatureType = 'boolean' | 'number' | 'enum' | 'set' | 'string';
export type FeatureScope = 'entity' | 'sentence' | 'slot';

export interface FeatureSpec {
  key: string;
  scope: FeatureScope;
  type: FeatureType;
  /** The closed set of values, when there is one (open sets list none). */
  values?: readonly string[];
  description: string;
}

const POS = ['initial', 'medial', 'final'] as const;
const PUNCT = [
  'hyphen',
  'apostrophe',
  'quote',
  'slash',
  'parenthesis',
  'bracket',
  'period',
  'comma',
  'colon',
  'semicolon',
  'plus',
  'other',
] as const;
const CONTEXT = ['none', ...PUNCT] as const;

export const FEATURE_SPECS: readonly FeatureSpec[] = [
  {
    key: 'kind',
    scope: 'entity',
    type: 'enum',
    values: ['name', 'symbol'],
    description: 'name or symbol (heuristic unless the catalogue says)',
  },
  { key: 'length', scope: 'entity', type: 'number', description: 'characters for symbols, whitespace-separated words for names' },
  {
    key: 'case',
    scope: 'entity',
    type: 'set',
    values: ['all-upper', 'all-lower', 'upper-initial', 'each-word-upper-initial', 'mixed', 'none', 'lower-initial'],
    description: 'five-valued case class (none: no letters), plus lower-initial when the first character is a lower-case letter',
  },
  { key: 'numeral', scope: 'entity', type: 'boolean', description: 'contains a numeral' },
  { key: 'numeral.type', scope: 'entity', type: 'set', values: ['arabic', 'roman'], description: 'kinds of numeral present' },
  { key: 'numeral.position', scope: 'entity', type: 'set', values: POS, description: 'where numerals sit in the string' },
  { key: 'punctuation', scope: 'entity', type: 'boolean', description: 'contains punctuation' },
  { key: 'punctuation.count', scope: 'entity', type: 'number', description: 'number of punctuation marks' },
  {
    key: 'punctuation.which',
    scope: 'entity',
    type: 'set',
    values: PUNCT.filter((p) => p !== 'quote' && p !== 'other'),
    description: 'which marks',
  },
  { key: 'greek', scope: 'entity', type: 'boolean', description: 'contains a Greek letter' },
  { key: 'greek.position', scope: 'entity', type: 'set', values: POS, description: 'where Greek letters sit' },
  {
    key: 'greek.format',
    scope: 'entity',
    type: 'set',
    values: ['spelled', 'bracketed', 'symbol'],
    description: 'alpha, [alpha] (PMC) or α',
  },
  { key: 'function_word', scope: 'entity', type: 'boolean', description: 'contains a function word' },
  { key: 'function_word.count', scope: 'entity', type: 'number', description: 'number of function words' },
  { key: 'function_word.which', scope: 'entity', type: 'set', description: 'the function words (open set)' },
  {
    key: 'function_word.position',
    scope: 'entity',
    type: 'set',
    values: POS,
    description: 'where function words sit (words split at spaces and hyphens)',
  },
  { key: 'participle', scope: 'entity', type: 'boolean', description: 'contains a participle' },
  {
    key: 'participle.type',
    scope: 'entity',
    type: 'set',
    values: ['past', 'present'],
    description: 'past (-ed, irregular) or present (-ing)',
  },
  { key: 'participle.position', scope: 'entity', type: 'set', values: POS, description: 'position of the whitespace word containing it' },
  { key: 'genitive', scope: 'entity', type: 'boolean', description: "contains a genitive ('s)" },
  { key: 'plural', scope: 'entity', type: 'boolean', description: 'a name containing a plural noun' },
  { key: 'common_word', scope: 'entity', type: 'boolean', description: 'contains a common English word (built-in list)' },
  {
    key: 'source.db',
    scope: 'entity',
    type: 'enum',
    values: ['hgnc', 'flybase', 'mgi', 'uniprot', 'other', 'none'],
    description: 'database of the source authority',
  },
  { key: 'type', scope: 'sentence', type: 'enum', values: ['tp', 'fp'], description: 'tp: has slots; fp: false-positive bait, no entity' },
  { key: 'slot.count', scope: 'sentence', type: 'number', description: 'number of slots' },
  { key: 'slot.position', scope: 'slot', type: 'set', values: ['I', 'M', 'F'], description: 'sentence-initial, medial or final slot' },
  { key: 'slot.left', scope: 'slot', type: 'set', values: CONTEXT, description: 'punctuation touching the slot on the left' },
  { key: 'slot.right', scope: 'slot', type: 'set', values: CONTEXT, description: 'punctuation touching the slot on the right' },
  {
    key: 'list',
    scope: 'sentence',
    type: 'enum',
    values: ['none', 'coordination', 'asyndetic', 'complex'],
    description: 'list context of the slots',
  },
  { key: 'appositive', scope: 'sentence', type: 'boolean', description: 'a slot in apposition (symbol and full name)' },
  { key: 'keyword', scope: 'sentence', type: 'set', description: 'gene keywords present (gene, protein, expression …)' },
  { key: 'fp.typographic', scope: 'sentence', type: 'boolean', description: 'a gene-like token (mixed case, letters with digits)' },
  { key: 'fp.morphological', scope: 'sentence', type: 'boolean', description: 'a word ending in -ase or -in' },
];

export const SPEC_BY_KEY: ReadonlyMap<string, FeatureSpec> = new Map(FEATURE_SPECS.map((s) => [s.key, s]));

/** Keys a query or report over entities (or sentences) may use. */
export function keysOfScope(scope: 'entity' | 'sentence'): string[] {
  return FEATURE_SPECS.filter((s) => (scope === 'entity' ? s.scope === 'entity' : s.scope !== 'entity')).map((s) => s.key);
}

const TRUE = new Set(['y', 'yes', 'true', '1']);
const FALSE = new Set(['n', 'no', 'false', '0', '']);

/** Reads a boolean spelled as the record files and queries allow (y/n, yes/no, true/false, 1/0). */
export function parseBoolean(raw: string): boolean | undefined {
  const v = raw.trim().toLowerCase();
  return TRUE.has(v) ? true : FALSE.has(v) ? false : undefined;
}

/** The values a feature contributes to equivalence classes and equality tests. */
export function valuesOf(value: FeatureValue | undefined): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  if (typeof value === 'boolean') return [value ? 'y' : 'n'];
  return [String(value)];
}

/** Encodes a value for a record file (`key: value`). */
export function encodeValue(value: FeatureValue): string {
  return valuesOf(value).join(',');
}

/** Decodes a record-file value by the feature's type; throws a message on a bad value. */
export function decodeValue(spec: FeatureSpec, raw: string): FeatureValue {
  const text = raw.trim();
  switch (spec.type) {
    case 'boolean': {
      const b = parseBoolean(text);
      if (b === undefined) throw new Error(`${spec.key} must be y or n, not "${text}"`);
      return b;
    }
    case 'number': {
      const n = Number(text);
      if (text === '' || !Number.isFinite(n)) throw new Error(`${spec.key} must be a number, not "${text}"`);
      return n;
    }
    case 'set':
      return text
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v.length > 0);
    default:
      return text;
  }
}
