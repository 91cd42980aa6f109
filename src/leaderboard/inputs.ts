// Uploaded gold standards and offline runs → the scoring library's structures.
//
// ACT/INT/IPT travel as BC II.5 TSV text and are read by the library's own parsers, so an
// upload is accepted exactly when the official script would accept it. MENTION and COREF
// have no single-file BC II.5 form, so they travel as JSON keyed by organiser id:
//   MENTION  {"documents": {"<id>": {"ann": "<brat .ann text>"}}}
//   COREF    {"documents": {"<id>": {"a1": "<given proteins>", "a2": "<coreference>"}}}
//            (offline COREF runs need only "a2"; the proteins come from the gold)
// BIO is not accepted here: its mentions are token spans, which cannot be compared with
// the character offsets of the online answers.

import {
  ScoringInputError, orderModeOf, parseA1, parseA2, parseActGold, parseActRun, parseBratMentions, parseIntGold,
  parseIntRun, parseIptGold, parseIptRun, type ActEntry, type ActGold, type ColumnLayout, type CorefAnnotation,
  type GoldItems, type Mention, type OrderMode, type Protein, type RankedRun,
} from '../scoring/index.ts';
import type { TaskName } from '../tasks/types.ts';

export const BC2_TASKS = ['ACT', 'INT', 'IPT'] as const;
export type Bc2Task = (typeof BC2_TASKS)[number];
export const isBc2Task = (task: string): task is Bc2Task => (BC2_TASKS as readonly string[]).includes(task);

export interface CorefGoldDocument {
  proteins: Map<string, Protein>;
  gold: CorefAnnotation;
}

export type Gold =
  | { task: 'ACT'; gold: ActGold }
  | { task: 'INT' | 'IPT'; gold: GoldItems }
  | { task: 'MENTION'; mentions: Mention[]; docs: Set<string> }
  | { task: 'COREF'; docs: Map<string, CorefGoldDocument> };

export type RunData =
  | { task: 'ACT'; entries: ActEntry[]; mode: OrderMode }
  | { task: 'INT' | 'IPT'; run: RankedRun; mode: OrderMode }
  | { task: 'MENTION'; mentions: Mention[] }
  | { task: 'COREF'; docs: Map<string, CorefAnnotation> };

/** Mentions without a type are scored under this one (a brat line always has a type). */
export const UNTYPED = 'untyped';

export interface ParsedGold {
  gold: Gold;
  documents: number;
  items: number;
  warnings: string[];
}

function needText(task: TaskName, body: unknown, what: string): string {
  if (typeof body !== 'string') {
    throw new ScoringInputError(`${task} ${what} must be BC II.5 tab-separated text`, { hint: 'send it with Content-Type: text/tab-separated-values' });
  }
  if (body.trim() === '') throw new ScoringInputError(`the ${what} is empty`, { hint: 'send one tab-separated record per line' });
  return body;
}

/** The `documents` object of a JSON upload, with each document's named text fields. */
function jsonDocuments(task: TaskName, body: unknown, what: string, fields: string[]): Map<string, Record<string, string>> {
  const form = `{"documents": {"<organiser id>": {${fields.map((f) => `"${f}": "…"`).join(', ')}}}}`;
  const hint = `send JSON of the form ${form} with Content-Type: application/json`;
  const documents = typeof body === 'object' && body !== null ? (body as { documents?: unknown }).documents : undefined;
  if (typeof documents !== 'object' || documents === null || Array.isArray(documents)) {
    throw new ScoringInputError(`${task} ${what} must be a JSON object with a "documents" object`, { hint });
  }
  const result = new Map<string, Record<string, string>>();
  for (const [id, doc] of Object.entries(documents as Record<string, unknown>)) {
    const record: Record<string, string> = {};
    for (const field of fields) {
      const value = typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>)[field] : undefined;
      if (typeof value !== 'string') throw new ScoringInputError(`documents["${id}"].${field} must be a string`, { hint });
      record[field] = value;
    }
    result.set(id, record);
  }
  if (result.size === 0) throw new ScoringInputError(`the ${what} holds no documents`, { hint });
  return result;
}

function corefDocuments(task: TaskName, body: unknown, what: string, needA1: boolean): Map<string, { proteins?: Map<string, Protein>; annotation: CorefAnnotation }> {
  const docs = new Map<string, { proteins?: Map<string, Protein>; annotation: CorefAnnotation }>();
  for (const [id, doc] of jsonDocuments(task, body, what, needA1 ? ['a1', 'a2'] : ['a2'])) {
    docs.set(id, {
      proteins: needA1 ? parseA1(doc.a1!, { file: `documents["${id}"].a1` }) : undefined,
      annotation: parseA2(doc.a2!, { file: `documents["${id}"].a2` }),
    });
  }
  return docs;
}

/** Parses a gold upload; throws ScoringInputError (with the line) when it is unusable. */
export function parseGoldUpload(task: TaskName, body: unknown): ParsedGold {
  switch (task) {
    case 'ACT': {
      const parsed = parseActGold(needText(task, body, 'gold standard'), { file: 'gold' });
      return { gold: { task, gold: parsed.value }, documents: parsed.value.size, items: parsed.value.size, warnings: parsed.warnings };
    }
    case 'INT':
    case 'IPT': {
      const text = needText(task, body, 'gold standard');
      const gold = task === 'INT' ? parseIntGold(text, { file: 'gold' }) : parseIptGold(text, { file: 'gold' });
      let items = 0;
      for (const keys of gold.values()) items += keys.length;
      return { gold: { task, gold }, documents: gold.size, items, warnings: [] };
    }
    case 'MENTION': {
      const mentions: Mention[] = [];
      const docs = jsonDocuments(task, body, 'gold standard', ['ann']);
      for (const [id, doc] of docs) mentions.push(...parseBratMentions(doc.ann!, { doc: id, file: `documents["${id}"].ann` }));
      return { gold: { task, mentions, docs: new Set(docs.keys()) }, documents: docs.size, items: mentions.length, warnings: [] };
    }
    case 'COREF': {
      const docs = new Map<string, CorefGoldDocument>();
      let links = 0;
      for (const [id, doc] of corefDocuments(task, body, 'gold standard', true)) {
        docs.set(id, { proteins: doc.proteins!, gold: doc.annotation });
        links += doc.annotation.links.length;
      }
      return { gold: { task, docs }, documents: docs.size, items: links, warnings: [] };
    }
  }
}

/** Parses an offline run as uploaded (TSV text for ACT/INT/IPT, JSON text or object otherwise). */
export function parseRunUpload(task: TaskName, body: unknown, columns: ColumnLayout): { run: RunData; warnings: string[] } {
  const file = 'run';
  switch (task) {
    case 'ACT': {
      const parsed = parseActRun(needText(task, body, 'run'), { file, columns });
      return { run: { task, entries: parsed.value, mode: orderModeOf(columns) }, warnings: parsed.warnings };
    }
    case 'INT':
    case 'IPT': {
      const text = needText(task, body, 'run');
      const run = task === 'INT' ? parseIntRun(text, { file, columns }) : parseIptRun(text, { file, columns });
      return { run: { task, run, mode: orderModeOf(columns) }, warnings: [] };
    }
    case 'MENTION': {
      const mentions: Mention[] = [];
      for (const [id, doc] of jsonDocuments(task, body, 'run', ['ann'])) {
        mentions.push(...parseBratMentions(doc.ann!, { doc: id, file: `documents["${id}"].ann` }));
      }
      return { run: { task, mentions }, warnings: [] };
    }
    case 'COREF': {
      const docs = new Map<string, CorefAnnotation>();
      for (const [id, doc] of corefDocuments(task, body, 'run', false)) docs.set(id, doc.annotation);
      return { run: { task, docs }, warnings: [] };
    }
  }
}

/** Stored bodies are text; JSON uploads were stored as JSON text. */
export function storedBody(task: TaskName, body: unknown): string {
  return isBc2Task(task) ? (body as string) : JSON.stringify(body);
}

export function loadStoredBody(task: TaskName, text: string): unknown {
  return isBc2Task(task) ? text : JSON.parse(text);
}
