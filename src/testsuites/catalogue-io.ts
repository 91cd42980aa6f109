// Catalogues as JSON, format detection for user files, and the built-in catalogue that
// ships with the module (read relative to this file, never from the working directory).

import { readFile } from 'node:fs/promises';
import {
  CatalogueError,
  entitiesFromRecords,
  makeEntity,
  makeSentence,
  sentencesFromRecords,
  type EntityInput,
  type SentenceInput,
} from './catalogue.ts';
import { SPEC_BY_KEY } from './feature-specs.ts';
import type { Catalogue, Entity, Features, Sentence } from './types.ts';

function checkFeatures(raw: unknown, where: string): Features | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error(`${where}: features must be an object`);
  for (const [key, value] of Object.entries(raw)) {
    const spec = SPEC_BY_KEY.get(key);
    if (!spec) continue;
    const ok =
      spec.type === 'boolean'
        ? typeof value === 'boolean'
        : spec.type === 'number'
          ? typeof value === 'number'
          : spec.type === 'set'
            ? Array.isArray(value) && value.every((v) => typeof v === 'string')
            : typeof value === 'string';
    if (!ok) throw new Error(`${where}: feature ${key} must be a ${spec.type === 'set' ? 'list of strings' : spec.type}`);
  }
  return raw as Features;
}

function extraOf(raw: unknown, where: string): Record<string, string> | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'object' || raw === null || Object.values(raw).some((v) => typeof v !== 'string'))
    throw new Error(`${where}: extra must map names to strings`);
  return raw as Record<string, string>;
}

function str(o: Record<string, unknown>, key: string, where: string, required = false): string | undefined {
  const v = o[key];
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string') throw new Error(`${where}: "${key}" must be a string`);
  return v;
}

function objects(raw: unknown, name: string): Record<string, unknown>[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.some((x) => typeof x !== 'object' || x === null)) throw new Error(`"${name}" must be an array of objects`);
  return raw as Record<string, unknown>[];
}

function uniqueIds<T extends { id: string }>(items: T[], what: string): T[] {
  const seen = new Set<string>();
  for (const it of items) {
    if (seen.has(it.id)) throw new Error(`duplicate ${what} id ${it.id}`);
    seen.add(it.id);
  }
  return items;
}

/** `{entities: [...], sentences: [...]}`; features stated there win over computed ones. */
export function catalogueFromJson(text: string, file?: string): Catalogue {
  try {
    const doc = JSON.parse(text) as Record<string, unknown>;
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
      throw new Error('expected an object with "entities" and/or "sentences"');
    const entities = objects(doc.entities, 'entities').map((o, i) => {
      const where = `entities[${i}]`;
      const input: EntityInput = {
        id: str(o, 'id', where, true)!,
        data: str(o, 'data', where, true)!,
        source: str(o, 'source', where),
        original: str(o, 'original', where),
        features: checkFeatures(o.features, where),
        extra: extraOf(o.extra, where),
      };
      return makeEntity(input);
    });
    const sentences = objects(doc.sentences, 'sentences').map((o, i) => {
      const where = `sentences[${i}]`;
      const type = str(o, 'type', where);
      if (type !== undefined && type !== 'tp' && type !== 'fp') throw new Error(`${where}: type must be tp or fp`);
      const input: SentenceInput = {
        id: str(o, 'id', where, true)!,
        text: str(o, 'text', where, true)!,
        type,
        sourceId: str(o, 'sourceId', where),
        sourceType: str(o, 'sourceType', where),
        original: str(o, 'original', where),
        features: checkFeatures(o.features, where),
        extra: extraOf(o.extra, where),
      };
      return makeSentence(input);
    });
    return { entities: uniqueIds(entities, 'entity'), sentences: uniqueIds(sentences, 'sentence') };
  } catch (error) {
    if (error instanceof CatalogueError) throw error;
    throw new CatalogueError((error as Error).message, { file });
  }
}

export function catalogueToJson(catalogue: Partial<Catalogue>): string {
  return JSON.stringify({ entities: catalogue.entities ?? [], sentences: catalogue.sentences ?? [] }, null, 2) + '\n';
}

const looksLikeJson = (text: string) => /^\s*[{[]/.test(text);

/** Entities from a record-format or JSON file (detected from the first character). */
export function parseEntities(text: string, file?: string): Entity[] {
  return looksLikeJson(text) ? catalogueFromJson(text, file).entities : entitiesFromRecords(text, file);
}

export function parseSentences(text: string, file?: string): Sentence[] {
  return looksLikeJson(text) ? catalogueFromJson(text, file).sentences : sentencesFromRecords(text, file);
}

let builtIn: Promise<Catalogue> | undefined;

/** The catalogue shipped in ./data (cached; callers must not mutate it). */
export function loadBuiltInCatalogue(): Promise<Catalogue> {
  builtIn ??= (async () => {
    const entitiesUrl = new URL('./data/entities.txt', import.meta.url);
    const sentencesUrl = new URL('./data/sentences.txt', import.meta.url);
    const [e, s] = await Promise.all([readFile(entitiesUrl, 'utf8'), readFile(sentencesUrl, 'utf8')]);
    return { entities: entitiesFromRecords(e, 'built-in entities.txt'), sentences: sentencesFromRecords(s, 'built-in sentences.txt') };
  })();
  return builtIn;
}
