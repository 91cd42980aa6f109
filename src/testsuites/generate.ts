// Test-suite generation: select entities and sentence frames by query, then insert
// every selected entity into every slot of every selected tp frame (or a seeded sample
// of that product). fp sentences have no slot and yield one item each.
//
// All slots of a frame receive the same entity, so an item's entity features describe
// all its gold mentions; slot features (position, punctuation) are kept per mention.
// The entity is inserted exactly as catalogued, also sentence-initially: a lower-case-
// initial symbol at the start of a sentence is one of the paper's test conditions.

import { keysOfScope } from './feature-specs.ts';
import { fillSlots } from './markup.ts';
import { sampleIndices, seededRandom } from '../shared/prng.ts';
import { compileQuery } from './query.ts';
import { SLOT, slotFeatures } from './sentence-features.ts';
import type { Entity, GeneratedItem, Sentence } from './types.ts';

export function selectEntities(entities: readonly Entity[], query?: string): Entity[] {
  if (!query?.trim()) return [...entities];
  const test = compileQuery(query, keysOfScope('entity'));
  return entities.filter(test);
}

export function selectSentences(sentences: readonly Sentence[], query?: string): Sentence[] {
  if (!query?.trim()) return [...sentences];
  const test = compileQuery(query, keysOfScope('sentence'));
  return sentences.filter(test);
}

export interface GenerateOptions {
  /** Keep a seeded sample of this many items of the full product. */
  sample?: number;
  seed?: string | number;
}

export interface GeneratedSuite {
  items: GeneratedItem[];
  /** Size of the full product: tp frames × entities + fp sentences. */
  productSize: number;
}

export function fillFrame(entity: Entity, sentence: Sentence): GeneratedItem {
  const { text, sgml, mentions } = fillSlots(sentence.text.split(SLOT), entity.data);
  return {
    id: `${sentence.id}--${entity.id}`,
    type: 'tp',
    text,
    sgml,
    mentions,
    slots: slotFeatures(sentence.text),
    sentenceId: sentence.id,
    entityId: entity.id,
    entityFeatures: entity.features,
    sentenceFeatures: sentence.features,
  };
}

function fpItem(sentence: Sentence): GeneratedItem {
  return {
    id: sentence.id,
    type: 'fp',
    text: sentence.text,
    sgml: sentence.text,
    mentions: [],
    slots: [],
    sentenceId: sentence.id,
    sentenceFeatures: sentence.features,
  };
}

export function generateSuite(entities: readonly Entity[], sentences: readonly Sentence[], options: GenerateOptions = {}): GeneratedSuite {
  const frames = sentences.filter((s) => s.type === 'tp');
  const baits = sentences.filter((s) => s.type === 'fp');
  const tpCount = frames.length * entities.length;
  const productSize = tpCount + baits.length;
  if (options.sample !== undefined && !(Number.isInteger(options.sample) && options.sample > 0)) {
    throw new Error(`the sample size must be a positive integer, not ${options.sample}`);
  }
  const indices =
    options.sample === undefined
      ? Array.from({ length: productSize }, (_, i) => i)
      : sampleIndices(options.sample, productSize, seededRandom(options.seed ?? 0));
  const items = indices.map((k) =>
    k < tpCount ? fillFrame(entities[k % entities.length], frames[Math.floor(k / entities.length)]) : fpItem(baits[k - tpCount]),
  );
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item.id)) throw new Error(`two items share the id ${item.id}; make entity and sentence ids distinct`);
    seen.add(item.id);
  }
  return { items, productSize };
}
