// The items a new run sends, as its creation request asks for them (POST /api/testsuites):
// an uploaded suite taken as it is, or a suite generated from the built-in catalogue by the
// request's queries, sample and seed. What cannot make a suite is refused as a bad request
// that says why (a query's syntax error names its column).
import { badRequest, type ApiError } from '../http/api-error.ts';
import { loadBuiltInCatalogue } from './catalogue-io.ts';
import { generateSuite, selectEntities, selectSentences } from './generate.ts';
import { QuerySyntaxError } from './query.ts';
import { itemsOfDocument, MAX_SUITE_ITEMS, SuiteDocumentError } from './suite-document.ts';
import type { GeneratedItem } from './types.ts';

/** The part of a creation request that says which items to run (the route's body validates it). */
export interface ItemsRequest {
  entityQuery?: string;
  sentenceQuery?: string;
  sample?: number;
  seed?: string | number;
  suite?: unknown;
}

/** A run's items, how they were made, and the size of the product they were sampled from. */
export interface RunItems {
  items: GeneratedItem[];
  made: Record<string, unknown>;
  productSize: number;
}

function queryError(field: string, error: QuerySyntaxError): ApiError {
  return badRequest(`${field}: ${error.reason} (at column ${error.position + 1})`, {
    field,
    position: error.position,
    reason: error.reason,
    query: error.query,
  });
}

function uploadedItems(body: ItemsRequest): RunItems {
  if (body.entityQuery !== undefined || body.sentenceQuery !== undefined || body.sample !== undefined || body.seed !== undefined) {
    throw badRequest('give either an uploaded "suite" or generation options (entityQuery, sentenceQuery, sample, seed), not both');
  }
  try {
    const items = itemsOfDocument(body.suite);
    const doc = body.suite as { made?: unknown; productSize?: unknown };
    const made = typeof doc.made === 'object' && doc.made !== null ? (doc.made as Record<string, unknown>) : {};
    return {
      items,
      made: { ...made, uploaded: true },
      productSize: typeof doc.productSize === 'number' ? doc.productSize : items.length,
    };
  } catch (error) {
    if (error instanceof SuiteDocumentError) throw badRequest(`suite: ${error.message}`);
    throw error;
  }
}

async function generatedItems(body: ItemsRequest): Promise<RunItems> {
  if (body.seed !== undefined && body.sample === undefined) throw badRequest('seed only applies with sample');
  const catalogue = await loadBuiltInCatalogue();
  const select = <T>(field: string, run: () => T): T => {
    try {
      return run();
    } catch (error) {
      if (error instanceof QuerySyntaxError) throw queryError(field, error);
      throw error;
    }
  };
  const entities = select('entityQuery', () => selectEntities(catalogue.entities, body.entityQuery));
  const sentences = select('sentenceQuery', () => selectSentences(catalogue.sentences, body.sentenceQuery));
  const seed = body.sample === undefined ? null : String(body.seed ?? '0');
  const suite = generateSuite(entities, sentences, { sample: body.sample, seed: seed ?? 0 });
  if (suite.items.length === 0) throw badRequest('the queries select no item; loosen entityQuery or sentenceQuery');
  if (suite.items.length > MAX_SUITE_ITEMS)
    throw badRequest(`the suite would have ${suite.items.length} items; at most ${MAX_SUITE_ITEMS} run at once: add sample`);
  const made = {
    entities: 'built-in',
    sentences: 'built-in',
    entityQuery: body.entityQuery ?? null,
    sentenceQuery: body.sentenceQuery ?? null,
    sample: body.sample ?? null,
    seed,
    selectedEntities: entities.length,
    selectedSentences: sentences.length,
  };
  return { items: suite.items, made, productSize: suite.productSize };
}

/** The items the request asks for: its uploaded suite, or the built-in catalogue's by its options. */
export async function runItems(body: ItemsRequest): Promise<RunItems> {
  return body.suite !== undefined ? uploadedItems(body) : generatedItems(body);
}
