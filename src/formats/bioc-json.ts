// BioC JSON, in the layout of the BioC JSON reference tools: the same tree as BioC XML
// with infons as objects, `documents`/`passages`/`annotations`/`locations`/`relations`/
// `nodes` as arrays, and (unlike the XML) a `sentences` array in each passage.

import { articlesToBioc, biocToArticles, type AnyBiocCodec, type BiocCollection, type BiocOptions, type Infons } from './bioc-model.ts';
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
      passages: d.passages.map((p) => ({ offset: p.offset, infons: p.infons, text: p.text, sentences: [], annotations: p.annotations, relations: p.relations })),
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
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'object' || v === null)) throw new FormatError('bioc', `${where} must be an array of objects`);
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

function infons(value: unknown, where: string): Infons {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new FormatError('bioc', `${where}.infons must be an object`);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, string(v, `${where}.infons.${k}`)]));
}

function relations(value: unknown, where: string) {
  return array(value, `${where}.relations`).map((r, i) => ({
    id: string(r.id ?? '', `${where}.relations[${i}].id`),
    infons: infons(r.infons, `${where}.relations[${i}]`),
    nodes: array(r.nodes, `${where}.relations[${i}].nodes`).map((n, j) => ({ refid: string(n.refid, `${where}.relations[${i}].nodes[${j}].refid`), role: string(n.role ?? '', `${where}.relations[${i}].nodes[${j}].role`) })),
  }));
}

export function readBiocJson(json: string): BiocCollection {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new FormatError('bioc', `not JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new FormatError('bioc', 'a BioC JSON collection is an object');
  const c = parsed as Json;
  return {
    source: string(c.source ?? '', 'source'),
    date: string(c.date ?? '', 'date'),
    key: string(c.key ?? '', 'key'),
    infons: infons(c.infons, 'collection'),
    documents: array(c.documents, 'documents').map((d, i) => {
      const where = `documents[${i}]`;
      return {
        id: string(d.id, `${where}.id`),
        infons: infons(d.infons, where),
        passages: array(d.passages, `${where}.passages`).map((p, j) => {
          const at = `${where}.passages[${j}]`;
          return {
            offset: offset(p.offset, `${at}.offset`),
            infons: infons(p.infons, at),
            text: string(p.text ?? '', `${at}.text`),
            annotations: array(p.annotations, `${at}.annotations`).map((a, k) => ({
              id: string(a.id ?? '', `${at}.annotations[${k}].id`),
              infons: infons(a.infons, `${at}.annotations[${k}]`),
              locations: array(a.locations, `${at}.annotations[${k}].locations`).map((l) => ({ offset: offset(l.offset, `${at}.annotations[${k}] location offset`), length: offset(l.length, `${at}.annotations[${k}] location length`) })),
              text: string(a.text ?? '', `${at}.annotations[${k}].text`),
            })),
            relations: relations(p.relations, at),
          };
        }),
        relations: relations(d.relations, where),
      };
    }),
  };
}

export function importBiocJson(json: string, codecs: readonly AnyBiocCodec[]): ExportArticle[] {
  return biocToArticles(readBiocJson(json), codecs);
}
