// Entity and sentence catalogues: building them (features computed from the string,
// then overridden by whatever the catalogue states), reading and writing them in the
// paper's record format and in JSON, and loading the built-in catalogue.

import { entityFeatures } from './features.ts';
import { decodeValue, encodeValue, SPEC_BY_KEY, type FeatureSpec } from './feature-specs.ts';
import { parseRecords, RecordFormatError, writeRecords, type RecordEntry } from './record-format.ts';
import { LIST_CONTEXTS, sentenceFeatures, type ListContext } from './sentence-features.ts';
import type { Entity, Features, NameOrSymbol, Sentence } from './types.ts';

export class CatalogueError extends Error {
  constructor(
    message: string,
    readonly place: { file?: string; line?: number } = {},
  ) {
    super(`${place.file ?? 'catalogue'}${place.line ? `:${place.line}` : ''}: ${message}`);
    this.name = 'CatalogueError';
  }
}

const ID = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export interface EntityInput {
  id: string;
  data: string;
  kind?: NameOrSymbol;
  source?: string;
  original?: string;
  /** Stated values; they win over the computed ones. */
  features?: Features;
  extra?: Record<string, string>;
}

export interface SentenceInput {
  id: string;
  type?: 'tp' | 'fp';
  text: string;
  list?: ListContext;
  appositive?: boolean;
  sourceId?: string;
  sourceType?: string;
  original?: string;
  features?: Features;
  extra?: Record<string, string>;
}

function checkId(id: string): void {
  if (!ID.test(id)) throw new Error(`the id "${id}" must be letters, digits, "_", "." or "-" (it names files)`);
}

function defined<T extends object>(o: T): T {
  return Object.fromEntries(
    Object.entries(o as Record<string, unknown>).filter(
      ([, v]) => v !== undefined && !(typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0),
    ),
  ) as T;
}

export function makeEntity(input: EntityInput): Entity {
  checkId(input.id);
  if (input.data.trim() === '' || /[\r\n]/.test(input.data)) throw new Error(`entity ${input.id}: data must be one non-empty line`);
  const kind = input.kind ?? (input.features?.kind as NameOrSymbol | undefined);
  const features = { ...entityFeatures(input.data, { kind, source: input.source }), ...input.features };
  return defined({ id: input.id, data: input.data, features, source: input.source, original: input.original, extra: input.extra });
}

// Slot-derived features always come from the frame; a stale stated value is an error.
const FROM_FRAME = ['slot.count', 'slot.position', 'slot.left', 'slot.right'];

export function makeSentence(input: SentenceInput): Sentence {
  checkId(input.id);
  if (/[\r\n]/.test(input.text)) throw new Error(`sentence ${input.id}: the frame must be one line`);
  const list = input.list ?? (input.features?.list as ListContext | undefined);
  const appositive = input.appositive ?? (input.features?.appositive as boolean | undefined);
  if (list !== undefined && !LIST_CONTEXTS.includes(list))
    throw new Error(`sentence ${input.id}: list context must be one of ${LIST_CONTEXTS.join(', ')}`);
  const computed = sentenceFeatures(input.text, 'tp', { list, appositive });
  const slots = computed['slot.count'] as number;
  const type = input.type ?? (slots > 0 ? 'tp' : 'fp');
  if (type === 'tp' && slots === 0) throw new Error(`sentence ${input.id}: a tp frame needs at least one <> slot`);
  if (type === 'fp' && slots > 0) throw new Error(`sentence ${input.id}: an fp sentence has no <> slot`);
  for (const key of FROM_FRAME) {
    const stated = input.features?.[key];
    if (stated !== undefined && encodeValue(stated) !== encodeValue(computed[key])) {
      throw new Error(`sentence ${input.id}: ${key} says "${encodeValue(stated)}" but the frame gives "${encodeValue(computed[key])}"`);
    }
  }
  const features = { ...computed, ...input.features, type };
  return defined({
    id: input.id,
    type,
    text: input.text,
    features,
    sourceId: input.sourceId,
    sourceType: input.sourceType,
    original: input.original,
    extra: input.extra,
  });
}

// The paper's field names where the figures show one; feature keys otherwise.
const ENTITY_FIELDS = {
  ID: 'id',
  data: 'data',
  name_vs_symbol: 'kind',
  source_authority: 'source',
  original_form_in_source: 'original',
} as const;
const SENTENCE_FIELDS = {
  ID: 'id',
  type: 'type',
  slots: 'text',
  total_number_of_names: 'slot.count',
  position: 'slot.position',
  list_context: 'list',
  appositive: 'appositive',
  source_id: 'sourceId',
  source_type: 'sourceType',
  original_form_in_source: 'original',
} as const;

function decode(spec: FeatureSpec | undefined, key: string, raw: string): Features[string] {
  if (!spec) throw new Error(`unknown feature ${key}`);
  return decodeValue(spec, raw);
}

function kindOf(raw: string): NameOrSymbol {
  const v = raw.trim().toLowerCase();
  if (v === 'n' || v === 'name') return 'name';
  if (v === 's' || v === 'symbol') return 'symbol';
  throw new Error(`name_vs_symbol must be n or s, not "${raw}"`);
}

function listOf(raw: string): ListContext {
  const v = raw
    .trim()
    .toLowerCase()
    .replace(/\s+coordination$/, '');
  if (v === '') return 'none';
  if ((LIST_CONTEXTS as readonly string[]).includes(v)) return v as ListContext;
  throw new Error(`list_context must be empty or one of ${LIST_CONTEXTS.join(', ')}, not "${raw}"`);
}

function fromRecords<T>(text: string, file: string | undefined, build: (r: RecordEntry) => T, idOf: (t: T) => string): T[] {
  let records: RecordEntry[];
  try {
    records = parseRecords(text);
  } catch (error) {
    if (error instanceof RecordFormatError) throw new CatalogueError(error.message.replace(/^line \d+: /, ''), { file, line: error.line });
    throw error;
  }
  const seen = new Set<string>();
  return records.map((r) => {
    let item: T;
    try {
      item = build(r);
    } catch (error) {
      throw new CatalogueError((error as Error).message, { file, line: r.line });
    }
    if (seen.has(idOf(item))) throw new CatalogueError(`duplicate ID ${idOf(item)}`, { file, line: r.line });
    seen.add(idOf(item));
    return item;
  });
}

export function entitiesFromRecords(text: string, file?: string): Entity[] {
  return fromRecords(
    text,
    file,
    ({ fields }) => {
      const input: EntityInput = { id: '', data: '', features: {}, extra: {} };
      for (const [key, raw] of fields) {
        const field = ENTITY_FIELDS[key as keyof typeof ENTITY_FIELDS];
        if (field === 'kind') input.kind = kindOf(raw);
        else if (field) input[field] = raw;
        else if (SPEC_BY_KEY.get(key)?.scope === 'entity') input.features![key] = decode(SPEC_BY_KEY.get(key), key, raw);
        else input.extra![key] = raw;
      }
      if (!input.id) throw new Error('a record without ID');
      if (!input.data) throw new Error(`entity ${input.id} has no data field`);
      if (input.kind) input.features!.kind = input.kind;
      return makeEntity(input);
    },
    (e) => e.id,
  );
}

export function sentencesFromRecords(text: string, file?: string): Sentence[] {
  return fromRecords(
    text,
    file,
    ({ fields }) => {
      const input: SentenceInput = { id: '', text: '', features: {}, extra: {} };
      for (const [key, raw] of fields) {
        const field =
          SENTENCE_FIELDS[key as keyof typeof SENTENCE_FIELDS] ??
          (SPEC_BY_KEY.get(key)?.scope !== 'entity' && SPEC_BY_KEY.has(key) ? key : undefined);
        if (field === 'id' || field === 'text' || field === 'sourceId' || field === 'sourceType' || field === 'original')
          input[field] = raw;
        else if (field === 'type')
          input.type =
            raw.trim() === 'fp'
              ? 'fp'
              : raw.trim() === 'tp'
                ? 'tp'
                : (() => {
                    throw new Error(`type must be tp or fp, not "${raw}"`);
                  })();
        else if (field === 'list') input.list = listOf(raw);
        else if (field) input.features![field] = decode(SPEC_BY_KEY.get(field), field, raw);
        else input.extra![key] = raw;
      }
      if (!input.id) throw new Error('a record without ID');
      if (!input.text) throw new Error(`sentence ${input.id} has no slots field (the frame)`);
      if (input.features!.appositive !== undefined) input.appositive = input.features!.appositive as boolean;
      return makeSentence(input);
    },
    (s) => s.id,
  );
}

const invert = (o: Record<string, string>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [v, k]));

/**
 * `features: 'all'` (default) writes every feature as Figure 1 does, so the file states
 * them; `'none'` writes no feature lines (they are recomputed on reading, and stated
 * overrides are lost), which is the compact form of the built-in data files.
 */
export function entitiesToRecords(entities: readonly Entity[], options: { features?: 'all' | 'none' } = {}): string {
  return writeRecords(
    entities.map((e) => {
      const m = new Map<string, string>([
        ['ID', e.id],
        ['name_vs_symbol', e.features.kind === 'name' ? 'n' : 's'],
      ]);
      if (options.features !== 'none') for (const [k, v] of Object.entries(e.features)) if (k !== 'kind') m.set(k, encodeValue(v));
      if (e.source !== undefined) m.set('source_authority', e.source);
      if (e.original !== undefined) m.set('original_form_in_source', e.original);
      for (const [k, v] of Object.entries(e.extra ?? {})) m.set(k, v);
      m.set('data', e.data);
      return m;
    }),
  );
}

export function sentencesToRecords(sentences: readonly Sentence[], options: { features?: 'all' | 'none' } = {}): string {
  const names = invert(SENTENCE_FIELDS);
  return writeRecords(
    sentences.map((s) => {
      const m = new Map<string, string>([
        ['ID', s.id],
        ['type', s.type],
      ]);
      const keep = options.features === 'none' ? ['list', 'appositive'] : Object.keys(s.features);
      for (const k of keep)
        if (k !== 'type' && s.features[k] !== undefined)
          m.set(names[k] ?? k, k === 'list' && s.features[k] === 'none' ? '' : encodeValue(s.features[k]));
      if (s.sourceId !== undefined) m.set('source_id', s.sourceId);
      if (s.sourceType !== undefined) m.set('source_type', s.sourceType);
      if (s.original !== undefined) m.set('original_form_in_source', s.original);
      for (const [k, v] of Object.entries(s.extra ?? {})) m.set(k, v);
      m.set('slots', s.text);
      return m;
    }),
  );
}
