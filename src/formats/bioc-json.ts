// BioC JSON, in the layout of the BioC JSON reference tools: the same tree as BioC XML
// with infons as objects, `documents`/`passages`/`annotations`/`locations`/`relations`/
// `nodes` as arrays, and (unlike the XML) a `sentences` array in each passage.

import {
  articlesToBioc,
  biocToArticles,
  type AnyBiocCodec,
  type BiocAnnotation,
  type BiocCollection,
  type BiocDocument,
  type BiocOptions,
  type BiocPassage,
  type BiocSentence,
  type Infons,
} from './bioc-model.ts';
import { FormatError, type ExportArticle } from './common.ts';

export function writeBiocJson(collection: BiocCollection): string {
  const json = {
    source: collection.source,
    date: collection.date,
    key: collection.key,
    infons: collection.infons,
    documents: collection.documents.map((d) => ({
      id: d.id,
      infons: d.infons,
      passages: d.passages.map((p) => ({
        offset: p.offset,
        infons: p.infons,
        text: p.text,
        sentences: [],
        annotations: p.annotations,
        relations: p.relations,
      })),
      relations: d.relations,
    })),
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}

/** The articles with their answers; `codecs` say how each task's results are written. */
export function exportBiocJson(articles: readonly ExportArticle[], codecs: readonly AnyBiocCodec[], options: BiocOptions = {}): string {
  return writeBiocJson(articlesToBioc(articles, codecs, options));
}

type Json = Record<string, unknown>;

function array(value: unknown, where: string): Json[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'object' || v === null))
    throw new FormatError('bioc', `${where} must be an array of objects`);
  return value as Json[];
}

function string(value: unknown, where: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  throw new FormatError('bioc', `${where} must be a string`);
}

function offset(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new FormatError('bioc', `${where} must be an integer ≥ 0`);
  return value;
}

/**
 * Infons as strings. The BioC JSON of the PubTator API puts numbers, booleans, lists and
 * null in them: numbers and booleans are written as JSON writes them, lists and objects
 * as their JSON text, and a null infon is left out (it says nothing).
 */
function infons(value: unknown, where: string): Infons {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new FormatError('bioc', `${where}.infons must be an object`);
  const result: Infons = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null || v === undefined) continue;
    result[k] = typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
  return result;
}

function relations(value: unknown, where: string) {
  return array(value, `${where}.relations`).map((r, i) => ({
    id: string(r.id ?? '', `${where}.relations[${i}].id`),
    infons: infons(r.infons, `${where}.relations[${i}]`),
    nodes: array(r.nodes, `${where}.relations[${i}].nodes`).map((n, j) => ({
      refid: string(n.refid, `${where}.relations[${i}].nodes[${j}].refid`),
      role: string(n.role ?? '', `${where}.relations[${i}].nodes[${j}].role`),
    })),
  }));
}

function annotations(value: unknown, at: string): BiocAnnotation[] {
  return array(value, `${at}.annotations`).map((a, k) => ({
    id: string(a.id ?? '', `${at}.annotations[${k}].id`),
    infons: infons(a.infons, `${at}.annotations[${k}]`),
    locations: array(a.locations, `${at}.annotations[${k}].locations`).map((l) => ({
      offset: offset(l.offset, `${at}.annotations[${k}] location offset`),
      length: offset(l.length, `${at}.annotations[${k}] location length`),
    })),
    text: string(a.text ?? '', `${at}.annotations[${k}].text`),
  }));
}

function sentence(s: Json, at: string): BiocSentence {
  return {
    offset: offset(s.offset, `${at}.offset`),
    infons: infons(s.infons, at),
    text: string(s.text ?? '', `${at}.text`),
    annotations: annotations(s.annotations, at),
    relations: relations(s.relations, at),
  };
}

function passage(p: Json, at: string): BiocPassage {
  return {
    offset: offset(p.offset, `${at}.offset`),
    infons: infons(p.infons, at),
    text: string(p.text ?? '', `${at}.text`),
    annotations: annotations(p.annotations, at),
    relations: relations(p.relations, at),
    sentences: array(p.sentences, `${at}.sentences`).map((s, i) => sentence(s, `${at}.sentences[${i}]`)),
  };
}

function document(d: Json, where: string): BiocDocument {
  // The PubTator API's documents carry the PMID in `pmid` too; `id` is the document's id.
  const id = string(d.id ?? d.pmid, `${where}.id`);
  const at = `${where} (document ${id})`;
  return {
    id,
    infons: infons(d.infons, at),
    passages: array(d.passages, `${at}.passages`).map((p, j) => passage(p, `${at}.passages[${j}]`)),
    relations: relations(d.relations, at),
    annotations: annotations(d.annotations, at),
  };
}

const isDocument = (value: Json): boolean => Array.isArray(value.passages);

/**
 * A collection in any of the forms BioC JSON comes in: a collection object; one document
 * object (the PubTator API's export of one article); a list of documents or collections
 * (one per line of some exports, gathered into a list); the PubTator3 API's wrapper
 * `{"PubTator3": [documents]}`. Several collections become one.
 */
export function readBiocJson(json: string): BiocCollection {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new FormatError('bioc', `not JSON: ${(error as Error).message}`);
  }
  return collectionOf([{ value: parsed, line: '' }]);
}

/**
 * BioC JSON lines (`.jsonl`, the PubTator3 API's bulk files): each non-blank line one
 * value of any form readBiocJson takes; every error names its line (from 1).
 */
export function readBiocJsonLines(content: string): BiocCollection {
  const values: Array<{ value: unknown; line: string }> = [];
  content
    .replace(/^\uFEFF/, '')
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      try {
        values.push({ value: JSON.parse(line), line: `line ${i + 1}` });
      } catch (error) {
        throw new FormatError('bioc', `line ${i + 1}: not JSON: ${(error as Error).message}`);
      }
    });
  if (values.length === 0) throw new FormatError('bioc', 'the JSON lines hold no line');
  return collectionOf(values);
}

/** The documents of parsed values (`line` names where each came from, in JSON lines), the first collection's header. */
function collectionOf(values: ReadonlyArray<{ value: unknown; line: string }>): BiocCollection {
  const objects: Array<{ o: Json; where: string }> = [];
  for (const { value: parsed, line } of values) {
    const wrapped =
      typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && Array.isArray((parsed as Json).PubTator3)
        ? (parsed as Json).PubTator3
        : parsed;
    const parts = Array.isArray(wrapped) ? wrapped : [wrapped];
    if (parts.some((p) => typeof p !== 'object' || p === null || Array.isArray(p)))
      throw new FormatError(
        'bioc',
        `${line === '' ? '' : `${line}: `}BioC JSON is a collection object, a document object, or a list of them`,
      );
    (parts as Json[]).forEach((o, i) =>
      objects.push({ o, where: `${line}${line !== '' && Array.isArray(wrapped) ? ' ' : ''}${Array.isArray(wrapped) ? `[${i}]` : ''}` }),
    );
  }
  const first = objects.find(({ o }) => !isDocument(o))?.o;
  const documents: BiocDocument[] = [];
  for (const { o, where } of objects) {
    // Inside a line, the line goes first: "line 3 documents[0] (document 123).passages[1]…".
    const inside = where === '' ? '' : `${where} `;
    if (isDocument(o)) documents.push(document(o, where === '' ? 'the document' : where));
    else if (o.documents !== undefined)
      documents.push(...array(o.documents, `${inside}documents`).map((d, j) => document(d, `${inside}documents[${j}]`)));
    else
      throw new FormatError(
        'bioc',
        `${where === '' ? 'the object' : where} is neither a collection (no "documents" list) nor a document (no "passages" list)`,
      );
  }
  return {
    source: first ? string(first.source ?? '', 'source') : '',
    date: first ? string(first.date ?? '', 'date') : '',
    key: first ? string(first.key ?? '', 'key') : '',
    infons: first ? infons(first.infons, 'collection') : {},
    documents,
    ...(first ? {} : { bare: true }),
  };
}

export function importBiocJson(json: string, codecs: readonly AnyBiocCodec[]): ExportArticle[] {
  return biocToArticles(readBiocJson(json), codecs);
}
