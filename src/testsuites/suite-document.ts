// The suite as stored with a run and as uploaded to `POST /api/testsuites`: the
// `suite.json` manifest (how it was made, every item's features) with each item's gold
// inline in a `gold` array — the lines of `gold.jsonl` plus the SGML form. A generated
// suite directory becomes one with: jq -n --slurpfile m suite.json --slurpfile g gold.jsonl
// '$m[0] + {gold: $g}'. Items may instead carry `text` and `mentions` themselves.
//
// Uploaded documents are untrusted: every field the report reads is checked here, so a
// bad upload is a 400 naming the item, never a 500 later in the report.

import { CodePointText } from '../shared/code-points.ts';
import type { MentionItem } from '../families/mention/types.ts';
import type { GeneratedSuite } from './generate.ts';
import { SUITE_FORMAT, suiteFiles } from './suite-files.ts';
import type { FeatureValue, Features, GeneratedItem, SlotFeatures, SlotPosition } from './types.ts';

export const MAX_SUITE_ITEMS = 20_000;
/** The organiser-id rule of article loads: the item id becomes the article's organiser id. */
const ITEM_ID = /^[^\s/]{1,200}$/;

export class SuiteDocumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SuiteDocumentError';
  }
}

export interface SuiteDocument {
  format: string;
  version: number;
  made: Record<string, unknown>;
  productSize?: number;
  items: Record<string, unknown>[];
  gold: { id: string; text: string; sgml: string; mentions: MentionItem[] }[];
}

/** The manifest exactly as `suiteFiles` writes it, plus the gold. */
export function suiteDocument(suite: GeneratedSuite, made: Record<string, unknown>): SuiteDocument {
  const manifest = JSON.parse(suiteFiles(suite, made).find(([name]) => name === 'suite.json')![1]) as Omit<SuiteDocument, 'gold'>;
  return { ...manifest, gold: suite.items.map((i) => ({ id: i.id, text: i.text, sgml: i.sgml, mentions: i.mentions })) };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isFeatureValue = (v: unknown): v is FeatureValue =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || (Array.isArray(v) && v.every((x) => typeof x === 'string'));

function features(raw: unknown, where: string): Features {
  if (!isObject(raw)) throw new SuiteDocumentError(`${where} must be an object of features`);
  for (const [key, value] of Object.entries(raw)) {
    if (!isFeatureValue(value)) throw new SuiteDocumentError(`${where}.${key} must be a string, number, boolean or list of strings`);
  }
  return raw as Features;
}

function slots(raw: unknown, where: string): SlotFeatures[] {
  if (!Array.isArray(raw)) throw new SuiteDocumentError(`${where} must be an array`);
  return raw.map((s, k) => {
    const ok =
      isObject(s) &&
      Array.isArray(s.position) &&
      s.position.every((p) => p === 'I' || p === 'M' || p === 'F') &&
      typeof s.left === 'string' &&
      typeof s.right === 'string';
    if (!ok) throw new SuiteDocumentError(`${where}[${k}] must be {position: [I|M|F…], left, right}`);
    return { position: s.position as SlotPosition[], left: s.left as string, right: s.right as string };
  });
}

function mentions(raw: unknown, text: string, where: string): MentionItem[] {
  if (!Array.isArray(raw)) throw new SuiteDocumentError(`${where} must be an array`);
  const chars = new CodePointText(text);
  return raw.map((m, k) => {
    const ok =
      isObject(m) &&
      Number.isInteger(m.start) &&
      Number.isInteger(m.end) &&
      (m.start as number) >= 0 &&
      (m.end as number) > (m.start as number) &&
      (m.end as number) <= chars.length;
    if (!ok) throw new SuiteDocumentError(`${where}[${k}] needs integer start < end within the text (code points)`);
    const start = m.start as number;
    const end = m.end as number;
    return { start, end, text: chars.slice(start, end), type: typeof m.type === 'string' ? m.type : 'gene' };
  });
}

/** Checks a stored or uploaded document and rebuilds the items the report needs. */
export function itemsOfDocument(raw: unknown): GeneratedItem[] {
  if (!isObject(raw) || raw.format !== SUITE_FORMAT || !Array.isArray(raw.items)) {
    throw new SuiteDocumentError(`the suite must be a manifest with "format": "${SUITE_FORMAT}" and "items"`);
  }
  if (raw.items.length === 0) throw new SuiteDocumentError('the suite has no items');
  if (raw.items.length > MAX_SUITE_ITEMS)
    throw new SuiteDocumentError(`the suite has ${raw.items.length} items; at most ${MAX_SUITE_ITEMS} can be run at once`);
  if (raw.gold !== undefined && !Array.isArray(raw.gold)) throw new SuiteDocumentError('"gold" must be an array of {id, text, mentions}');
  const gold = new Map<string, Record<string, unknown>>();
  for (const g of (raw.gold ?? []) as unknown[]) if (isObject(g) && typeof g.id === 'string') gold.set(g.id, g);
  const seen = new Set<string>();
  return raw.items.map((it, i) => {
    const where = `items[${i}]`;
    if (!isObject(it) || typeof it.id !== 'string' || !ITEM_ID.test(it.id))
      throw new SuiteDocumentError(`${where}.id must be a string without spaces or slashes (at most 200 characters)`);
    if (seen.has(it.id)) throw new SuiteDocumentError(`${where}: the id ${it.id} appears twice`);
    seen.add(it.id);
    if (it.type !== 'tp' && it.type !== 'fp') throw new SuiteDocumentError(`${where}.type must be tp or fp`);
    if (typeof it.sentenceId !== 'string') throw new SuiteDocumentError(`${where}.sentenceId must be a string`);
    const g = gold.get(it.id) ?? it;
    if (typeof g.text !== 'string' || g.text.trim() === '')
      throw new SuiteDocumentError(`${where}: no text for ${it.id} (neither in "gold" nor in the item)`);
    const ms = mentions(g.mentions, g.text, `gold of ${it.id}: mentions`);
    const sl = slots(it.slots ?? [], `${where}.slots`);
    if (sl.length !== ms.length)
      throw new SuiteDocumentError(`${where}: ${sl.length} slots for ${ms.length} gold mentions; they must be parallel`);
    if (it.entityId !== undefined && typeof it.entityId !== 'string') throw new SuiteDocumentError(`${where}.entityId must be a string`);
    return {
      id: it.id,
      type: it.type,
      text: g.text,
      sgml: typeof g.sgml === 'string' ? g.sgml : '',
      mentions: ms,
      slots: sl,
      sentenceId: it.sentenceId,
      ...(typeof it.entityId === 'string' ? { entityId: it.entityId } : {}),
      ...(it.entityFeatures !== undefined ? { entityFeatures: features(it.entityFeatures, `${where}.entityFeatures`) } : {}),
      sentenceFeatures: features(it.sentenceFeatures ?? {}, `${where}.sentenceFeatures`),
    };
  });
}

/** The document to store for items that passed `itemsOfDocument` (an upload is normalised to one form). */
export function documentOfItems(items: readonly GeneratedItem[], made: Record<string, unknown>, productSize?: number): SuiteDocument {
  return suiteDocument({ items: [...items], productSize: productSize ?? items.length }, made);
}
